"""Every action Venture can ever offer, in a fixed order: the id space for learning environments."""

from __future__ import annotations

from parlour.games.venture.content import MULTIPLIER_NAMES, Deck


def action_catalogue(deck: Deck) -> list[str]:
    """Returns the notation of every possible action (ids are positions in this list)."""
    corps = [c.name for c in deck.corporations]
    cards = sorted({r.name for r in deck.resources})
    actions = [f"take {c}" for c in corps]
    actions += [f"proxy {m} {c}" for m in MULTIPLIER_NAMES.values() for c in corps]
    actions += ["place alone", *(f"place on {c}" for c in corps)]
    actions += ["reorganise", *(f"move {c} alone" for c in corps)]
    actions += [f"move {c} on {d}" for c in corps for d in corps if c != d]
    actions += ["end", "done", *(f"pay {n}" for n in cards), *(f"discard {n}" for n in cards)]
    # Added later, at the end so earlier ids keep their meaning (rulings ).
    actions += ["reorganise best", "undo", "cancel"]
    return actions
