"""Positions: the whole I'm the Boss! state as JSON, written and read back with checks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TypeVar, cast

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack
from parlour.core.errors import ParlourError, PositionError
from parlour.core.payloads import JSONValue
from parlour.core.positions import Fields, check_int, check_str, short_key, short_repr
from parlour.games.im_the_boss.actions import BossCard, Play, Recruit, Travel
from parlour.games.im_the_boss.content import Content
from parlour.games.im_the_boss.negotiation import Negotiation, Pending, Term
from parlour.games.im_the_boss.options import DRAW, HAND_LIMIT, SHORT_GAME_REMOVED
from parlour.games.im_the_boss.rules import KINDS, Arrive, Bargain, Closing, Limit, PlaceMarker, Respond, Turn
from parlour.games.im_the_boss.supply import can_supply, stands
from parlour.games.im_the_boss.tabletop import BossDecision, DealRecord, Tabletop

T = TypeVar("T", bound=Tabletop)

FORMAT = "parlour-im-the-boss-position/1"
FIELDS = {
    "format",
    "game",
    "players",
    "options",
    "chance",
    "hands",
    "draw",
    "discard",
    "placards",
    "money",
    "covered",
    "deal_cards",
    "marker",
    "deals",
    "current",
    "first",
    "turn",
    "over",
    "must_deal",
    "negotiation",
    "decisions",
}
NEGO_FIELDS = {
    "space",
    "opener",
    "boss",
    "proceeds",
    "laid",
    "travelling",
    "offers",
    "terms",
    "tips",
    "counted",
    "called",
    "pending",
}


def to_position(state: Tabletop) -> dict[str, JSONValue]:
    """Returns the whole state as JSON data; cards are written by name."""
    names = state.name
    return {
        "format": FORMAT,
        "game": "im-the-boss",
        "players": state.players,
        "options": dict(state.options),
        "chance": state.chance.to_json(),
        "hands": [[names(c) for c in h] for h in state.hands],
        "draw": [names(c) for c in state.draw],
        "discard": [names(c) for c in state.discard],
        "placards": dict(state.owners),
        "money": list(state.money),
        "covered": list(state.covered),
        "deal_cards": list(state.deal_cards),
        "marker": None if state.marker is None else state.marker + 1,
        "deals": [dict(d) for d in state.deals],
        "current": state.current,
        "first": state.first,
        "turn": state.turn,
        "over": state.over,
        "must_deal": state.must_deal,
        "negotiation": _nego_json(state),
        "decisions": state.stack.to_json(),
    }


def _nego_json(state: Tabletop) -> dict[str, JSONValue] | None:
    """Returns the negotiation as JSON data."""
    nego = state.nego
    if nego is None:
        return None
    pending = nego.pending
    return {
        "space": nego.space + 1,
        "opener": nego.opener,
        "boss": nego.boss,
        "proceeds": nego.proceeds,
        "laid": [[state.name(c) for c in laid] for laid in nego.laid],
        "travelling": {c: state.name(card) for c, card in sorted(nego.travelling.items())},
        "offers": [[c, s, a] for (c, s), a in sorted(nego.offers.items())],
        "terms": {c: t.to_json() for c, t in sorted(nego.items.items())},
        "tips": {str(s): [t.amount, t.agreed] for s, t in sorted(nego.tips.items())},
        "counted": list(nego.counted),
        "called": nego.called,
        "pending": None if pending is None else _pending_json(state, pending),
    }


def _pending_json(state: Tabletop, pending: Pending) -> dict[str, JSONValue]:
    """Returns the play awaiting a Stop as JSON data: its verb, player, target and cards."""
    return {
        "verb": pending.play.verb,
        "by": pending.by,
        "colour": pending.colour,
        "seat": pending.seat,
        "cards": [state.name(c) for c in pending.cards],
    }


class _Cards:
    """Hands out card ids by name while a position is read, so every card is placed exactly once."""

    def __init__(self, content: Content) -> None:
        self.free: dict[str, list[int]] = {}
        for card, name in enumerate(content.cards):
            self.free.setdefault(name, []).append(card)

    def take(self, name: object, path: str) -> int:
        """Returns a free id of a card called ``name``."""
        if not isinstance(name, str) or name not in self.free:
            raise PositionError(path, f"{short_repr(name)} is not a card of this set")
        if not self.free[name]:
            raise PositionError(path, f"more {name} cards than the set has")
        return self.free[name].pop(0)

    def pile(self, value: object, path: str) -> list[int]:
        """Returns the ids of a list of card names."""
        if not isinstance(value, list):
            raise PositionError(path, "must be a list of card names")
        return [self.take(v, f"{path}[{i}]") for i, v in enumerate(value)]

    def check_all_placed(self) -> None:
        """Refuses a position that leaves cards out."""
        missing = Counter({n: len(ids) for n, ids in self.free.items() if ids})
        if missing:
            name, count = sorted(missing.items())[0]
            raise PositionError("hands", f"{count} {name} card(s) are nowhere (every card must be placed)")


def from_position(kind: type[T], content: Content, data: object, options: dict[str, JSONValue]) -> T:
    """Returns the state (of class ``kind``) a position describes, refusing anything impossible with the
    field's path."""
    f = Fields(data, "", FIELDS)
    if f.get("format") != FORMAT:
        raise PositionError("format", f"must be {FORMAT!r}")
    players = f.integer("players", 3, 6)
    state = kind(content, players, options, Chance.from_json(f.get("chance")))
    cards = _Cards(content)
    hands = f.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise PositionError("hands", f"must be a list of {players} hands")
    state.hands = [cards.pile(h, f"hands[{i}]") for i, h in enumerate(hands)]
    state.draw = cards.pile(f.get("draw"), "draw")
    state.discard = cards.pile(f.get("discard"), "discard")
    _read_board(state, f)
    state.nego = _read_nego(state, f.get("negotiation"), cards)
    cards.check_all_placed()
    state.stack = DecisionStack.from_json(f.get("decisions"), "decisions", players, KINDS)
    _check_stack(state)
    return state


def _read_board(state: Tabletop, f: Fields) -> None:
    """Reads placards, money, the board, the deal cards and the turn fields."""
    players, colours = state.players, state.content.colours
    placards = f.get("placards")
    if not isinstance(placards, dict) or sorted(placards) != sorted(colours):
        raise PositionError("placards", f"must map each colour {' '.join(colours)} to a seat or null")
    for colour, seat in placards.items():
        state.owners[colour] = None if seat is None else check_int(seat, f"placards.{colour}", 0, players - 1)
    state.money = f.items("money", lambda v, p: check_int(v, p, 0))
    if len(state.money) != players:
        raise PositionError("money", f"must list {players} amounts")
    numbers = range(1, len(state.content.deal_cards) + 1)
    state.covered = f.items("covered", lambda v, p: None if v is None else check_int(v, p, 1, numbers[-1]))
    state.deal_cards = f.items("deal_cards", lambda v, p: check_int(v, p, 1, numbers[-1]))
    used = [n for n in state.covered if n is not None] + state.deal_cards
    if len(state.covered) != len(state.content.spaces) or len(set(used)) != len(used):
        raise PositionError("covered", "must list the 16 spaces; a deal card may be in one place only")
    marker = f.get("marker")
    state.marker = None if marker is None else check_int(marker, "marker", 1, 16) - 1
    if state.marker is not None and state.covered[state.marker] is not None and not f.get("over"):
        raise PositionError("marker", "the marker stands on a covered space")
    deals = f.get("deals")
    if not isinstance(deals, list) or not all(isinstance(d, dict) for d in deals):
        raise PositionError("deals", "must be a list of deal records")
    state.deals = [cast(DealRecord, dict(d)) for d in deals]  # each checked in _check_deal_record
    state.current = f.integer("current", 0, players - 1)
    state.first = f.integer("first", 0, players - 1)
    state.turn = f.integer("turn", 0)
    state.over = f.boolean("over")
    state.must_deal = f.boolean("must_deal")


def _read_nego(state: Tabletop, data: object, cards: _Cards) -> Negotiation | None:
    """Reads the negotiation (or null)."""
    if data is None:
        return None
    n = Fields(data, "negotiation", NEGO_FIELDS)
    players, colours = state.players, state.content.colours
    laid = n.get("laid")
    if not isinstance(laid, list) or len(laid) != players:
        raise PositionError("negotiation.laid", f"must list {players} seats' laid Clan cards")
    nego = Negotiation(
        n.integer("space", 1, 16) - 1,
        n.integer("opener", 0, players - 1),
        n.integer("boss", 0, players - 1),
        n.integer("proceeds", 0),
        [cards.pile(x, f"negotiation.laid[{i}]") for i, x in enumerate(laid)],
    )
    for i, pile in enumerate(nego.laid):
        if any(not state.name(c).startswith("clan:") for c in pile):
            raise PositionError(f"negotiation.laid[{i}]", "only Clan cards are laid")
    travelling = n.get("travelling")
    if not isinstance(travelling, dict) or set(travelling) - set(colours):
        raise PositionError("negotiation.travelling", "must map placard colours to Travel cards")
    nego.travelling = {c: cards.take(v, f"negotiation.travelling.{c}") for c, v in travelling.items()}
    for i, entry in enumerate(n.items("offers", _triple)):
        colour, seat, ask = entry
        if colour not in set(colours) or not 0 <= seat < players:
            raise PositionError(f"negotiation.offers[{i}]", "colour or seat out of range")
        nego.offers[(colour, seat)] = ask
    nego.items = _terms(n.get("terms"), colours, players)
    tips = n.get("tips")
    if not isinstance(tips, dict):
        raise PositionError("negotiation.tips", "must be an object")
    for key, value in tips.items():
        if not _seat_key(key, players) or not _pair(value):
            raise PositionError(f"negotiation.tips.{short_key(key)}", "must map a seat to [amount, agreed]")
        nego.tips[int(key)] = Term(int(key), value[0], value[1])
    nego.counted = n.items("counted", lambda v, p: check_int(v, p, 0))
    if len(nego.counted) != players:
        raise PositionError("negotiation.counted", f"must list {players} seats' action counts")
    nego.called = n.boolean("called")
    nego.pending = _pending(n.get("pending"), players, cards)
    return nego


def _seat_key(key: object, players: int) -> bool:
    """Returns whether an object key names a seat: ``"0"`` … ``"players - 1"`` as written by positions."""
    return isinstance(key, str) and key.isdecimal() and key == str(int(key)) and int(key) < players


def _triple(value: object, path: str) -> tuple[str, int, int]:
    """Reads ``[colour, seat, amount]``."""
    if not isinstance(value, list) or len(value) != 3:
        raise PositionError(path, "must be [colour, seat, amount]")
    return check_str(value[0], path), check_int(value[1], path, 0), check_int(value[2], path, 0)


def _pair(value: object) -> bool:
    """Returns whether ``value`` is ``[amount, agreed]``."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], int)
        and not isinstance(value[0], bool)
        and value[0] >= 0
        and isinstance(value[1], bool)
    )


def _terms(data: object, colours: str, players: int) -> dict[str, Term]:
    """Reads the terms: colour -> [seat, amount, agreed]."""
    if not isinstance(data, dict):
        raise PositionError("negotiation.terms", "must be an object")
    terms = {}
    for colour, value in data.items():
        path = f"negotiation.terms.{short_key(colour)}"
        shaped = isinstance(value, list) and len(value) == 3 and _pair(value[1:])
        if colour not in set(colours) or not shaped:
            raise PositionError(path, "must map a colour to [seat, amount, agreed]")
        terms[colour] = Term(check_int(value[0], path, 0, players - 1), value[1], value[2])
    return terms


def _pending(data: object, players: int, cards: _Cards) -> Pending | None:
    """Reads the play awaiting a Stop (or null)."""
    if data is None:
        return None
    p = Fields(data, "negotiation.pending", {"verb", "by", "colour", "seat", "cards"})
    verb, colour, seat = p.string("verb"), p.string("colour"), p.integer("seat", -1, players - 1)
    if verb not in ("travel", "boss", "recruit"):
        raise PositionError("negotiation.pending.verb", "must be travel, boss or recruit")
    if verb != "travel" and seat != -1:
        raise PositionError("negotiation.pending.seat", "only a Travel card targets a seat (else -1)")
    if verb == "boss" and colour:
        raise PositionError("negotiation.pending.colour", "a Boss card targets no colour (write '')")
    played: Play = (
        Travel(colour, seat) if verb == "travel" else Recruit(colour) if verb == "recruit" else BossCard()
    )
    return Pending(
        played, p.integer("by", 0, players - 1), cards.pile(p.get("cards"), "negotiation.pending.cards")
    )


SHAPES: dict[tuple[type[BossDecision], ...], str] = {
    (): "the game is over",
    (PlaceMarker,): "the marker is placed",
    (Turn,): "a turn",
    (Arrive,): "after the roll",
    (Limit,): "over the hand limit",
    (Bargain,): "bargaining",
    (Bargain, Respond): "a Stop window",
    (Bargain, Closing): "the closing round",
    (Bargain, Closing, Respond): "a Stop window in the closing round",
}
"""Every stack of decisions a game can have."""


def _check_stack(state: Tabletop) -> None:
    """Refuses a stack that does not fit the rest of the position."""
    kinds = tuple(type(d) for d in state.stack)
    if kinds not in SHAPES:
        found = short_repr(state.stack.kinds())
        raise PositionError("decisions", f"impossible decisions {found} (see docs/positions.md)")
    if (kinds == ()) != state.over:
        raise PositionError("over", "the game is over exactly when no decision is pending")
    if (kinds[:1] == (Bargain,)) != (state.nego is not None):
        raise PositionError("negotiation", "a negotiation is on exactly when the bargaining window is")
    if state.marker is None and kinds and kinds != (PlaceMarker,):
        raise PositionError("marker", "the marker must be placed before anything else happens")
    _check_deal_cards(state)
    _check_hands(state, kinds)
    if state.nego is not None:
        if (Respond in kinds) != (state.nego.pending is not None):
            raise PositionError("decisions", "a Stop window needs a pending play, and only then")
        if (Closing in kinds) != state.nego.called:
            raise PositionError(
                "negotiation.called", "the deal is called exactly when the closing round is on"
            )
        if state.nego.called and not stands(state):
            raise PositionError("negotiation.called", "a called deal needs agreed lines that cover the space")
        _check_negotiation(state, state.nego)
    for i, decision in enumerate(state.stack):
        assert isinstance(decision, BossDecision)  # KINDS reads only the game's decisions
        decision.check_seats(state, f"decisions[{i}]")
    problems = state.invariant_errors()
    if problems:
        raise PositionError("", "; ".join(problems))
    try:
        for seat in state.deciders():
            state.legal_actions(seat)
    except (ParlourError, LookupError, AssertionError, TypeError, ValueError) as err:
        raise PositionError(
            "decisions", f"the decisions cannot be played from here ({short_repr(err)})"
        ) from None


def _check_deal_cards(state: Tabletop) -> None:
    """Refuses deal cards out of order, missing, or not matching the length option and the record."""
    removed = SHORT_GAME_REMOVED if state.options["length"] == "short" else ()
    every = [c.number for c in state.content.deal_cards if c.number not in removed]
    used = sorted(n for n in state.covered if n is not None)
    if used + state.deal_cards != every:
        raise PositionError("deal_cards", f"covered and stacked deal cards must be {every} in order")
    if not state.over and not state.deal_cards:
        raise PositionError("deal_cards", "no deal card is left, so the game must be over")
    if len(state.deals) != len(used):
        raise PositionError("deals", "the record must hold one entry per covered space")
    for i, deal in enumerate(state.deals):
        _check_deal_record(state, deal, f"deals[{i}]")


def _check_deal_record(state: Tabletop, deal: Mapping[str, object], path: str) -> None:
    """Refuses a malformed entry of the public record of deals."""
    f = Fields(deal, path, {"card", "space", "boss", "proceeds", "payments", "roll"})
    space = f.integer("space", 1, len(state.content.spaces))
    if state.covered[space - 1] != f.integer("card", 1):
        raise PositionError(f.where("card"), "must be the deal card covering that space")
    f.integer("boss", 0, state.players - 1)
    if "roll" in deal:
        f.integer("roll", 1, state.content.die)
    proceeds = f.integer("proceeds", 0)
    payments = f.get("payments")
    if not isinstance(payments, dict) or any(
        not _seat_key(k, state.players) or not isinstance(v, int) or isinstance(v, bool) or v < 1
        for k, v in payments.items()
    ):
        raise PositionError(f.where("payments"), "must map seats to positive amounts")
    if sum(payments.values()) > proceeds:
        raise PositionError(f.where("payments"), "the payments exceed the proceeds")


def _check_hands(state: Tabletop, kinds: tuple[type[BossDecision], ...]) -> None:
    """Refuses a hand over 12 cards except while its holder discards down (and that only then)."""
    for seat, hand in enumerate(state.hands):
        discarding = kinds == (Limit,) and seat == state.current
        if len(hand) > (HAND_LIMIT + DRAW if discarding else HAND_LIMIT) or (
            discarding and len(hand) <= HAND_LIMIT
        ):
            raise PositionError(f"hands[{seat}]", f"holds {len(hand)} cards: the hand limit is {HAND_LIMIT}")


def _check_negotiation(state: Tabletop, nego: Negotiation) -> None:
    """Refuses a negotiation that could not have arisen: wrong proceeds, suppliers or cards."""
    top = state.top_card()
    expected = state.space(nego.space).dividends * top.value if top else -1
    if nego.proceeds != expected:
        raise PositionError(
            "negotiation.proceeds", f"must be dividends × the top deal card's value ({expected})"
        )
    if state.covered[nego.space] is not None:
        raise PositionError("negotiation.space", "a negotiation cannot be held on a covered space")
    for colour, card in nego.travelling.items():
        if state.name(card) not in (f"travel:{colour}", "travel:any") or state.owners[colour] is None:
            raise PositionError(
                f"negotiation.travelling.{colour}", "must be a matching Travel card on a held placard"
            )
    for seat, laid in enumerate(nego.laid):
        if any(state.name(c)[-1] not in state.space(nego.space).colours for c in laid):
            raise PositionError(
                f"negotiation.laid[{seat}]", "Clan cards are laid only in the space's colours"
            )
    if any(a > nego.proceeds for a in nego.offers.values()):
        raise PositionError("negotiation.offers", f"an ask is at most the proceeds ({nego.proceeds})")
    for colour, seat in nego.offers:
        if not can_supply(state, seat, colour) or seat == nego.boss:
            raise PositionError("negotiation.offers", f"seat {seat} cannot offer {colour}")
    for colour, term in nego.items.items():
        if not can_supply(state, term.seat, colour):
            raise PositionError(f"negotiation.terms.{colour}", f"seat {term.seat} cannot supply {colour}")
    if nego.committed() > nego.proceeds or nego.boss in nego.tips:
        raise PositionError("negotiation.terms", "the terms pay more than the proceeds, or tip the Boss")
    if nego.pending is not None:
        _check_pending(state, nego, nego.pending)


def _check_pending(state: Tabletop, nego: Negotiation, pending: Pending) -> None:
    """Refuses a pending play whose cards or target do not fit it."""
    names = [state.name(c) for c in pending.cards]
    where = "negotiation.pending"
    if isinstance(pending.play, BossCard):
        ok = names == ["boss"] and pending.by != nego.boss
    elif isinstance(pending.play, Recruit):
        ok = (
            names == ["recruit"] * 3
            and pending.colour in state.owners
            and state.owners[pending.colour] != pending.by
        )
    else:
        clan = f"clan:{pending.colour}"
        target = (
            any(state.name(c) == clan for c in nego.laid[pending.seat])
            if pending.seat >= 0
            else pending.colour in state.owners
            and state.owners[pending.colour] is not None
            and pending.colour not in nego.travelling
        )
        ok = len(names) == 1 and names[0] in (f"travel:{pending.colour}", "travel:any") and target
    if not ok:
        raise PositionError(where, f"the cards or the target do not fit a pending {pending.play.verb}")
