"""The shipped proxy configurations (deploy/nginx/parlour.conf with Debian's nginx, and
deploy/haproxy/parlour.cfg with Debian's HAProxy) in front of real nodes: pages, the API and WebSockets
go through over HTTPS, a game of Embers is played through them, requests are spread over the nodes and a
stopped node is skipped, bodies over the limit stop at the proxy, and a node believes the client's
address from X-Forwarded-For only because it trusts the proxy."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import ssl
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server.live_server import LiveServer

from .proxy import HAPROXY_CONFIG, KINDS, SITE, Proxy, render, render_haproxy
from .services import Missing

pytestmark = pytest.mark.slow  # every test starts nodes (seconds each on two cores)

TRUST = ["--forwarded-allow-ips", "127.0.0.1"]


def started(kind: str, nodes: list[int]) -> Proxy:
    """The proxy ``kind`` running its shipped configuration in front of ``nodes`` (skipped, saying
    why, if it is not installed)."""
    try:
        return KINDS[kind](nodes).start()
    except Missing as missing:
        pytest.skip(str(missing))


@pytest.fixture(scope="module", params=sorted(KINDS))
def kind(request: pytest.FixtureRequest) -> str:
    """Each proxy in turn."""
    name: str = request.param
    return name


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[LiveServer]]:
    """Two nodes, each on its own SQLite file, trusting the proxy on 127.0.0.1."""
    made = [
        LiveServer(tmp_path_factory.mktemp(f"node{n}") / "parlour.db", extra=TRUST).start() for n in (1, 2)
    ]
    yield made
    for node in made:
        node.stop()


@pytest.fixture(scope="module")
def proxy(kind: str, nodes: list[LiveServer]) -> Iterator[Proxy]:
    """The proxy in front of both nodes."""
    found = started(kind, [node.port for node in nodes])
    yield found
    found.stop()


def context(proxy: Proxy) -> ssl.SSLContext:
    """A TLS context that trusts the test's certificate (and checks the name, 127.0.0.1)."""
    return ssl.create_default_context(cafile=str(proxy.cert))


def request(
    proxy: Proxy,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> tuple[int, dict[str, str], bytes]:
    """Makes one HTTPS request through the proxy from the address ``source``; returns the status, the
    headers (lower-case names, repeated ones joined) and the body."""
    connection = http.client.HTTPSConnection(
        "127.0.0.1", proxy.https, timeout=10, context=context(proxy), source_address=(source, 0)
    )
    try:
        connection.request(method, path, body=body, headers=headers or {})
        reply = connection.getresponse()
        found: dict[str, str] = {}
        for name, value in reply.getheaders():
            found[name.lower()] = f"{found[name.lower()]}, {value}" if name.lower() in found else value
        return reply.status, found, reply.read()
    finally:
        connection.close()


def api(proxy: Proxy, method: str, path: str, data: Any = None, token: str | None = None) -> Any:
    """A JSON request through the proxy that must succeed; returns its answer."""
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    body = None if data is None else json.dumps(data).encode()
    status, _, answer = request(proxy, method, path, body, headers)
    assert status in (200, 201), (status, answer[:300])
    return json.loads(answer)


def new_table(proxy: Proxy, game: str, seats: list[str]) -> dict[str, Any]:
    """Makes a table through the proxy; returns the answer with each seat's token and the spectator's."""
    spec = [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats]
    made: dict[str, Any] = api(proxy, "POST", "/api/tables", {"game": game, "seats": spec})
    made["tokens"] = {int(seat): link.split("#k=")[1] for seat, link in made["seats"].items()}
    made["spectator_token"] = made["spectator"].split("#k=")[1]
    return made


def knows(node: LiveServer, table: str) -> bool:
    """Returns whether a node (asked directly) has the table."""
    status, _, _ = direct(node, f"/api/tables/{table}/status")
    return status == 200


def direct(node: LiveServer, path: str) -> tuple[int, dict[str, str], bytes]:
    """One GET straight to a node, past the proxy."""
    connection = http.client.HTTPConnection("127.0.0.1", node.port, timeout=10)
    try:
        connection.request("GET", path)
        reply = connection.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        connection.close()


def test_the_proxy_accepts_its_shipped_configuration_as_rendered(proxy: Proxy) -> None:
    checked = proxy.check()
    said = checked.stdout + checked.stderr
    assert checked.returncode == 0 and ("syntax is ok" in said or "Configuration file is valid" in said), said


def test_rendering_the_nginx_site_changes_only_ports_nodes_certificate_and_logs() -> None:
    shipped = SITE.read_text()
    rendered = render(shipped, 1, 2, [3, 4], Path("/x"))
    # Only the ports, the nodes, the certificate and the logs differ; the IPv6 listens are left out.
    assert "server 127.0.0.1:3 max_fails" in rendered and "server 127.0.0.1:4 max_fails" in rendered
    code = "\n".join(line.split("#")[0] for line in rendered.splitlines())
    assert "8001" not in code and "[::]" not in code and "/etc/" not in code
    assert len(shipped.splitlines()) - len(rendered.splitlines()) == 3  # two listens, one node


def test_rendering_the_haproxy_configuration_changes_only_what_a_test_needs() -> None:
    shipped = HAPROXY_CONFIG.read_text()
    rendered = render_haproxy(shipped, 1, 2, [3, 4], Path("/x"))
    code = "\n".join(line.split("#")[0] for line in rendered.splitlines())
    assert "server node3 127.0.0.1:3\n" in code and code.endswith("server node4 127.0.0.1:4")
    assert "8001" not in code and "[::]" not in code and "/etc/" not in code and "chroot" not in code
    assert "bind 127.0.0.1:1 ssl crt /x/both.pem" in code and "bind 127.0.0.1:2\n" in code
    # two binds, one node, the chroot, stats socket, user, group and daemon lines
    assert len(shipped.splitlines()) - len(rendered.splitlines()) == 8


def test_pages_and_the_api_go_through_and_are_spread_over_both_nodes(
    proxy: Proxy, nodes: list[LiveServer]
) -> None:
    status, headers, page = request(proxy, "GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html") and b"<html" in page.lower()
    status, _, script = request(proxy, "GET", "/static/table.js")  # beyond proxy buffers
    assert status == 200 and script == direct(nodes[0], "/static/table.js")[2] and len(script) > 32_768
    games = {game["name"] for game in api(proxy, "GET", "/api/games")}
    assert {"venture", "embers"} <= games
    tables = [new_table(proxy, "embers", ["human", "human"])["table"] for _ in range(6)]
    where = [[knows(node, table) for node in nodes] for table in tables]
    assert all(sum(found) == 1 for found in where), where  # each table made on one node
    assert all(any(found[n] for found in where) for n in range(2)), where  # and both nodes made some
    for table in tables:  # the table's own pages, whichever node answers the request
        status, _, page = request(proxy, "GET", f"/t/{table}")
        assert status == 200 and b"<html" in page.lower()


def test_plain_http_is_sent_to_https(proxy: Proxy) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", proxy.http, timeout=10)
    try:
        connection.request("GET", "/api/games?x=1", headers={"host": "parlour.example.org"})
        reply = connection.getresponse()
        assert reply.status == 301
        assert reply.getheader("location") == "https://parlour.example.org/api/games?x=1"
    finally:
        connection.close()


def announced(proxy: Proxy, path: str, length: int) -> bytes:
    """Sends a POST's headers announcing a body of ``length`` bytes, and no body; returns the answer
    (the proxy decides on the headers, and a client still sending would be cut off mid-body)."""
    with (
        socket.create_connection(("127.0.0.1", proxy.https), timeout=10) as raw,
        context(proxy).wrap_socket(raw, server_hostname="127.0.0.1") as tls,
    ):
        tls.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{proxy.https}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n".encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer and (chunk := tls.recv(65536)):
            answer += chunk
        return answer


def test_a_body_over_the_limit_stops_at_the_proxy(proxy: Proxy) -> None:
    answer = announced(proxy, "/api/tables", 20_000)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert b"application/json" not in answer.split(b"\r\n\r\n")[0].lower()  # the proxy's page
    small = json.dumps({"game": "embers", "pad": "x" * 15_000}).encode()
    status, _, answer = request(proxy, "POST", "/api/tables", small, {"content-type": "application/json"})
    assert status == 400 and json.loads(answer)["type"] == "error"  # the node's own refusal


def test_a_session_cookie_is_secure_and_same_origin_checks_pass_through_the_proxy(proxy: Proxy) -> None:
    user = {"username": f"proxied{time.monotonic_ns() % 10**9}", "password": "correct horse battery"}
    body = json.dumps(user).encode()
    mine = {"content-type": "application/json", "origin": proxy.url}
    status, headers, answer = request(proxy, "POST", "/api/register", body, mine)
    assert status == 201, answer[:300]
    assert "secure" in headers["set-cookie"].lower()  # the node knows the client came over HTTPS
    theirs = {**mine, "origin": "https://elsewhere.example"}
    status, _, answer = request(proxy, "POST", "/api/register", body, theirs)
    assert status == 403 and b"another site" in answer


def test_a_stopped_node_is_skipped(kind: str, nodes: list[LiveServer], tmp_path: Path) -> None:
    spare = LiveServer(tmp_path / "parlour.db", extra=TRUST).start()
    front = started(kind, [nodes[0].port, spare.port])
    try:
        spare.stop()
        answers = [request(front, "GET", "/api/games")[0] for _ in range(8)]
        assert answers == [200] * 8
    finally:
        front.stop()
        spare.stop()


def play_embers(front: Proxy, made: dict[str, Any]) -> list[dict[str, Any]]:
    """Two people play a whole game of Embers over WebSockets through the proxy while a spectator
    watches; returns every table message the spectator received. (websockets' asyncio client: its
    threaded client can lose its upgrade request over TLS, its reader and writer racing on one socket.)"""
    return asyncio.run(asyncio.wait_for(_play_embers(front, made), 120))


async def _play_embers(front: Proxy, made: dict[str, Any]) -> list[dict[str, Any]]:
    """play_embers' game."""
    from websockets.asyncio.client import ClientConnection, connect

    url = f"wss://127.0.0.1:{front.https}/ws/{made['table']}"
    tls = context(front)

    async def receive(ws: ClientConnection) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return found

    watched: list[dict[str, Any]] = []
    async with (
        connect(url, ssl=tls, open_timeout=10) as a,
        connect(url, ssl=tls, open_timeout=10) as b,
        connect(url, ssl=tls, open_timeout=10) as watcher,
    ):
        sockets = {0: a, 1: b}
        views: dict[int, dict[str, Any]] = {}
        for seat, ws in sockets.items():
            await ws.send(json.dumps({"type": "hello", "token": made["tokens"][seat]}))
            views[seat] = await receive(ws)
        # The spectator's first view comes before the first move: a move made while a hello is being
        # answered can reach the connection after its first view, older than it (sockets.py admits
        # the listener, then reads the chat, then sends the first view).
        await watcher.send(json.dumps({"type": "hello", "token": made["spectator_token"]}))
        watched.append(await receive(watcher))
        while not all(view["over"] for view in views.values()):
            top = max(view["version"] for view in views.values())
            if all(view["version"] == top for view in views.values()):  # both seats see the same table
                movers = [s for s, v in views.items() if v["asked"] and v["legal"]]
                if movers:
                    act = {"type": "act", "action": views[movers[0]]["legal"][-1], "version": top}
                    await sockets[movers[0]].send(json.dumps(act))
                top += 1  # the move, or whatever comes next (an automatic pass)
            for seat, ws in sockets.items():  # each seat catches up with it
                while views[seat]["version"] < top and not views[seat]["over"]:
                    message = await receive(ws)
                    # 409: an automatic pass came first (the view goes on); nothing else is wrong
                    assert message["type"] != "error" or message["status"] == 409, message
                    if message["type"] == "table":
                        views[seat] = message
        while not watched[-1]["over"]:
            message = await receive(watcher)
            if message["type"] == "table":
                watched.append(message)
    return watched


def test_two_people_play_embers_through_the_proxy_and_a_spectator_sees_every_move(
    kind: str, nodes: list[LiveServer]
) -> None:
    # One node behind this proxy: nodes on SQLite files of their own share no tables, so both people's
    # sockets must reach the node that holds the table.
    every_move_in_order(*embers_through(kind, [nodes[0].port]))


def embers_through(kind: str, ports: list[int]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Plays a game of Embers through the proxy ``kind`` in front of the nodes on ``ports`` (started
    and stopped here); returns the views a spectator saw and the table's stored record."""
    front = started(kind, ports)
    try:
        made = new_table(front, "embers", ["human", "human"])
        watched = play_embers(front, made)
        record = api(front, "GET", f"/api/tables/{made['table']}/record")
    finally:
        front.stop()
    return watched, record


def every_move_in_order(watched: list[dict[str, Any]], record: dict[str, Any]) -> None:
    """Checks that a spectator saw the game to its end, in order, every move of its stored record."""
    assert watched[-1]["over"] and watched[-1]["results"]["end_reason"]
    versions = [message["version"] for message in watched]
    assert versions == sorted(versions)  # in order
    log: dict[int, str] = {}
    for message in watched:
        for number, entry in enumerate(message["log"], start=message["log_since"] + 1):
            assert entry["number"] == number and log.setdefault(number, entry["action"]) == entry["action"]
    assert sorted(log) == list(range(1, len(log) + 1))  # every move, none missing
    assert [log[n] for n in sorted(log)] == [move["action"] for move in record["moves"]]
    assert len(log) > 10


def cluster_flags() -> None:
    """Skips, saying why, while ``parlour serve`` has no --redis-url and --node-id (issue 34's other
    half: docs/cluster.md)."""
    from parlour.cli.main import build_parser

    usage = build_parser().parse_args(["serve"]).__dict__
    if "redis_url" not in usage or "node_id" not in usage:
        pytest.skip("parlour serve has no --redis-url and --node-id yet (node ownership, docs/cluster.md)")


def test_three_nodes_on_postgresql_and_redis_play_through_the_proxy(
    kind: str, pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    # The sockets spread over the nodes (the proxies count open connections: the two people and the
    # spectator each go to the node with the fewest), so moves cross between nodes.
    cluster_flags()
    key = ["--seed-key-file", str(tmp_path / "seed.key")]
    cluster = []
    try:
        for n in range(3):
            flags = [*TRUST, *key, "--redis-url", redis_url, "--node-id", f"node{n}"]
            cluster.append(LiveServer(tmp_path / f"node{n}.db", extra=flags, database_url=pg_url).start())
        watched, record = embers_through(kind, [node.port for node in cluster])
    finally:
        for node in cluster:
            node.stop()
    every_move_in_order(watched, record)


def test_a_node_believes_x_forwarded_for_only_from_a_trusted_proxy(kind: str, tmp_path: Path) -> None:
    # One HTTP request a client address may make in a burst of three, then none for 1,000 s: whose
    # budget a request spends shows which address the node believes it came from.
    limits = ["--http-rate", "0.001", "--http-burst", "3"]
    trusting = LiveServer(tmp_path / "trusting.db", extra=[*limits, *TRUST]).start()
    doubting = LiveServer(tmp_path / "doubting.db", extra=limits).start()
    fronts = [started(kind, [trusting.port]), started(kind, [doubting.port])]
    try:
        trusted, untrusted = fronts

        def statuses(front: Proxy, source: str, count: int, forged: str | None = None) -> list[int]:
            headers = {"x-forwarded-for": forged} if forged else None
            return [request(front, "GET", "/api/games", None, headers, source)[0] for _ in range(count)]

        # Trusted: 127.0.0.2 and 127.0.0.3 each have their own three; a forged header changes nothing.
        assert statuses(trusted, "127.0.0.2", 4) == [200, 200, 200, 429]
        assert statuses(trusted, "127.0.0.3", 3, forged="127.0.0.2") == [200, 200, 200]
        assert statuses(trusted, "127.0.0.3", 1) == [429]
        # Not trusted: every client is the proxy (127.0.0.1, which the start's polls also spent).
        first = statuses(untrusted, "127.0.0.2", 4)
        assert first[-1] == 429 and first.count(200) <= 3
        assert statuses(untrusted, "127.0.0.3", 1) == [429]
        status, _, answer = request(untrusted, "GET", "/api/games", source="127.0.0.4")
        assert status == 429 and json.loads(answer)["error"].startswith("too many requests")  # the node's
    finally:
        for front in fronts:
            front.stop()
        trusting.stop()
        doubting.stop()
