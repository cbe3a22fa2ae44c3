"""Server bot accounts through a real running server (issue 36): the reference bots play every game
through the bridge; a bot that never answers, disconnects or is replaced never stalls a table; the
stream never carries another seat's hidden cards or the seed."""

from __future__ import annotations

import random
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.bots.protocol import build_request
from parlour.core.record import GameRecord, replay_steps, start_state
from parlour.core.registry import load_game
from parlour.server.tables import CLOCK_NOTE

from .bot_api import Person, Stream, bot_call, bridge, create_with_bot, wait_online, wait_over
from .live_server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "bots" / "reference"
BOTS = {
    "py-random": [sys.executable, str(REFERENCE / "random_bot.py"), "--seed", "1"],
    "py-greedy": [sys.executable, str(REFERENCE / "greedy_bot.py"), "--seed", "1"],
    "js-random": ["node", str(REFERENCE / "random_bot.js")],
}
GAMES = {"venture": 3, "im-the-boss": 3, "venus-needs-men": 3}
OPTIONS: dict[str, dict[str, object]] = {"im-the-boss": {"length": "short", "max_turns": 30}}
"""Shorter games where the rules offer it (random bots negotiate for long)."""


@pytest.fixture
def roomy(tmp_path: Path) -> Iterator[LiveServer]:
    """A real server whose per-address rate lets a bot at full speed and the test's polls through."""
    live = LiveServer(tmp_path / "parlour.db", extra=["--http-rate", "2000", "--http-burst", "4000"]).start()
    yield live
    live.stop()


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_reference_bot_plays_every_game_through_the_server(
    roomy: LiveServer, bot: str, game: str
) -> None:
    server = roomy
    if bot.startswith("js") and shutil.which("node") is None:
        pytest.skip("node is not installed")
    token = Person(server, "owner").make_bot("refbot")
    running = bridge(server, token, BOTS[bot])
    try:
        wait_online(server, "refbot")
        seats = ["account:refbot"] + ["random"] * (GAMES[game] - 1)
        # Nobody watches: passes land at the bots' pace (no pass delay to hide a person's hand).
        table = create_with_bot(server, game, seats, options=OPTIONS.get(game, {}), spectators=False)
        status = wait_over(server, table, 600)  # I'm the Boss! on PostgreSQL under load: minutes
        assert status["over"] and status["seats"][0]["name"] == "refbot"
        assert running.wait(30) == 0
        # The bot played: its clock never ran out (the clock alone would have ended the game too).
        view = server.get(f"/api/tables/{table}")  # a finished game is open to everyone
        assert view["seats"][0]["timeouts"] == 0 and view["seats"][0]["bot_account"] is True
        late = [e for e in view["log"] if e["seat"] == 0 and e["note"] == CLOCK_NOTE]
        assert late == [], late[:3]
    finally:
        if running.poll() is None:
            running.kill()
            running.wait()


@pytest.mark.slow
def test_a_bot_that_never_answers_or_leaves_never_stalls_its_table(server: LiveServer) -> None:
    token = Person(server, "owner").make_bot("sleepy")
    stream = Stream(server, token)
    try:
        wait_online(server, "sleepy")
        table = create_with_bot(server, "embers", ["account:sleepy", "random"], move_seconds=1)
        first = stream.next("request")
        assert first["table"] == table and first["time_ms"] <= 1000
        second = stream.next("request", timeout=15)  # the clock played for it: a new request
        assert second["id"] > first["id"]
        stream.close()  # the bot leaves: offline, and the clock plays its seat to the end
        wait_online(server, "sleepy", online=False, timeout=30)
        status = wait_over(server, table, 120)
        assert status["over"]
    finally:
        stream.close()


def test_a_reconnecting_bot_gets_its_open_request_again_and_a_newer_stream_replaces_the_older(
    server: LiveServer,
) -> None:
    token = Person(server, "owner").make_bot("again")
    first = Stream(server, token)
    wait_online(server, "again")
    table = create_with_bot(server, "embers", ["account:again", "random"])
    request = first.next("request")
    second = Stream(server, token)
    assert second.next("start")["table"] == table
    reopened = second.next("request")
    assert {**reopened, "time_ms": 0} == {**request, "time_ms": 0}  # the same request, the same id
    error = first.next("error", timeout=15)
    assert "replaced" in error["message"]
    reply = bot_call(
        server, "POST", f"/api/bot/tables/{table}/answer", token, b'{"id": %d, "action": 0}' % request["id"]
    )
    assert reply[0] == 200, reply
    first.close()
    second.close()


@pytest.mark.slow
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_the_stream_never_carries_the_seed_or_another_seats_cards(roomy: LiveServer, game_name: str) -> None:
    server = roomy
    token = Person(server, "owner").make_bot("honest")
    stream = Stream(server, token)
    try:
        wait_online(server, "honest")
        seats = ["account:honest"] + ["random"] * (GAMES[game_name] - 1)
        options = OPTIONS.get(game_name, {})
        table = create_with_bot(server, game_name, seats, options=options, spectators=False)
        requests: list[dict[str, Any]] = []
        replies: list[tuple[int, Any]] = []
        while True:
            try:
                message = stream.next(timeout=70)
            except AssertionError:
                raise AssertionError(str(replies[-5:])) from None
            if message["type"] == "request":
                requests.append(message)
                path = f"/api/bot/tables/{table}/answer"
                body = b'{"id": %d, "action": 0}' % message["id"]
                replies.append(bot_call(server, "POST", path, token, body))
            elif message["type"] == "end":
                break
        record = GameRecord.from_json(server.get(f"/api/tables/{table}/record"))
        assert record.seed is not None
        raw = b"".join(stream.raw)
        assert str(record.seed).encode() not in raw
        game = load_game(game_name)
        state = start_state(game, record)
        rng = random.Random(5)

        def seen(version: int) -> dict[str, Any]:
            """The request at ``version``, checked the same from a state dealt differently where seat 0
            cannot tell (a determinisation: the other seats' hidden cards and the deck shuffled)."""
            built = build_request(state, 0, version, 0)
            assert build_request(state.determinize(0, rng), 0, version, 0) == built
            return built

        expected = {0: seen(0)} if 0 in state.deciders() else {}
        for number in replay_steps(state, record):
            if 0 in state.deciders() and not state.is_over():
                expected[number] = seen(number)
        assert requests
        refused = [reply for status, reply in replies if status != 200]
        # 409: the table moved on meanwhile; 429: beyond the bot's rate (a whole game at the tests' pace)
        odd = [reply for reply in refused if reply["status"] not in (409, 429)]
        assert not odd, odd
        assert len(refused) < len(replies), refused  # some answers played (under load most may be late)
        for request in requests:
            want = expected[request["id"]]
            got = {k: v for k, v in request.items() if k not in ("time_ms", "table")}
            assert got == {k: v for k, v in want.items() if k != "time_ms"}
    finally:
        stream.close()


HELLO = (
    "import json, sys\n"
    "hello = {'type': 'hello', 'name': 'h', 'protocol': 'parlour-bot/1', 'games': {'*': []}}\n"
    "print(json.dumps(hello), flush=True)\n"
)
"""The start of each hostile program: a proper hello."""
HOSTILE = {
    "crash": "import sys; sys.exit(3)",
    "garbage": HELLO + "for line in sys.stdin:\n    print('not json', flush=True)\n",
    "huge": HELLO + "for line in sys.stdin:\n    print('x' * 1_000_000, flush=True)\n",
    "sleep": HELLO + "import time\ntime.sleep(3600)\n",
    "illegal": HELLO
    + "for line in sys.stdin:\n    m = json.loads(line)\n"
    + "    print(json.dumps({'type': 'action', 'id': m.get('id'), 'action': 999}), flush=True)\n",
    "wrong-id": HELLO
    + "for line in sys.stdin:\n    m = json.loads(line)\n"
    + "    print(json.dumps({'type': 'action', 'id': -5, 'action': 0}), flush=True)\n",
    "stderr": HELLO
    + "import threading\n"
    + "noise = lambda: [sys.stderr.write('x' * 65536) for _ in iter(int, 1)]\n"
    + "threading.Thread(target=noise, daemon=True).start()\n"
    + "for line in sys.stdin:\n    m = json.loads(line)\n"
    + "    if m['type'] == 'request':\n"
    + "        print(json.dumps({'type': 'action', 'id': m['id'], 'action': 0}), flush=True)\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_bot_through_the_bridge_never_stalls_its_table(roomy: LiveServer, kind: str) -> None:
    token = Person(roomy, "owner").make_bot("hostile")
    running = bridge(roomy, token, [sys.executable, "-c", HOSTILE[kind]])
    try:
        wait_online(roomy, "hostile")
        table = create_with_bot(
            roomy, "embers", ["account:hostile", "random"], move_seconds=1, spectators=False
        )
        status = wait_over(roomy, table, 240)
        assert status["over"]
        assert running.wait(30) == 0
    finally:
        if running.poll() is None:
            running.kill()
            running.wait()
