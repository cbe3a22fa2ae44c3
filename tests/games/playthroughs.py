"""Golden playthroughs with every seat's view, not only the spectator's.

The text is ``parlour.testing.playthrough``'s (the spectator's view) with each seat's own lines added, each
starting ``[seat N]``: its render at the start and at the end, and, after a step's events, each event as
that seat is told it where that differs from the spectator's text (the cards it drew, say).  The seats'
lines never change the spectator's: dropping them (:func:`spectator_part`) gives back ``playthrough()``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.agents import Agent
from parlour.core.game import Game
from parlour.core.state import GameState
from parlour.testing.playthrough import playthrough

STEP = re.compile(r"^\d+\. seat (\d+): (.*)$")
SEAT_LINE = re.compile(r"^(   - )?\[seat \d+\]( |$)")


def with_seats(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    agents: Sequence[Agent] | None = None,
) -> str:
    """Returns :func:`playthrough` (same arguments) with every seat's view added, replaying its steps."""
    spectator = playthrough(game, players, seed, options, agents).split("\n")
    end = len(spectator) - 1 - spectator[::-1].index("## end")  # the spectator's last section
    first = next((i for i, line in enumerate(spectator[:end]) if STEP.match(line)), end - 1)
    state = game.new_state(players, seed, options)
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
