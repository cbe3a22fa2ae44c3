"""Who can supply which investor, whether the terms cover the space, and pruning stale terms."""

from __future__ import annotations

from parlour.games.im_the_boss.content import Space
from parlour.games.im_the_boss.negotiation import Term
from parlour.games.im_the_boss.tabletop import Tabletop


def can_supply(state: Tabletop, seat: int, colour: str) -> bool:
    """Returns whether ``seat`` can bring ``colour`` in: its placard at home, or a laid Clan card."""
    nego = state.nego
    assert nego is not None
    if state.owners[colour] == seat and colour not in nego.travelling:
        return True
    cards = state.content.cards
    name = f"clan:{colour}"
    return any(cards[c] == name for c in nego.laid[seat])


def suppliers(state: Tabletop, colour: str) -> list[int]:
    """Returns the seats that can supply ``colour`` now."""
    return [s for s in range(state.players) if can_supply(state, s, colour)]


def covers(space: Space, colours: set[str] | str) -> bool:
    """Returns whether these colours satisfy the space: every required one, enough of each group."""
    chosen = set(colours)
    if not set(space.required) <= chosen:
        return False
    return all(len(chosen & set(g.colours)) >= g.count for g in space.groups)


def stands(state: Tabletop) -> bool:
    """Returns whether the deal can be called: the agreed lines of the terms cover the space.

    Lines not yet agreed do not count, and calling strikes them (ruling B-4).
    """
    nego = state.negotiation()
    return covers(state.space(nego.space), {c for c, t in nego.items.items() if t.agreed})


def strike_unagreed(state: Tabletop) -> None:
    """Strikes every line of the terms that its seat has not agreed to."""
    nego = state.negotiation()
    for colour in [c for c, t in nego.items.items() if not t.agreed]:
        del nego.items[colour]
    for seat in [s for s, t in nego.tips.items() if not t.agreed]:
        del nego.tips[seat]


def prune(state: Tabletop) -> None:
    """Drops offers and terms whose investor can no longer take part (ruling A-09)."""
    nego = state.negotiation()
    for colour, seat in [k for k in nego.offers if not can_supply(state, k[1], k[0])]:
        del nego.offers[(colour, seat)]
    for colour in [c for c, t in nego.items.items() if not can_supply(state, t.seat, c)]:
        del nego.items[colour]
        if state.logging:
            state.emit(f"The {colour} investor drops out of the terms.")


def auto_use(state: Tabletop, only: str = "") -> None:
    """Puts the Boss's placards at home (or just ``only``) into the terms, agreed at once (B-5)."""
    nego = state.negotiation()
    added = []
    for colour in only or state.space(nego.space).colours:
        if colour not in state.space(nego.space).colours:
            continue
        if state.owners[colour] == nego.boss and colour not in nego.travelling and colour not in nego.items:
            nego.items[colour] = Term(nego.boss, 0, True)
            added.append(colour)
    if added and state.logging:
        verb = "takes" if len(added) == 1 else "take"
        state.emit(f"The Boss's own {' '.join(added)} {verb} part automatically.")
