"""Reaction windows' share of a game's time at the server's own pace (issue 31's measure).

One person and three ``greedy`` bots play a four-player Enhanced Venus Needs Men! game on a real table
(the server's ``Hall`` and ``LiveTable`` with their default timing, a SQLite file, the bots in a
worker pool). The person is played by the same bot, answering like a person: ``--think`` seconds on a
decision of their own turn, ``--react`` seconds in a window where the server asks them. The figures:
the game's length, the time spent in Zap windows (from a window's opening until the turn goes on),
its share, the windows, and the windows the person was asked in (answered themselves).
Run alone: ``python bench/window_bench.py [--seed 7] [--games 1] [--think 2] [--react 1.5] [--ask MODE]``
(``--ask only:Deflector Shield``: the person's reaction-window setting; the default is ``playable``;
``--no-spectators``: a table without a spectators' link, which nobody but the person watches).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.core.record import replay_steps, start_state
from parlour.server.hall import Hall
from parlour.server.storage import Store
from parlour.server.tables import LiveTable, Timing

GAME = "venus-needs-men"
OPTIONS = {"game": "enhanced"}
PERSON = 0


async def person(table: LiveTable, think: float, react: float, asked: set[int]) -> None:
    """Plays seat 0 as a person would: waits, then makes the greedy bot's choice; notes the windows
    (by the version each opened at) in which the server left the answer to the person."""
    bot = table.game.bots()["greedy"](PERSON)
    seen, since = -1, 0.0
    while not table.state.is_over():
        await asyncio.sleep(0.02)
        state, version = table.state, table.record.version
        if PERSON not in state.deciders() or table._auto_pass(PERSON) is not None:
            continue
        if version != seen:
            seen, since = version, time.time()
        pause = react if state.passing_window() else think
        if time.time() - since < pause:
            continue
        if state.passing_window():
            asked.add(window_start(table))
        text = state.format_action(bot.choose(state.clone(), PERSON))
        try:
            await table.act(PERSON, text, version)
        except Exception as err:  # the table moved on meanwhile: ask again
            print("person's move refused:", err, file=sys.stderr)


def window_start(table: LiveTable) -> int:
    """Returns the version at which the window now open began (the first of its run of window moves)."""
    windows = windows_by_move(table)
    number = len(table.record.moves)
    while number > 0 and windows[number - 1]:
        number -= 1
    return number


def windows_by_move(table: LiveTable) -> list[bool]:
    """Returns, for each decision so far (before move i+1), whether it was a passing window."""
    state = start_state(table.game, table.game_record())
    found = [state.passing_window()]
    for _ in replay_steps(state, table.game_record()):
        found.append(state.passing_window())
    return found


def figures(table: LiveTable, asked: set[int]) -> dict[str, Any]:
    """Returns the game's length, its time in windows and their count, from the stored moves."""
    record = table.record
    windows = windows_by_move(table)
    times = [record.created] + [m.at for m in record.moves]
    in_window = sum(times[i + 1] - times[i] for i in range(len(record.moves)) if windows[i])
    starts = sum(1 for i in range(len(record.moves)) if windows[i] and (i == 0 or not windows[i - 1]))
    length = times[-1] - times[0]
    return {
        "seconds": round(length, 1),
        "window_seconds": round(in_window, 1),
        "window_share": round(in_window / length, 3) if length else 0.0,
        "windows": starts,
        "person_asked": len(asked),
        "moves": len(record.moves),
    }


async def one_game(
    seed: int,
    think: float,
    react: float,
    folder: Path,
    ask: dict[str, Any] | None = None,
    watched: bool = True,
) -> dict[str, Any]:
    """Plays one game at the server's default pace (the person's window setting ``ask``, None: the
    default; ``watched``: with a spectators' link) and returns its figures."""
    store = Store(f"sqlite:///{folder / f'window-{seed}.db'}")
    pool = ThreadPoolExecutor(max_workers=2)
    hall = Hall(store, pool, Timing())
    ana: dict[str, Any] = {"kind": "human", "name": "Ana"} | ({"ask": ask} if ask else {})
    seats = [ana] + [{"kind": "bot", "bot": "greedy"}] * 3
    with mock.patch("parlour.server.hall.secrets.randbits", return_value=seed):
        request = {"game": GAME, "options": OPTIONS, "seats": seats} | (
            {} if watched else {"spectators": False}
        )
        created = await hall.create(request)
    table = hall.get(created.table)
    asked: set[int] = set()
    await person(table, think, react, asked)
    hall.close()
    pool.shutdown()
    return figures(table, asked)


def window_figures(
    seed: int = 7,
    games: int = 1,
    think: float = 2.0,
    react: float = 1.5,
    ask: dict[str, Any] | None = None,
    watched: bool = True,
) -> dict[str, Any]:
    """Plays ``games`` games from ``seed`` on and returns each game's figures and the overall share."""
    played = []
    with tempfile.TemporaryDirectory(prefix="parlour-windows-") as folder:
        for number in range(games):
            played.append(asyncio.run(one_game(seed + number, think, react, Path(folder), ask, watched)))
    total = sum(g["seconds"] for g in played)
    share = sum(g["window_seconds"] for g in played) / total if total else 0.0
    return {
        "games": played,
        "window_share": round(share, 3),
        "think": think,
        "react": react,
        "ask": ask or {"mode": "playable"},
        "spectators": watched,
    }


def main() -> None:
    """Runs the bench from the command line and prints its figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--react", type=float, default=1.5)
    parser.add_argument(
        "--ask", default="", help="the person's setting: always, playable, never, only:NAME|NAME"
    )
    parser.add_argument("--no-spectators", action="store_true", help="a table without a spectators' link")
    args = parser.parse_args()
    ask = None
    if args.ask:
        mode, _, names = args.ask.partition(":")
        ask = {"mode": mode, "cards": names.split("|")} if mode == "only" else {"mode": mode}
    print(
        json.dumps(
            window_figures(args.seed, args.games, args.think, args.react, ask, not args.no_spectators),
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
