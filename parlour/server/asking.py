"""A person's setting for reaction windows: when the server asks them, and when it passes for them.

Stored as one text per seat (``seats.ask``): ``always``, ``playable`` (the default), ``never``, or
``only:NAME|NAME`` (ask only when one of these cards could be played). Whatever the setting, a pass
the server makes for a person lands when a quick typed pass would (``Timing.pass_delay`` after the
seat was asked), so nobody learns from the table's pace whether the person could have played; only
``never``, which does not look at the hand at all, answers at the bots' pace (docs/security.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.state import GameState

MODES = ("always", "playable", "only", "never")
"""The settings, in the order a page offers them."""
MODE_WORDS = {
    "always": "every window the rules ask me in",
    "playable": "only when I can play a card there",
    "only": "only when I can play one of the cards I chose",
    "never": "never: pass for me",
}
"""Each setting in words (the page's labels)."""
MAX_CARDS = 60
"""Card names one ``only`` setting may list."""
MAX_NAME = 60
"""The longest card name a setting may hold."""


class AskError(ValueError):
    """A setting that is not one (its message is the one-line refusal)."""


@dataclass(frozen=True)
class AskMe:
    """A person's reaction-window setting: its mode and, for ``only``, the cards' names."""

    mode: str = "playable"
    cards: tuple[str, ...] = ()

    def to_text(self) -> str:
        """Returns the stored text (``only:NAME|NAME`` for ``only``)."""
        return f"only:{'|'.join(self.cards)}" if self.mode == "only" else self.mode

    @classmethod
    def from_text(cls, text: str | None) -> AskMe:
        """Returns the stored setting (the default for a seat stored before settings existed)."""
        if not text:
            return cls()
        if text.startswith("only:"):
            return cls("only", tuple(n for n in text[5:].split("|") if n))
        return cls(text) if text in MODES else cls()

    def to_json(self) -> dict[str, object]:
        """Returns the setting as the seat's own view carries it."""
        return {"mode": self.mode, "cards": list(self.cards)}

    def passes_for(self, state: GameState, seat: int) -> bool:
        """Returns whether the server answers for ``seat`` (a pass) in the passing window open now."""
        if not state.passing_window() or seat not in state.deciders():
            return False
        if self.mode == "never":
            return True
        if self.mode == "always":
            return False
        if self.mode == "only":
            return not set(self.cards) & set(state.playable_cards(seat))
        return state.only_pass(seat)

    def check_cards(self, known: list[str]) -> None:
        """Refuses (AskError) a card name the table's game cannot play in a window."""
        for name in self.cards:
            if name not in known:
                raise AskError(f"no card named {name[:MAX_NAME]!r} may be played in this game's windows")

    def looks_at_hand(self) -> bool:
        """Returns whether the setting's passes depend on the seat's cards (all but always/never)."""
        return self.mode in ("playable", "only")


def check_ask(mode: object, cards: object, known: list[str] | None = None) -> AskMe:
    """Returns the setting a message or a request asks for, or raises AskError saying what is wrong
    (with ``known``, the names the table's cards may have; else those are checked later)."""
    if not isinstance(mode, str) or mode not in MODES:
        raise AskError(f"ask's mode must be one of {', '.join(MODES)}")
    if mode != "only":
        if cards not in (None, []):
            raise AskError(f"only the mode 'only' takes cards, not {mode!r}")
        return AskMe(mode)
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_CARDS:
        raise AskError(f"the mode 'only' needs a list of 1 to {MAX_CARDS} card names")
    for name in cards:
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or "|" in name:
            raise AskError(f"a card name is a text of 1 to {MAX_NAME} characters, without '|'")
    found = AskMe("only", tuple(dict.fromkeys(cards)))
    if known is not None:
        found.check_cards(known)
    return found


SLOW_MODES = ("always", "never")
"""The settings a turn-based table others watch allows (ruling S-2): neither looks at the hand."""


def slow_modes_only(mode: str) -> None:
    """Refuses (AskError) a setting that looks at the hand, for a turn-based table others watch."""
    if mode not in SLOW_MODES:
        raise AskError(
            "at a turn-based table others watch, a window setting is 'always' or 'never': a window "
            "that waited hours only for those who could play would tell everyone who can (ruling S-2)"
        )
