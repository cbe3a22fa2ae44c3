"""What the terminal draws: the banner, the table in colour, the log grouped by turn, the menu, the end.

Everything here is built from the engine's own views (``render``, ``decision_summary``, ``score_steps``,
the :class:`~parlour.core.log.GameLog`), so a browser table shows the same; nothing is read as markup.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from parlour.cli.output import styled
from parlour.core.log import GameLog, LogEntry
from parlour.core.state import GameState

RUN_LENGTH = 6
"""A run of at least this many actions differing only in a final number is shown as one line to type."""


def colourise(text: str, colours: Mapping[str, str]) -> Text:
    """Returns ``text`` with the game's coloured words (industries, clans, planets) in their colours."""
    result = Text(text)
    if colours:
        words = sorted(colours, key=len, reverse=True)
        pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in words) + r")(?![\w])")
        for found in pattern.finditer(text):
            result.stylize(colours[found.group(1)], found.start(), found.end())
    return result


def seat_label(state: GameState, seats: Sequence[str], seat: int) -> str:
    """Returns how the terminal names a seat: the table's name and who plays it (``Mars (greedy)``)."""
    return capital(f"{state.seat_name(seat)} ({seats[seat]})")


def capital(text: str) -> str:
    """Returns ``text`` with its first letter capital (a name that begins a line or a title)."""
    return text[:1].upper() + text[1:]


def banner(state: GameState, colours: Mapping[str, str]) -> Text:
    """Returns the banner line: the turn and who is deciding what (public information only)."""
    turn = state.turns_played()
    head = f"Turn {turn} · " if turn else ""
    line = colourise(head + state.decision_summary(), colours)
    line.stylize("bold")
    return line


def table_panel(state: GameState, seat: int | None, title: str, colours: Mapping[str, str]) -> Panel:
    """Returns the table as ``seat`` sees it (``None``: a spectator), with hints, in a panel."""
    text = state.render(seat)
    if seat is not None and not state.is_over():
        hints = state.hints(seat)
        if hints:
            text += "\n" + "\n".join(f"Hint: {line}" for line in hints)
    return Panel(colourise(text, colours), title=Text(title))


def log_lines(
    state: GameState,
    seats: Sequence[str],
    entries: Sequence[LogEntry],
    viewer: int | None,
    colours: Mapping[str, str],
    reveal: bool = False,
) -> list[Text]:
    """Returns the entries as ``viewer`` may see them (``reveal``: every secret, once the game is
    over), grouped under a heading per turn and player."""
    lines: list[Text] = []
    for group in GameLog.grouped(entries):
        who = "" if group.turn_player is None else " · " + seat_label(state, seats, group.turn_player)
        lines.append(styled((f"Turn {group.turn}{who}" if group.turn else f"Setup{who}", "bold")))
        for entry in group.entries:
            texts = entry.revealed() if reveal else entry.lines(viewer)
            texts = texts or [f"{state.seat_name(entry.seat)}: {entry.action}"]
            lines.extend(colourise(f"  {text}", colours) for text in texts)
    return lines


def log_panel(
    state: GameState,
    seats: Sequence[str],
    entries: Sequence[LogEntry],
    viewer: int | None,
    title: str,
    colours: Mapping[str, str],
    reveal: bool = False,
) -> Panel:
    """Returns a panel of log entries (grouped by turn and player) as ``viewer`` may see them."""
    return Panel(Group(*log_lines(state, seats, entries, viewer, colours, reveal)), title=Text(title))


@dataclass(frozen=True)
class Menu:
    """The numbered choices: ``numbered[k]`` is the index of choice k + 1 among the legal actions."""

    labels: list[Text]
    numbered: list[int]


def action_menu(texts: Sequence[str]) -> Menu:
    """Returns the menu of legal actions numbered 1..N without gaps; a long run of amounts
    (``offer R 0`` … ``offer R 30``) is one line to type instead."""
    runs: dict[str, list[int]] = {}
    for text in texts:
        head, _, tail = text.rpartition(" ")
        if head and tail.isdecimal():
            runs.setdefault(head, []).append(int(tail))
    collapsed = {
        head
        for head, numbers in runs.items()
        if len(numbers) >= RUN_LENGTH and max(numbers) - min(numbers) < len(numbers) + 1
    }
    labels: list[Text] = []
    numbered: list[int] = []
    said: set[str] = set()
    for index, action in enumerate(texts):
        head, _, tail = action.rpartition(" ")
        if head in collapsed and tail.isdecimal():
            if head not in said:
                said.add(head)
                span = f"(type it; N = {min(runs[head])}–{max(runs[head])})"
                labels.append(styled(f"{head} N ", (span, "dim")))
            continue
        numbered.append(index)
        labels.append(styled((str(len(numbered)), "cyan"), f" {action}"))
    return Menu(labels, numbered)


def end_screen(state: GameState, seats: Sequence[str], colours: Mapping[str, str]) -> RenderableType:
    """Returns the game-over screen: why it ended, the scoring step by step and the winners."""
    parts: list[RenderableType] = []
    reason = state.end_reason()
    if reason:
        parts.append(styled((reason, "bold")))
    current: int | str | None = "start"
    for step in state.score_steps():
        if step.seat != current and step.seat is not None:
            parts.append(styled((seat_label(state, seats, step.seat), "bold")))
        current = step.seat
        points = "" if step.points is None else f": {step.points:g}"
        indent = "  " if step.seat is not None else ""
        parts.append(colourise(f"{indent}{step.label}{points}", colours))
    ranking = state.ranking()
    parts.append(Text(""))
    for seat in sorted(range(state.players), key=lambda s: ranking[s]):
        score = state.scores()[seat]
        parts.append(Text(f"{ranking[seat]}. {seat_label(state, seats, seat)}: {score:g}"))
    names = [seat_label(state, seats, s) for s in state.winners()]
    won = "Winner: " if len(names) == 1 else "Winners (a shared win): "
    parts.append(styled((won + ", ".join(names), "bold green")))
    return Panel(Group(*parts), title=Text("Game over"))


def record_note(record: str) -> str:
    """Returns the line that says where a finished game's record is and how to step through it."""
    return f"Record saved to {record}; 'parlour replay {record} --step' steps through it."
