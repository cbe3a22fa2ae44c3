"""Positions: the whole I'm the Boss! state as JSON (its layout's parts, ``state.PARTS``), written and
read back, with the consistency checks a layout cannot know."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TypeVar

from parlour.core.chance import Chance
from parlour.core.decisions import DecisionStack
from parlour.core.errors import PositionError
from parlour.core.payloads import JSONValue
from parlour.core.positions import Fields, check_int, short_repr
from parlour.core.zones import CardReader, position_header
from parlour.games.im_the_boss.actions import BossCard, Recruit
from parlour.games.im_the_boss.content import Content
from parlour.games.im_the_boss.negotiation import Negotiation, Pending
from parlour.games.im_the_boss.negotiation_form import seat_key
from parlour.games.im_the_boss.options import DRAW, HAND_LIMIT, SHORT_GAME_REMOVED
from parlour.games.im_the_boss.rules import KINDS, Arrive, Bargain, Closing, Limit, PlaceMarker, Respond, Turn
from parlour.games.im_the_boss.state import BossDecision, BossState
from parlour.games.im_the_boss.state import layout as layout_for
from parlour.games.im_the_boss.supply import can_supply, stands

T = TypeVar("T", bound=BossState)

FORMAT = "parlour-im-the-boss-position/1"
HEADER = {"format", "game", "players", "options", "chance"}


def to_position(state: BossState) -> dict[str, JSONValue]:
    """Returns the whole state as JSON data (its layout's parts, then the decisions); cards by name."""
    return {
        **position_header(state, FORMAT),
        **state.layout.write(state),
        "decisions": state.stack.to_json(),
    }


def from_position(kind: type[T], content: Content, data: object, options: dict[str, JSONValue]) -> T:
    """Returns the state (of class ``kind``) a position describes, refusing anything impossible with the
    field's path."""
    layout = layout_for(content)
    f = Fields(data, "", {*HEADER, *layout.keys(), "decisions"})
    if f.get("format") != FORMAT:
        raise PositionError("format", f"must be {FORMAT!r}")
    players = f.integer("players", 3, 6)
    state = kind(content, players, options, Chance.from_json(f.get("chance")))
    readers = layout.readers()
    for name, value in layout.read(kind, f.data, readers=readers, context=state).items():
        setattr(state, name, value)
    _check_all_placed(readers[id(layout.cards)])
    _check_board(state)
    state.stack = DecisionStack.from_json(f.get("decisions"), "decisions", players, KINDS)
    _check_stack(state)
    return state


def _check_all_placed(reader: CardReader) -> None:
    """Refuses a position that leaves cards out."""
    missing = Counter(reader.missing())
    if missing:
        name, count = sorted(missing.items())[0]
        raise PositionError("hands", f"{count} {name} card(s) are nowhere (every card must be placed)")


def _check_board(state: BossState) -> None:
    """Refuses hands, placards, money, the board, the deal cards and the turn fields out of range."""
    players, colours = state.players, state.content.colours
    if len(state.hands) != players:
        raise PositionError("hands", f"must be a list of {players} hands")
    if sorted(state.owners) != sorted(colours):
        raise PositionError("placards", f"must map each colour {' '.join(colours)} to a seat or null")
    for colour, seat in state.owners.items():
        if seat is not None:
            check_int(seat, f"placards.{colour}", 0, players - 1)
    _check_each(state.money, "money", 0)
    if len(state.money) != players:
        raise PositionError("money", f"must list {players} amounts")
    last = len(state.content.deal_cards)
    _check_each(state.covered, "covered", 1, last)
    _check_each(state.deal_cards, "deal_cards", 1, last)
    used = [n for n in state.covered if n is not None] + state.deal_cards
    if len(state.covered) != len(state.content.spaces) or len(set(used)) != len(used):
        raise PositionError("covered", "must list the 16 spaces; a deal card may be in one place only")
    if state.marker is not None and state.covered[state.marker] is not None and not state.over:
        raise PositionError("marker", "the marker stands on a covered space")
    check_int(state.current, "current", 0, players - 1)
    check_int(state.first, "first", 0, players - 1)
    check_int(state.turn, "turn", 0)


def _check_each(values: list[int] | list[int | None], path: str, low: int, high: int | None = None) -> None:
    """Refuses a number out of [low, high] in a list (nulls allowed where the list holds them)."""
    for i, value in enumerate(values):
        if value is not None:
            check_int(value, f"{path}[{i}]", low, high)


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


def _check_stack(state: BossState) -> None:
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
    # whether the decisions can be played from here: the core's check_playable, after read_position


def _check_deal_cards(state: BossState) -> None:
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


def _check_deal_record(state: BossState, deal: Mapping[str, object], path: str) -> None:
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
        not seat_key(k, state.players) or not isinstance(v, int) or isinstance(v, bool) or v < 1
        for k, v in payments.items()
    ):
        raise PositionError(f.where("payments"), "must map seats to positive amounts")
    if sum(payments.values()) > proceeds:
        raise PositionError(f.where("payments"), "the payments exceed the proceeds")


def _check_hands(state: BossState, kinds: tuple[type[BossDecision], ...]) -> None:
    """Refuses a hand over 12 cards except while its holder discards down (and that only then)."""
    for seat, hand in enumerate(state.hands):
        discarding = kinds == (Limit,) and seat == state.current
        if len(hand) > (HAND_LIMIT + DRAW if discarding else HAND_LIMIT) or (
            discarding and len(hand) <= HAND_LIMIT
        ):
            raise PositionError(f"hands[{seat}]", f"holds {len(hand)} cards: the hand limit is {HAND_LIMIT}")


def _check_negotiation(state: BossState, nego: Negotiation) -> None:
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
        if any(not state.name(c).startswith("clan:") for c in laid):
            raise PositionError(f"negotiation.laid[{seat}]", "only Clan cards are laid")
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


def _check_pending(state: BossState, nego: Negotiation, pending: Pending) -> None:
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
