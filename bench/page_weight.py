"""Page weight: the bytes the lobby, each game's table page and the learn page load, with and without
compression.

Each page's HTTP requests (its HTML, the scripts and styles it names, the game's drawing and the JSON
it fetches) are asked of a real server twice, with ``Accept-Encoding: gzip`` and with ``identity``, and
the bodies' sizes as sent are added up (headers left out: a few hundred bytes a request either way).
A table page's own data comes over its WebSocket (the first view: the table, its card texts and drawn
content), which uvicorn compresses per message (permessage-deflate) when the browser offers it, as
Chromium does: its size is given as JSON and deflated.
Run alone: ``python bench/page_weight.py`` (or ``make bench ONLY=pages``).
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import tempfile
import urllib.request
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # as under pytest: server.live_server

from server.live_server import LiveServer

from parlour.server.app import STATIC

GAMES = [("venture", {}), ("im-the-boss", {"length": "short"}), ("venus-needs-men", {"length": "short"})]
"""The games whose table pages are weighed (a person and two bots each), with their options."""


def sent_size(url: str, encoding: str) -> int:
    """Returns the size of a response's body as the server sent it, asked with ``encoding``."""
    request = urllib.request.Request(url, headers={"accept-encoding": encoding})
    with urllib.request.urlopen(request, timeout=30) as reply:  # urllib decodes nothing
        return len(reply.read())


def named_assets(html: str) -> list[str]:
    """Returns the scripts and style sheets a page's HTML names, in order."""
    return re.findall(r'<(?:script src|link rel="stylesheet" href)="([^"]+)"', (STATIC / html).read_text())


def weigh(base: str, page: str, paths: list[str]) -> dict[str, Any]:
    """Returns a page's bytes over HTTP: every path asked plainly and gzipped."""
    plain = sum(sent_size(base + p, "identity") for p in paths)
    packed = sum(sent_size(base + p, "gzip") for p in paths)
    return {
        "page": page,
        "requests": len(paths),
        "plain": plain,
        "gzip": packed,
        "ratio": round(packed / plain, 3),
    }


async def first_view(base: str, table: str, token: str) -> tuple[int, int, bool]:
    """Returns a seat's first view over the WebSocket: its JSON bytes, those bytes deflated (what
    permessage-deflate sends, near enough), and whether the server agreed to compress."""
    import websockets

    async with websockets.connect(f"{base.replace('http', 'ws')}/ws/{table}", max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        message = await ws.recv()
        assert ws.response is not None  # the handshake is done once connected
        agreed = "permessage-deflate" in (ws.response.headers.get("sec-websocket-extensions") or "")
    data = message.encode() if isinstance(message, str) else message
    deflater = zlib.compressobj(wbits=-15)
    return len(data), len(deflater.compress(data) + deflater.flush(zlib.Z_SYNC_FLUSH)), agreed


def table_weight(server: LiveServer, game: str, options: dict[str, str]) -> dict[str, Any]:
    """Returns a game's table page's weight: over HTTP, and its first view over the WebSocket."""
    made = server.create(game, ["human", "greedy", "greedy"], options=options)
    table, token = made["table"], made["seats"]["0"].split("#k=")[1]
    paths = [
        f"/t/{table}",
        *named_assets("table.html"),
        f"/static/games/{game}.js",
        f"/static/games/{game}.css",
    ]
    row = weigh(server.url, game, paths)
    row["ws_view"], row["ws_view_deflated"], row["ws_compressed"] = asyncio.run(
        first_view(server.url, table, token)
    )
    return row


def page_weights(db: Path) -> list[dict[str, Any]]:
    """Returns the weight of the lobby and of each game's table page, on a server with database ``db``."""
    server = LiveServer(db).start()
    try:
        lobby = [
            "/",
            *named_assets("index.html"),
            "/api/games",
            "/static/lobby.json",
            "/api/tables",
            "/api/learn",
        ]
        rows = [weigh(server.url, "lobby", lobby)]
        rows += [table_weight(server, game, options) for game, options in GAMES]
        learn = ["/learn/venture", *named_assets("learn.html"), "/static/games/venture.js"]
        learn += ["/static/games/venture.css", "/api/games/venture/glossary"]  # the steps: POSTs, not weighed
        rows.append(weigh(server.url, "learn-venture", learn))
        return rows
    finally:
        server.stop()


def print_weights(rows: list[dict[str, Any]]) -> None:
    """Prints the figures as a table (KiB)."""
    head = f"  {'page':16s} {'requests':>8s} {'plain KiB':>10s} {'gzip KiB':>9s} {'ratio':>6s}"
    print(head + "  first view (WebSocket)")
    for r in rows:
        view = ""
        if "ws_view" in r:
            view = f"{r['ws_view'] / 1024:.1f} KiB, deflated {r['ws_view_deflated'] / 1024:.1f} KiB"
            view += "" if r["ws_compressed"] else " (not compressed: the server did not agree)"
        print(
            f"  {r['page']:16s} {r['requests']:>8d} {r['plain'] / 1024:>10.1f} {r['gzip'] / 1024:>9.1f}"
            f" {r['ratio']:>6.2f}  {view}"
        )


def page_weight_figures(results: dict[str, Any]) -> None:
    """Measures and prints the pages' weights into ``results`` (``make bench``)."""
    print(
        "Page weight: HTTP bodies of each page, plain and gzipped; a table's first view over its WebSocket:"
    )
    with tempfile.TemporaryDirectory(prefix="parlour-pages-") as folder:
        results["page_weight"] = page_weights(Path(folder) / "parlour.db")
    print_weights(results["page_weight"])


if __name__ == "__main__":
    page_weight_figures({})
