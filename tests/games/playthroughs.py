"""Golden playthroughs with every seat's view, not only the spectator's.

The text is ``parlour.testing.playthrough``'s (the spectator's view) with each seat's own lines added, each
starting ``[seat N]``: its render at the start and at the end, and, after a step's events, each event as
that seat is told it where that differs from the spectator's text (the cards it drew, say).  The seats'
lines never change the spectator's: dropping them (:func:`spectator_part`) gives back ``playthrough()``.

Each game's ``test_playthroughs.py`` lists its cases in a :class:`Goldens`, which makes its test and
writes its files (``make playthroughs`` runs each such module).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from parlour.bots.registry import make_bot
from parlour.core.agents import Agent
from parlour.core.game import Game
from parlour.core.registry import load_game
from parlour.core.state import GameState
from parlour.testing.playthrough import playthrough

STEP = re.compile(r"^\d+\. seat (\d+): (.*)$")
SEAT_LINE = re.compile(r"^(   - )?\[seat \d+\]( |$)")


@dataclass(frozen=True)
class Case:
    """One golden playthrough: the file it is kept in, the table, and the bot every seat plays."""

    name: str
    """The file's name without ``.txt`` (``venture-4p-seed7``)."""
    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    bot: str = ""
    """The bot at every seat (seat ``s`` seeded ``seed * 8 + s``); '' for ``playthrough``'s random moves."""


def with_seats(game: Game, case: Case, agents: Sequence[Agent] | None = None) -> str:
    """Returns :func:`playthrough` of a case (played by ``agents``) with every seat's view added, replaying
    its steps."""
    players = case.players
    spectator = playthrough(game, players, case.seed, case.options, agents).split("\n")
    end = len(spectator) - 1 - spectator[::-1].index("## end")  # the spectator's last section
    first = next((i for i, line in enumerate(spectator[:end]) if STEP.match(line)), end - 1)
    state = game.new_state(players, case.seed, case.options)
    out = spectator[:first] + _renders(state, "start")
    i = first
    while i < end - 1:  # steps and their events, up to the blank line before "## end"
        line = spectator[i]
        out.append(line)
        i += 1
        step = STEP.match(line)
        if step is None:
            continue
        events = state.apply_notation(step.group(2), int(step.group(1)))
        told = spectator[i : i + len(events)]
        assert told == [f"   - {e.for_seat(None)}" for e in events], f"{line!r} replays otherwise"
        out += told
        out += [
            f"   - [seat {seat}] {event.for_seat(seat)}"
            for event in events
            for seat in range(players)
            if event.for_seat(seat) != event.for_seat(None)
        ]
        i += len(events)
    return "\n".join(out + spectator[end - 1 : -1] + _renders(state, "end") + spectator[-1:])


def _renders(state: GameState, section: str) -> list[str]:
    """Returns each seat's render of the state, every line marked with its seat."""
    return [
        f"[seat {seat}] {line}".rstrip()
        for seat in range(state.players)
        for line in [f"## {section}", *state.render(seat).split("\n")]
    ]


def spectator_part(text: str) -> str:
    """Returns the spectator's playthrough inside a text of :func:`with_seats` (its seat lines dropped)."""
    return "\n".join(line for line in text.split("\n") if not SEAT_LINE.match(line))


# ----------------------------------------------------------------- a game's golden files
class Goldens:
    """A game's golden playthroughs: each case's text, its test against the stored file, and the writer."""

    def __init__(self, game: str, module: str, cases: Sequence[Case]) -> None:
        self.game = load_game(game)
        self.folder = Path(module).parent / "playthroughs"
        """Where the files are kept: ``playthroughs/`` beside the test module ``module``."""
        self.cases = tuple(cases)

    def text(self, case: Case) -> str:
        """Returns the playthrough of one case, every seat's view included."""
        bots = [make_bot(self.game, case.bot, case.seed * 8 + s) for s in range(case.players) if case.bot]
        return with_seats(self.game, case, bots or None)

    def test(self, doc: str) -> Callable[[Case], None]:
        """Returns the test (``doc`` its docstring) that each case replays to exactly its stored file."""

        @pytest.mark.parametrize("case", self.cases, ids=[case.name for case in self.cases])
        def test_golden_playthrough(case: Case) -> None:
            expected = (self.folder / f"{case.name}.txt").read_text(encoding="utf-8")
            assert self.text(case) == expected

        test_golden_playthrough.__doc__ = doc
        return test_golden_playthrough

    def write_all(self) -> None:
        """Regenerates every golden file (make playthroughs)."""
        self.folder.mkdir(exist_ok=True)
        for case in self.cases:
            (self.folder / f"{case.name}.txt").write_text(self.text(case), encoding="utf-8")
