"""Two persons and a random bot play random legal moves over WebSockets: every move sent is answered
(accepted, or refused with a reason), typed passes waiting in a window included, and the game ends.

A reported stall ("a typed pass waiting in a window is never answered") came from a client sending
faster than a connection's message budget (limits.RATE, 20 a second): the messages beyond it are
dropped with one refusal a second, by design, so a client counting answers waits for ever. Within the
budget, as here (and with typed passes queued: the pass delay is longer than the client's pace),
nothing is left unanswered. A client must also expect a game's last view before its move's answer."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
import websockets

from .live_server import LiveServer

pytestmark = pytest.mark.slow

GAMES = {
    "im-the-boss": {"length": "short", "max_turns": 6},
    "venture": {},
    "venus-needs-men": {},
}
ANSWER_SECONDS = 10.0
"""How long a move may wait for its answer (a queued pass waits for the pass delay, well under it)."""
SEND_EVERY = 0.06
"""A client's least time between two messages: within a connection's budget of 20 a second."""


async def play(url: str, table: str, token: str, rng: random.Random, seconds: float) -> dict[str, Any]:
    """Plays one seat: a random legal move each time it is asked at a version it has not tried (again
    after a refusal), one move unanswered at a time; returns what happened."""
    sent: list[tuple[int, str]] = []
    answers: list[dict[str, Any]] = []
    end, last_send = time.monotonic() + seconds, 0.0
    latest: dict[str, Any] = {}
    tried = -1
    async with websockets.connect(f"{url}/ws/{table}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while time.monotonic() < end:
            wait = ANSWER_SECONDS if len(answers) < len(sent) else end - time.monotonic()
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, wait)))
            except TimeoutError:
                return {"over": False, "sent": sent, "answers": answers, "view": latest}
            if message.get("type") in ("accepted", "error"):
                answers.append(message)
                if message["type"] == "error" and message.get("status") != 409:
                    tried = -1  # refused at this version: another try
            elif message.get("type") == "table":
                latest = message
            else:
                continue
            if latest.get("results") and len(answers) == len(sent):
                return {"over": True, "sent": sent, "answers": answers, "view": latest}
            version = latest.get("version", -1)
            if (
                latest.get("legal")
                and not latest.get("results")
                and version > tried
                and len(answers) == len(sent)
            ):
                await asyncio.sleep(max(0.0, last_send + SEND_EVERY - time.monotonic()))
                last_send, tried = time.monotonic(), version
                action = rng.choice(latest["legal"])
                sent.append((version, action))
                await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
    return {"over": False, "sent": sent, "answers": answers, "view": latest}


async def game(server: LiveServer, name: str, seed: int) -> list[dict[str, Any]]:
    """Plays one game of two persons and a random bot; returns each person's account of it."""
    made = server.create(name, ["human", "human", "random"], options=GAMES[name])
    tokens = {int(seat): link.split("#k=")[1] for seat, link in made["seats"].items()}
    url = server.url.replace("http://", "ws://")
    rng = random.Random(seed)
    seats = [play(url, made["table"], tokens[s], random.Random(rng.random()), 120.0) for s in (0, 1)]
    return list(await asyncio.gather(*seats))


@pytest.mark.parametrize("name", list(GAMES))
def test_random_persons_get_every_move_answered_and_finish(tmp_path: Path, name: str) -> None:
    # Quick bots, but a pass delay long enough that typed passes wait in their windows (queued).
    log = tmp_path / "server.log"
    server = LiveServer(tmp_path / "parlour.db", think=0.02, pass_delay=0.25, log=log).start()
    try:
        for seed in range(3 if name == "im-the-boss" else 1):
            for seat, found in enumerate(asyncio.run(game(server, name, seed))):
                sent, answers = found["sent"], found["answers"]
                view = found["view"]
                where = (
                    f"{name} seed {seed} seat {seat}: sent {sent[-3:]}, answers {answers[-2:]}, "
                    f"last view {view.get('version')} asked {view.get('asked')}; "
                    f"server: {log.read_text()[-1500:]}"
                )
                assert len(answers) == len(sent), f"a move was never answered: {where}"
                assert all(a["type"] == "accepted" or a.get("error") for a in answers), where
                assert found["over"], f"the game did not end: {where}"
                assert any(a["type"] == "accepted" for a in answers), where
    finally:
        server.stop()
