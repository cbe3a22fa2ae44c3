"""Readable I'm the Boss! positions for tests: every card named, every card kept in exactly one place.

A scenario is a complete position written from the names a test cares about:
the hands (seats not named hold nothing), the top of the deck, the discard pile,
the placards, the board and whose turn it is.  Every Influence card not named
goes below the named top of the deck (or onto the discard pile), and every covered
space gets its entry in the public record of deals, so the position is one a game
could reach and loads through the engine's own checks::

    >>> state = load(hands=[["clan:R", "boss"], [], ["stop"]], marker=4)
    >>> hand(state, 0), state.marker + 1, state.deciders()
    (['boss', 'clan:R'], 4, (0,))

Card names are the notation's: ``clan:R``, ``travel:R``, ``travel:any``,
``recruit``, ``boss``, ``stop``.  Spaces and deal cards are written by number
(1 to 16 and 1 to 15), as the rulebook and the notation do.

Default placards (a fixed, readable deal): with 3 players seat 0 holds R M,
seat 1 O G, seat 2 B Y; with more players seat ``i`` holds the ``i``-th colour of
R M O G B Y and the rest lie beside the board as spares.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.chance import Forced
from parlour.games.im_the_boss import BossGameState
from parlour.games.im_the_boss.negotiation import Negotiation

from ..scenarios import Pool, apply_line, by_seat
from ..typed import BOSS as GAME

CONTENT = GAME.content({})
COLOURS = CONTENT.colours
SHORT_REMOVED = (3, 6, 9)

Hands = Sequence[Sequence[str]] | Mapping[int, Sequence[str]]


def default_placards(players: int) -> dict[str, int | None]:
    """Returns the scenario's standard placards: two each with 3 players, else one each and spares."""
    per_seat = 2 if players == 3 else 1
    owners: dict[str, int | None] = {c: None for c in COLOURS}
    for i, colour in enumerate(COLOURS[: players * per_seat]):
        owners[colour] = i // per_seat
    return owners


def position(
    players: int = 3,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    hands: Hands | None = None,
    draw: Sequence[str] = (),
    discard: Sequence[str] = (),
    spare: str = "draw",
    placards: Mapping[str, int | None] | None = None,
    money: Sequence[int] | None = None,
    covered: Mapping[int, int] | None = None,
    deal_cards: Sequence[int] | None = None,
    deals: Sequence[Mapping[str, Any]] | None = None,
    marker: int = 1,
    current: int = 0,
    first: int | None = None,
    turn: int = 1,
    decision: str = "turn",
    must_deal: bool = False,
    forced: Sequence[tuple[str, Any]] = (),
) -> dict[str, Any]:
    """Returns a complete position with the named cards placed.

    * ``hands``: one list per seat or ``{seat: [...]}``; unnamed seats hold nothing.
    * ``draw``: the top of the deck, top first; ``discard``: the pile, bottom first.
    * ``spare``: where the cards nobody named go: ``"draw"`` (below the named top)
      or ``"discard"`` (below the named pile).
    * ``placards``: colour -> seat or None (a spare); default :func:`default_placards`.
    * ``covered``: space number -> the deal card number lying on it.  Deal cards leave
      the stack from the top, so the covering cards must be the lowest numbers.
    * ``deal_cards``: the stacked deal cards, top first (default: every card not on
      the board, in order, without 3, 6, 9 in a short game).
    * ``deals``: the public record of closed deals (default: one entry per covered
      space, in the order of its deal card, with Boss seat 0, the space's proceeds and
      no payments; see :func:`deal_record`).
    * ``marker``: the space number; ``decision``: ``"turn"`` (deal or roll) or
      ``"arrive"`` (deal or draw) for seat ``current``.
    * ``forced``: chance outcomes, e.g. ``[("die", 4)]``.
    """
    values = GAME.options(options)
    pool = Pool(CONTENT.cards, "card")
    named = by_seat(hands, players, "hands")
    final_hands = [pool.take_all(named.get(s, [])) for s in range(players)]
    top, pile = pool.take_all(draw), pool.take_all(discard)
    if spare == "draw":
        top += pool.rest(CONTENT.cards)
    else:
        pile = pool.rest(CONTENT.cards) + pile
    board = dict(covered or {})
    removed = SHORT_REMOVED if values["length"] == "short" else ()
    if deal_cards is None:
        deal_cards = [n for n in range(1, 16) if n not in board.values() and n not in removed]
    data = GAME.new_state(players, seed, values).to_position()
    data.update(
        {
            "options": values,
            "chance": {"seed": seed, "events": 0, "forced": [{"kind": k, "value": v} for k, v in forced]},
            "hands": final_hands,
            "draw": top,
            "discard": pile,
            "placards": dict(placards) if placards is not None else default_placards(players),
            "money": list(money) if money is not None else [0] * players,
            "covered": [board.get(space) for space in range(1, 17)],
            "deal_cards": list(deal_cards),
            "marker": marker,
            "deals": [dict(d) for d in deals] if deals is not None else _records(board),
            "current": current,
            "first": current if first is None else first,
            "turn": turn,
            "over": False,
            "must_deal": must_deal,
            "negotiation": None,
        }
    )
    data[_decisions_field(data)] = [{"kind": decision, "seats": [current], "data": {}, "concurrent": False}]
    return data


def deal_record(
    space: int, card: int, boss: int = 0, payments: Mapping[int, int] | None = None
) -> dict[str, Any]:
    """Returns the public record of the deal that put deal ``card`` on ``space`` (both by number)."""
    proceeds = CONTENT.spaces[space - 1].dividends * CONTENT.deal_cards[card - 1].value
    paid = {str(s): a for s, a in sorted((payments or {}).items())}
    return {"card": card, "space": space, "boss": boss, "proceeds": proceeds, "payments": paid}


def _records(board: Mapping[int, int]) -> list[dict[str, Any]]:
    """Returns a record for each covered space, in the order its deal card left the stack."""
    return [deal_record(space, card) for space, card in sorted(board.items(), key=lambda item: item[1])]


def _decisions_field(data: dict[str, Any]) -> str:
    """Returns the name under which a position stores the decision stack."""
    return "decisions" if "decisions" in data else "stack"


def load(players: int = 3, **kwargs: Any) -> BossGameState:
    """Returns the state of :func:`position` (same arguments), loaded through its JSON text."""
    return GAME.load_position(json.dumps(position(players, **kwargs)))


def negotiation(players: int = 3, *, boss: int = 0, space: int = 4, **kwargs: Any) -> BossGameState:
    """Returns a position where seat ``boss`` has just said "Let's make a deal" on ``space``."""
    state = load(players, marker=space, current=boss, **kwargs)
    play(state, f"{boss}: deal")
    return state


def play(state: BossGameState, *lines: str) -> None:
    """Applies actions in notation; ``"2: offer R 3"`` names the seat, a bare action is the only decider's."""
    for line in lines:
        apply_line(state, line)


def passes(state: BossGameState, *seats: int) -> None:
    """Each named seat passes, in this order."""
    for seat in seats:
        state.apply_notation("pass", seat)


def everyone_passes(state: BossGameState) -> None:
    """Every seat asked in the window on top passes, in the deterministic order, until it settles."""
    window = state.stack.top
    while len(state.stack) and state.stack.top is window and window.seats:
        seat = window.seats[0]
        if "pass" not in legal(state, seat):
            break
        state.apply_notation("pass", seat)


def force_die(state: BossGameState, *results: int) -> None:
    """Queues die results for the next rolls."""
    state.chance.forced.extend(Forced("die", r) for r in results)


def legal(state: BossGameState, seat: int | None = None) -> list[str]:
    """Returns a seat's legal actions (default: the only decider's) in notation."""
    return [str(a) for a in state.legal_actions(seat)]


def verbs(state: BossGameState, seat: int) -> set[str]:
    """Returns the verbs of a seat's legal actions."""
    return {str(a).split()[0] for a in state.legal_actions(seat)}


def hand(state: BossGameState, seat: int) -> list[str]:
    """Returns a seat's hand as sorted card names."""
    return sorted(state.name(c) for c in state.hands[seat])


def names(state: BossGameState, cards: Sequence[int]) -> list[str]:
    """Returns card ids as names, in order."""
    return [state.name(c) for c in cards]


def laid(state: BossGameState, seat: int) -> list[str]:
    """Returns the Clan cards a seat has laid in the negotiation, as sorted names."""
    assert state.nego is not None
    return sorted(state.name(c) for c in state.nego.laid[seat])


def terms(state: BossGameState) -> dict[str, tuple[int, int, bool]]:
    """Returns the terms' investor lines: colour -> (seat, amount, agreed)."""
    assert state.nego is not None
    return {c: (t.seat, t.amount, t.agreed) for c, t in sorted(state.nego.items.items())}


def kinds(state: BossGameState) -> list[str]:
    """Returns the decision kinds on the stack, bottom first."""
    return state.stack.kinds()


def marker(state: BossGameState) -> int:
    """Returns the marker's place (0 to 15; the rulebook's space is one more), which a game always has."""
    assert state.marker is not None, "the marker is off the board"
    return state.marker


def nego(state: BossGameState) -> Negotiation:
    """Returns the negotiation under way (a test that reads one fails here where there is none)."""
    assert state.nego is not None, "no negotiation is under way"
    return state.nego


def check(state: BossGameState) -> None:
    """Asserts the engine's invariants and that the placards and cards are whole."""
    assert state.invariant_errors() == []
    data = state.to_position()
    seen = Counter(n for h in data["hands"] for n in h) + Counter(data["draw"]) + Counter(data["discard"])
    nego = data["negotiation"]
    if nego is not None:
        seen += Counter(n for pile in nego["laid"] for n in pile) + Counter(nego["travelling"].values())
        if nego["pending"] is not None:
            seen += Counter(nego["pending"]["cards"])
    assert seen == Counter(CONTENT.cards), "the cards by name differ from the set"
