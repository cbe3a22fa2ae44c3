"""Who can supply which investor, whether the terms cover the space, and pruning stale terms."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.games.im_the_boss.actions import BossAction
from parlour.games.im_the_boss.content import Space
from parlour.games.im_the_boss.negotiation import Negotiation, Term
from parlour.games.im_the_boss.state import BossState

NONE_LAID: frozenset[str] = frozenset()
"""The names a seat that has laid no Clan card has laid (shared: most seats)."""


def can_supply(state: BossState, seat: int, colour: str) -> bool:
    """Returns whether ``seat`` can bring ``colour`` in: its placard at home, or a laid Clan card."""
    nego = state.nego
    assert nego is not None
    if state.owners[colour] == seat and colour not in nego.travelling:
        return True
    return f"clan:{colour}" in map(state.content.cards.__getitem__, nego.laid[seat])


def suppliers(state: BossState, colour: str) -> list[int]:
    """Returns the seats that can supply ``colour`` now."""
    return suppliers_from(state, laid_names(state), colour)


def hand_names(state: BossState, seat: int) -> list[str]:
    """Returns the names of the cards ``seat`` holds, in hand order (legality counts several names)."""
    return list(map(state.content.cards.__getitem__, state.hands[seat]))


def laid_names(state: BossState) -> list[frozenset[str]]:
    """Returns the names of the Clan cards each seat has laid in the negotiation (for ``suppliers_from``)."""
    name = state.content.cards.__getitem__
    return [frozenset(map(name, laid)) if laid else NONE_LAID for laid in state.negotiation().laid]


def suppliers_from(state: BossState, laid: list[frozenset[str]], colour: str) -> list[int]:
    """Returns the seats that can supply ``colour`` now, given each seat's laid names (``laid_names``):
    the placard's holder while it is at home, and every seat with a Clan card of the colour laid."""
    nego = state.negotiation()
    home = -1 if colour in nego.travelling else state.owners[colour]
    clan = f"clan:{colour}"
    return [s for s, names in enumerate(laid) if s == home or clan in names]


@dataclass(slots=True)
class Supply:
    """What the negotiation's legal actions read, worked out once per call (``supply``)."""

    nego: Negotiation
    """The negotiation in progress."""
    colours: str
    """The colours printed on the deal's space, required first."""
    laid: list[frozenset[str]]
    """The names of the Clan cards each seat has laid."""
    table: dict[str, list[int]]
    """The seats that can supply each of the space's colours, in seat order (``suppliers``)."""
    lines: tuple[Line, ...] = ()
    """The Boss's actions on each colour's line, from the table (``bargain_lists.boss_lines`` fills it)."""
    lines_boss: int = -1
    """The Boss that ``lines`` were worked out for (-1: not yet)."""


Line = tuple[str, tuple[tuple[int, BossAction | None, tuple[BossAction, ...]], ...]]
"""A colour's line of the terms as the Boss may shape it: each supplier, with ``use C`` if it is the Boss,
else ``include C @S N`` for every N from 0 to the proceeds."""


def supply(state: BossState) -> Supply:
    """Returns who can supply what in the negotiation in progress, worked out in one pass."""
    nego = state.nego
    assert nego is not None
    colours = state.content.spaces[nego.space].colours
    name = state.content.cards.__getitem__
    laid = [frozenset(map(name, pile)) if pile else NONE_LAID for pile in nego.laid]
    travelling, owners = nego.travelling, state.owners
    table: dict[str, list[int]] = {}
    for colour in colours:
        home = -1 if colour in travelling else owners[colour]
        clan = f"clan:{colour}"
        table[colour] = [s for s, names in enumerate(laid) if s == home or clan in names]
    return Supply(nego, colours, laid, table)


def covers(space: Space, colours: set[str] | str) -> bool:
    """Returns whether these colours satisfy the space: every required one, enough of each group."""
    chosen = colours if isinstance(colours, set) else set(colours)
    if not chosen.issuperset(space.required):
        return False
    return all(len(chosen.intersection(group.colours)) >= group.count for group in space.groups)


def stands(state: BossState) -> bool:
    """Returns whether the deal can be called: the agreed lines of the terms cover the space.

    Lines not yet agreed do not count, and calling strikes them (ruling B-4).
    """
    nego = state.nego
    assert nego is not None
    agreed = frozenset([c for c, t in nego.items.items() if t.agreed])
    key = (nego.space, agreed)
    found: bool | None = nego.memo.get(key)
    if found is None:
        found = nego.memo[key] = covers(state.content.spaces[nego.space], set(agreed))
    return found


def strike_unagreed(state: BossState) -> None:
    """Strikes every line of the terms that its seat has not agreed to (each counts against the Boss in
    ``Negotiation.refused``: it withdrew them by calling)."""
    nego = state.negotiation()
    for colour in [c for c, t in nego.items.items() if not t.agreed]:
        nego.withdrawn(nego.items.pop(colour))
    for seat in [s for s, t in nego.tips.items() if not t.agreed]:
        nego.withdrawn(nego.tips.pop(seat))


def prune(state: BossState) -> None:
    """Drops offers and terms whose investor can no longer take part (ruling A-09)."""
    nego = state.negotiation()
    for colour, seat in [k for k in nego.offers if not can_supply(state, k[1], k[0])]:
        del nego.offers[(colour, seat)]
    for colour in [c for c, t in nego.items.items() if not can_supply(state, t.seat, c)]:
        del nego.items[colour]
        if state.logging:
            state.emit(f"The {colour} investor drops out of the terms.")


def auto_use(state: BossState, only: str = "") -> None:
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
