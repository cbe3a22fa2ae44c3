"""The reference bots (bots/reference: Python random and greedy, Node.js random) play every game to its
end through ``simulate``, using nothing but the protocol; what a bot reads is its seat's view only."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from parlour.bots.command_bot import CommandBot
from parlour.bots.random_bot import RandomBot
from parlour.bots.registry import make_bot
from parlour.bots.simulation import Batch, simulate
from parlour.core.agents import Agent
from parlour.core.match import play_match
from parlour.core.registry import load_game
from parlour.core.state import GameState

from .test_command_bot import HOSTILE, assert_gone

REFERENCE = Path(__file__).parents[2] / "bots" / "reference"
NODE = shutil.which("node")
COMMANDS = Batch(commands=True)
"""A batch that lets cmd: seats start their programs (as the command line's does)."""
GAMES = {"venture": {}, "im-the-boss": {}, "venus-needs-men": {"game": "basic"}, "embers": {}}


def python_bot(name: str, *extra: str) -> str:
    """Returns the seat of a Python reference bot."""
    words = [sys.executable, str(REFERENCE / name), *extra]
    return "cmd[timeout=20s]:" + " ".join(shlex.quote(w) for w in words)


def node_bot() -> str:
    """Returns the seat of the Node.js reference bot."""
    assert NODE is not None
    return f"cmd[timeout=20s]:{shlex.quote(NODE)} {shlex.quote(str(REFERENCE / 'random_bot.js'))}"


def warnings_during(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Returns the command bots' warnings captured so far."""
    return [r.getMessage() for r in caplog.records if r.name == "parlour.bots.command_bot"]


@pytest.mark.parametrize("game_name", list(GAMES))
def test_the_python_reference_bots_play_every_game_to_the_end(
    game_name: str, caplog: pytest.LogCaptureFixture
) -> None:
    seats = [python_bot("random_bot.py", "--seed", "1"), python_bot("greedy_bot.py", "--seed", "2"), "random"]
    summary = simulate(game_name, seats, 2, seed=3, options=GAMES[game_name], batch=COMMANDS)
    assert summary["games"] == 2 and summary["actions"] > 0
    assert warnings_during(caplog) == []


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (make test installs it)")
@pytest.mark.parametrize("game_name", list(GAMES))
def test_the_node_reference_bot_plays_every_game_to_the_end(
    game_name: str, caplog: pytest.LogCaptureFixture
) -> None:
    seats = [node_bot(), "random", node_bot()]
    summary = simulate(game_name, seats, 1, seed=4, options=GAMES[game_name], batch=COMMANDS)
    assert summary["games"] == 1
    assert warnings_during(caplog) == []


@pytest.mark.slow
@pytest.mark.parametrize("game_name", list(GAMES))
def test_four_reference_bots_play_more_games_on_two_workers(
    game_name: str, caplog: pytest.LogCaptureFixture
) -> None:
    seats = [python_bot("random_bot.py"), python_bot("greedy_bot.py"), python_bot("random_bot.py"), "random"]
    if NODE is not None:
        seats[2] = node_bot()
    batch = Batch(workers=2, commands=True)
    summary = simulate(game_name, seats, 6, seed=5, options=GAMES[game_name], batch=batch)
    assert summary["games"] == 6
    assert warnings_during(caplog) == []


def test_workers_each_start_their_own_bots(caplog: pytest.LogCaptureFixture) -> None:
    seats = [python_bot("random_bot.py"), "random", python_bot("greedy_bot.py")]
    one = simulate("embers", seats, 4, seed=6, batch=COMMANDS)
    two = simulate("embers", seats, 4, seed=6, batch=Batch(workers=2, commands=True))
    assert one["games"] == two["games"] == 4
    assert warnings_during(caplog) == []


class Watched(CommandBot):
    """A command bot that keeps the observation its seat had at each request it sent."""

    seen: list[object]

    def choose(self, state: GameState, seat: int) -> object:
        """Notes the seat's observation, then asks the bot."""
        self.seen.append(json.loads(json.dumps(state.observation(seat))))
        return super().choose(state, seat)


@pytest.mark.parametrize("game_name", list(GAMES))
def test_a_bot_reads_its_seats_observation_and_never_the_seed(game_name: str, tmp_path: Path) -> None:
    game = load_game(game_name)
    seed = 918273645
    record = tmp_path / "requests.jsonl"
    words = [sys.executable, str(HOSTILE), "record", str(record)]
    made = make_bot(game, "cmd[timeout=20s]:" + " ".join(shlex.quote(w) for w in words), 0, commands=True)
    assert isinstance(made, CommandBot)
    bot = Watched(made.seat, made.stand_in, GAMES[game_name])
    bot.seen = []
    agents: list[Agent] = [RandomBot(1), bot, RandomBot(2), RandomBot(3)]
    result = play_match(game, agents, seed, GAMES[game_name])
    assert result.state.is_over() and bot.stopped is None
    text = record.read_text()
    assert str(seed) not in text
    requests = [json.loads(line) for line in text.splitlines()]
    assert len(requests) == len(bot.seen) > 0
    for request, observation in zip(requests, bot.seen, strict=True):
        assert request["seat"] == 1 and request["observation"] == observation
    assert_gone(bot.pid)
