"""Readable Venture positions for tests: every card named, every card kept in exactly one place.

A scenario starts from a real deal (``GAME.new_state(...).to_position()``), then
puts the named cards where the test says.  Named cards are taken out of wherever
the deal put them; the deal's other cards stay where they were when they are
still free, and every card left over goes to a spare zone (the drawing deck and
the stock by default).  So a scenario is always a complete, loadable position::

    >>> state = load(hands=[["10", "3c"], ["12"], []], center=["ST-A"], current=0)
    >>> hand(state, 0), state.to_position()["center"]
    (['10', '3c'], ['ST-A'])

Card names are the notation's: corporations ``ST-ABC``, resources ``10``,
``3c`` (3 million, circle), ``x1/2``, ``x1``, ``x3/2``, ``profit``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.games.venture import VentureState

from ..scenarios import Pool, by_seat
from ..typed import VENTURE as GAME

Hands = Sequence[Sequence[str]] | Mapping[int, Sequence[str]]
Holdings = Sequence[Sequence[Sequence[str]]] | Mapping[int, Sequence[Sequence[str]]]


def _card_key(name: str) -> str:
    """Returns how the deck names a card a test writes: corporations (``ST-ABC``) upper case, others lower."""
    return name.upper() if "-" in name else name.lower()


def position(
    players: int = 3,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    current: int = 0,
    turn: int = 1,
    hands: Hands | None = None,
    draw: Sequence[str] = (),
    discard: Sequence[str] = (),
    center: Sequence[str] | None = None,
    stock: Sequence[str] = (),
    holdings: Holdings | None = None,
    profits: Sequence[int] | None = None,
    spare_resources: str | int = "draw",
    spare_corps: str | int = "stock",
    forced: Sequence[tuple[str, Any]] = (),
    turn_data: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Returns a complete position with the named cards placed.

    * ``hands``: one list per seat, or ``{seat: [...]}``; a seat not named keeps
      the cards it was dealt that no other zone claims.
    * ``draw``: the top of the drawing deck, top first; ``discard``: the discard
      pile, bottom first (exactly, unless spare resources go there).
    * ``center``: exactly these corporations (default: the dealt center, minus
      claimed cards); ``stock``: its top, top first.
    * ``holdings``: one list of stacks (each bottom first) per seat, or a mapping.
    * ``spare_resources``: where the unplaced resources cards go: ``"draw"``
      (below the named top), ``"discard"`` (below the named pile) or a seat's hand.
    * ``spare_corps``: ``"stock"`` (below the named top) or a seat, whose
      holdings get each spare corporation as a lone stack (for an empty stock).
    * ``forced``: chance outcomes, e.g. ``[("order", ["12", "10"])]``.
    * ``turn_data``: the payload of the turn decision (``{"must_reorganise": True}``).
    """
    dealt = GAME.new_state(players, seed, options).to_position()
    all_resources = [n for h in dealt["hands"] for n in h] + dealt["draw"]
    all_corps = dealt["center"] + dealt["stock"] + dealt["aside"]
    resources = Pool(all_resources, "resources card", _card_key)
    corps = Pool(all_corps, "corporation", _card_key)

    # Resources: the named zones first, then the unnamed hands from what is left.
    named_hands = {s: resources.take_all(h) for s, h in by_seat(hands, players, "hands").items()}
    draw_top = resources.take_all(draw)
    discard_pile = resources.take_all(discard)
    final_hands = [
        named_hands[s] if s in named_hands else resources.keep_available(dealt["hands"][s])
        for s in range(players)
    ]
    spare = resources.rest(all_resources)
    if spare_resources == "draw":
        draw_top += spare
    elif spare_resources == "discard":
        discard_pile = spare + discard_pile
    else:
        final_hands[int(spare_resources)] += spare

    # Corporations: holdings and the named center and stock top, then the aside pile.
    named_holdings = {
        s: [corps.take_all(stack) for stack in h] for s, h in by_seat(holdings, players, "holdings").items()
    }
    final_holdings = [named_holdings.get(s, []) for s in range(players)]
    final_center = corps.take_all(center) if center is not None else None
    stock_top = corps.take_all(stock)
    aside = corps.keep_available(dealt["aside"])
    if final_center is None:
        final_center = corps.keep_available(dealt["center"])
    spare_list = corps.rest(all_corps)
    while len(aside) < len(dealt["aside"]):
        aside.append(spare_list.pop())
    if center is None:
        while len(final_center) < 5 and spare_list:
            final_center.append(spare_list.pop(0))
    if spare_corps == "stock":
        stock_top += spare_list
    else:
        final_holdings[int(spare_corps)] += [[c] for c in spare_list]

    return {
        "format": dealt["format"],
        "players": players,
        "options": dealt["options"],
        "chance": {
            "seed": seed,
            "events": 0,
            "forced": [{"kind": kind, "value": value} for kind, value in forced],
        },
        "turn": turn,
        "current": current,
        "owed": 0,
        "transacted": False,
        "over": False,
        "profit_rounds": 0,
        "profits": list(profits) if profits is not None else [0] * players,
        "hands": final_hands,
        "draw": draw_top,
        "discard": discard_pile,
        "payment": [],
        "center": final_center,
        "stock": stock_top,
        "aside": aside,
        "holdings": final_holdings,
        "decisions": [{"kind": "turn", "seats": [current], "data": dict(turn_data or {})}],
    }


def load(players: int = 3, **kwargs: Any) -> VentureState:
    """Returns the state of :func:`position` (same arguments)."""
    return GAME.state_from_position(position(players, **kwargs))


def from_data(data: dict[str, Any]) -> VentureState:
    """Returns the state of a (possibly edited) position, loaded through its JSON text."""
    return GAME.load_position(json.dumps(data))


def play(state: VentureState, *lines: str) -> None:
    """Applies actions written in notation, each by the seat whose decision it is."""
    for line in lines:
        state.apply_notation(line)


TAKE_BACKS = {"undo", "cancel", "reorganise best"}
"""The conveniences of ruling A-17/A-19, left out of ``legal`` unless asked for."""


def legal(state: VentureState, conveniences: bool = False) -> list[str]:
    """Returns the current decider's legal actions in notation (without undo, cancel and
    reorganise best unless ``conveniences``: the rules they test are about the other actions)."""
    texts = [str(a) for a in state.legal_actions()]
    return texts if conveniences else [t for t in texts if t not in TAKE_BACKS]


def hand(state: VentureState, seat: int) -> list[str]:
    """Returns a seat's hand as sorted names."""
    return sorted(state.card(r).name for r in state.hands[seat])


def stacks(state: VentureState, seat: int) -> list[list[str]]:
    """Returns a seat's stacks, each bottom first, by name."""
    return [[state.corp(c).name for c in stack] for stack in state.holdings[seat]]


def names(state: VentureState, zone: str) -> list[str]:
    """Returns a resources pile (``draw``, ``discard``, ``payment``) or corporation zone by name."""
    ids = getattr(state, zone)
    if zone in ("center", "stock", "aside"):
        return [state.corp(c).name for c in ids]
    return [state.card(r).name for r in ids]


def placement_errors(state: VentureState) -> list[str]:
    """Returns cards that are not each in exactly one place, checked from the position's names."""
    data = state.to_position()
    resources = Counter(n for h in data["hands"] for n in h)
    resources.update(data["draw"] + data["discard"] + data["payment"])
    corps = Counter(data["center"] + data["stock"] + data["aside"])
    corps.update(c for h in data["holdings"] for s in h for c in s)
    corps.update(d["data"]["corp"] for d in data["decisions"] if "corp" in d["data"])
    expected_resources = Counter(c.name for c in state.deck.resources)
    expected_corps = Counter(c.name for c in state.deck.corporations)
    problems = []
    if resources != expected_resources:
        problems.append(
            f"resources differ: {(resources - expected_resources) + (expected_resources - resources)}"
        )
    if corps != expected_corps:
        problems.append(f"corporations differ: {(corps - expected_corps) + (expected_corps - corps)}")
    return problems
