"""The whole game's log: every action with its events, shown to each seat as that seat may see it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from parlour.core.decisions import Seat
from parlour.core.state import Event, GameState


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One applied action: its number (from 1), the turn it fell in, who took it and what it told."""

    number: int
    """The action's place in the game (1 is the first action)."""
    turn: int
    """The turn it was taken in (``GameState.turns_played()`` before the action)."""
    turn_player: Seat | None
    """The seat whose turn it was (``GameState.turn_player()`` before the action)."""
    seat: Seat
    """The seat that acted."""
    action: str
    """The action in notation (every action is announced at the table)."""
    events: tuple[Event, ...]
    """What the action told the table (with secrets for their own seats)."""

    def lines(self, viewer: Seat | None) -> list[str]:
        """Returns the entry's event texts as ``viewer`` (None: a spectator) may see them."""
        return [event.for_seat(viewer) for event in self.events]

    def revealed(self) -> list[str]:
        """Returns the entry's event texts with every secret shown (only for a game that is over)."""
        return [event.for_seat(event.seat) for event in self.events]


@dataclass(frozen=True, slots=True)
class TurnGroup:
    """Consecutive log entries of one turn of one player, for showing grouped."""

    turn: int
    turn_player: Seat | None
    entries: tuple[LogEntry, ...]


@dataclass
class GameLog:
    """Every action of a game with its events, kept beside the state (never inside it: search clones
    states by the thousand). Redacted per seat only when read."""

    entries: list[LogEntry] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[LogEntry]:
        return iter(self.entries)

    def apply(self, state: GameState, action: object, seat: Seat) -> list[Event]:
        """Applies a legal action to ``state`` (refusing an illegal one) and logs it; returns its events."""
        turn, turn_player = state.turns_played(), state.turn_player()
        text = state.format_action(action)
        events = state.apply(action, seat)
        self.add(seat, text, events, turn, turn_player)
        return events

    def add(
        self, seat: Seat, action: str, events: Sequence[Event], turn: int, turn_player: Seat | None
    ) -> None:
        """Logs an action already applied (``turn`` and ``turn_player`` as they stood before it)."""
        number = len(self.entries) + 1
        self.entries.append(LogEntry(number, turn, turn_player, seat, action, tuple(events)))

    def since(self, number: int) -> list[LogEntry]:
        """Returns the entries after action ``number`` (0: all of them)."""
        return self.entries[max(0, number) :]

    def last(self, count: int) -> list[LogEntry]:
        """Returns the last ``count`` entries."""
        return self.entries[-count:] if count > 0 else []

    @staticmethod
    def grouped(entries: Sequence[LogEntry]) -> list[TurnGroup]:
        """Returns the entries grouped by turn and turn player, in order."""
        groups: list[TurnGroup] = []
        run: list[LogEntry] = []
        for entry in entries:
            if run and (run[-1].turn, run[-1].turn_player) != (entry.turn, entry.turn_player):
                groups.append(TurnGroup(run[0].turn, run[0].turn_player, tuple(run)))
                run = []
            run.append(entry)
        if run:
            groups.append(TurnGroup(run[0].turn, run[0].turn_player, tuple(run)))
        return groups
