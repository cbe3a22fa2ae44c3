"""``cmd:`` seats (parlour.bots.command_bot): hostile programs never stall or break a game.

Each hostile bot (tests/bots/hostile/hostile_bot.py) sits at seat 0: the game ends, the bot is stopped
with the reason named in one warning, its stand-in plays on, no exception escapes, and no process of
its is left (reaped, its process group killed).
"""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parlour.bots.command_bot import (
    DEFAULT_TIMEOUT,
    STDERR_KEPT,
    CommandBot,
    is_command,
    parse_seat,
    split_seats,
)
from parlour.bots.random_bot import RandomBot
from parlour.bots.registry import make_bot
from parlour.core.agents import Agent
from parlour.core.errors import OptionError
from parlour.core.match import play_match
from parlour.core.registry import load_game

from .processes import linux_only

HOSTILE = Path(__file__).parent / "hostile" / "hostile_bot.py"
LOGGER = "parlour.bots.command_bot"
CLI = [sys.executable, "-m", "parlour.cli"]


def hostile(mode: str, *extra: str, settings: str = "timeout=300ms") -> str:
    """Returns the seat of the hostile bot in ``mode``."""
    words = [sys.executable, str(HOSTILE), mode, *extra]
    return f"cmd[{settings}]:" + " ".join(shlex.quote(w) for w in words)


class Keeper(logging.Handler):
    """Keeps every log record it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keeps the record."""
        self.records.append(record)


def play(game_name: str, seat: str, players: int = 3, seed: int = 5) -> tuple[CommandBot, list[str]]:
    """Plays a game with ``seat`` at seat 0 and random bots elsewhere; returns the bot and the warnings."""
    game = load_game(game_name)
    bot = make_bot(game, seat, 1, commands=True)
    assert isinstance(bot, CommandBot)
    agents: list[Agent] = [bot, *(RandomBot(s) for s in range(1, players))]
    handler = Keeper()
    records = handler.records
    logger = logging.getLogger(LOGGER)
    logger.addHandler(handler)
    try:
        result = play_match(game, agents, seed)
    finally:
        logger.removeHandler(handler)
    assert result.state.is_over()
    return bot, [r.getMessage() for r in records if r.levelno >= logging.WARNING]


def children() -> list[tuple[int, str]]:
    """Returns this process's children as (pid, state) from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == os.getpid():
            found.append((int(entry.name), fields[0]))
    return found


def assert_gone(pid: int | None) -> None:
    """Checks that process ``pid`` is no longer this process's child (reaped) and no child is a zombie."""
    assert pid is not None
    mine = children()
    assert pid not in [p for p, _ in mine]
    assert not [p for p, state in mine if state == "Z"]


def alive(pid: int) -> bool:
    """Returns whether process ``pid`` runs (a zombie counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


HOSTILE_CASES = [
    ("crash-at-once", "embers", "it ended (exit code 3)"),
    ("crash-mid-game", "embers", "it ended (exit code 1)"),
    ("garbage", "embers", "a line that is not JSON"),
    ("huge-line", "embers", "a line longer than 65536 bytes"),
    ("endless-line", "embers", "a line longer than 65536 bytes"),
    ("sleep", "embers", "it did not answer in 300 ms"),
    ("illegal-id", "embers", "action id 9999, not one of 0 to"),
    ("illegal-text", "embers", "'conquer the world', which is not one of the legal actions"),
    ("wrong-id", "embers", "an answer to request 12345 while request 1 was open"),
    ("bad-values", "embers", "values must be a list of"),
    ("views", "embers", "more than 3 times"),
    ("stderr-forever", "embers", "it did not answer in 300 ms"),
    ("unsupported", "embers", "it does not play embers with 3 players"),
    ("deaf", "venture", "it did not read its input in 300 ms"),
    ("flood", "venus-needs-men", "it wrote more than 131072 bytes ahead of its requests"),
    ("closed-input", "embers", "it ended (it closed its input)"),
]


@linux_only
@pytest.mark.parametrize(("mode", "game", "reason"), HOSTILE_CASES, ids=[c[0] for c in HOSTILE_CASES])
def test_a_hostile_bot_is_stopped_and_its_stand_in_plays_on(mode: str, game: str, reason: str) -> None:
    bot, warnings = play(game, hostile(mode))
    assert bot.stopped is not None and reason in bot.stopped
    assert len(warnings) == 1
    assert reason in warnings[0] and "at seat 0 stopped" in warnings[0]
    assert "random plays the seat for the rest of the game" in warnings[0]
    assert_gone(bot.pid)


@linux_only
def test_a_named_stand_in_plays_on_and_the_stderr_tail_is_shown() -> None:
    bot, warnings = play("embers", hostile("stderr-forever", settings="stand-in=ismcts:10it;timeout=200ms"))
    assert bot.stand_in.name.startswith("ismcts")
    assert (
        f"{bot.stand_in.name} plays the seat" in warnings[0]
        and "its stderr ended: 'noise noise" in warnings[0]
    )
    assert len(bot._pipes.stderr) <= STDERR_KEPT
    assert_gone(bot.pid)


@linux_only
def test_a_bot_writing_stderr_endlessly_while_answering_plays_the_whole_game() -> None:
    bot, warnings = play("embers", hostile("stderr-flood", settings="timeout=5s"))
    assert bot.stopped is None and warnings == []
    assert bot.requests > 3
    assert len(bot._pipes.stderr) <= STDERR_KEPT
    assert_gone(bot.pid)


@linux_only
def test_what_the_bot_started_dies_with_it(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild"
    bot, warnings = play("embers", hostile("grandchild", str(pid_file)))
    assert "it did not answer in 300 ms" in warnings[0]
    grandchild = int(pid_file.read_text())
    end = time.monotonic() + 10
    while alive(grandchild) and time.monotonic() < end:
        time.sleep(0.05)
    assert not alive(grandchild)
    assert_gone(bot.pid)


@linux_only
def test_a_well_behaved_bot_ends_with_the_game_told_the_results(tmp_path: Path) -> None:
    seen = tmp_path / "seen.jsonl"
    bot, warnings = play("embers", hostile("record", str(seen), settings="timeout=5s"))
    assert warnings == [] and bot.stopped is None
    assert bot.hello is not None and bot.hello.name == "hostile"
    assert len(seen.read_text().splitlines()) == bot.requests
    assert_gone(bot.pid)


def test_an_unstarted_bot_closes_quietly_and_once() -> None:
    bot = make_bot(load_game("embers"), hostile("polite"), 0, commands=True)
    assert isinstance(bot, CommandBot) and bot.pid is None
    bot.close(None)
    bot.close(None)
    assert bot.pid is None


def test_a_program_that_cannot_start_is_refused_before_any_game() -> None:
    with pytest.raises(OptionError, match="no program 'no-such-program-here'"):
        make_bot(load_game("embers"), "cmd:no-such-program-here --flag", 0, commands=True)


@pytest.mark.parametrize(
    ("seat", "reason"),
    [
        ("cmd:", "needs a command"),
        ("cmd:   ", "needs a command"),
        ("cmd:'unclosed", "does not split"),
        ("cmd[timeout=1s:true", "is written cmd[stand-in=BOT;timeout=2s]:COMMAND"),
        ("cmd[colour=red]:true", "settings are stand-in=BOT and timeout=DURATION"),
        ("cmd[timeout=1s;timeout=2s]:true", "settings are"),
        ("cmd[timeout=0s]:true", "timeout of a cmd: seat is 10ms to 600s"),
        ("cmd[timeout=nan]:true", "timeout of a cmd: seat is"),
        ("cmd[timeout=1h]:true", "timeout of a cmd: seat is"),
        ("cmd[stand-in=cmd:true]:true", "stand-in must be one of Parlour's own bots"),
        ("cmd:true\n", "printable"),
        ("cmd:" + "x" * 3000, "at most 2000"),
    ],
)
def test_malformed_command_seats_are_refused_in_one_line(seat: str, reason: str) -> None:
    with pytest.raises(OptionError, match=None) as caught:
        parse_seat(seat)
    assert reason in str(caught.value) and "\n" not in str(caught.value)


def test_an_unknown_stand_in_is_refused() -> None:
    with pytest.raises(OptionError, match="no bot 'nobody'"):
        make_bot(load_game("embers"), "cmd[stand-in=nobody]:true", 0, commands=True)


def test_seat_settings_are_read() -> None:
    seat = parse_seat("cmd[stand-in=ismcts:200ms; timeout=250ms]:true --x 'a b'")
    assert seat.argv == ("true", "--x", "a b") and seat.stand_in == "ismcts:200ms" and seat.timeout == 0.25
    assert (
        parse_seat("cmd:true").timeout == DEFAULT_TIMEOUT and parse_seat("cmd[timeout=2]:true").timeout == 2
    )


def test_command_seats_are_made_only_when_the_caller_allows() -> None:
    assert is_command("cmd:x") and is_command("cmd[timeout=1s]:x") and not is_command("command")
    with pytest.raises(OptionError, match="a cmd: seat runs a program: only parlour play"):
        make_bot(load_game("embers"), "cmd:true", 0)


def test_seat_lists_split_outside_quotes_and_brackets() -> None:
    assert split_seats("random, greedy ,,") == ["random", "greedy"]
    assert split_seats("cmd:'bot --a,b',random") == ["cmd:'bot --a,b'", "random"]
    assert split_seats('cmd[timeout=1s]:bot "x,y",cmd:z') == ['cmd[timeout=1s]:bot "x,y"', "cmd:z"]


@linux_only
def test_simulate_on_the_command_line_warns_and_plays_on() -> None:
    seat = hostile("garbage")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "parlour.cli",
            "simulate",
            "embers",
            "-n",
            "2",
            "--seats",
            f"{seat},random,random",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PARLOUR_NATIVE": "0"},
    )
    assert done.returncode == 0, done.stderr
    stops = [line for line in done.stderr.splitlines() if "stopped: it wrote a line that is not JSON" in line]
    assert len(stops) == 2  # one a game: each game starts its own child


def test_simulate_refuses_command_seats_on_ray() -> None:
    done = subprocess.run(
        [*CLI, "simulate", "embers", "-n", "1", "--backend", "ray", "--seats", "cmd:true,random"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "a cmd: seat runs a program on this machine: use --backend local" in done.stderr
