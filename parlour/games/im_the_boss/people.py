"""For people: the banner line, why the game ended, the final money step by step, the cards' texts.

Everything here is public (the banner must read the same in every determinisation): the stack, the
negotiation on the table and the public record of deals, never a hand.
"""

from __future__ import annotations

from parlour.core.state import ScoreStep
from parlour.games.im_the_boss.bargain import quiet, quiet_choices
from parlour.games.im_the_boss.closing import Closing
from parlour.games.im_the_boss.content import ANY, Content, house_card_texts
from parlour.games.im_the_boss.plays import Respond
from parlour.games.im_the_boss.state import BossDecision, BossState
from parlour.games.im_the_boss.supply import stands
from parlour.games.im_the_boss.turn import Arrive, Limit, PlaceMarker, Turn


def seats(numbers: list[int] | tuple[int, ...]) -> str:
    """Returns ``seat 2`` or ``seats 2, 0, 1`` (in the order given)."""
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return "seats " + ", ".join(map(str, numbers))


def deal_words(state: BossState, space_index: int, proceeds: int | None = None) -> str:
    """Returns ``the space 4 deal (R O, 6 million)``: the space, what it needs, what it pays."""
    space = state.space(space_index)
    top = state.top_card()
    if proceeds is None:
        proceeds = space.dividends * top.value if top is not None else 0
    return f"the space {space.number} deal ({space.text()}, {proceeds} million)"


# ------------------------------------------------------------------ the banner
def decision_summary(state: BossState) -> str:
    """Returns who is deciding what now, in one public line."""
    if state.over:
        return f"The game is over. {end_reason(state)}"
    decision = state.decision()
    deciders = state.deciders()
    seat = deciders[0]
    if isinstance(decision, PlaceMarker):
        return f"seat {seat} places the marker on any space before seat {state.first}'s first turn"
    if isinstance(decision, Turn | Arrive):
        assert state.marker is not None
        here = deal_words(state, state.marker)
        if isinstance(decision, Turn):
            return f"seat {seat}'s turn: try {here} where the marker stands, or roll"
        if state.must_deal:
            return f"seat {seat}'s turn: must try {here} (10 or more cards in hand)"
        return f"seat {seat}'s turn: try {here}, or draw three cards"
    if isinstance(decision, Limit):
        return f"seat {seat} is over 12 cards: discards one, or plays a Recruitment triple"
    return _negotiation_summary(state, decision, deciders)


def _negotiation_summary(state: BossState, decision: BossDecision, deciders: tuple[int, ...]) -> str:
    """Returns the banner of a negotiation's bargaining, Stop window or closing round."""
    nego = state.negotiation()
    deal = deal_words(state, nego.space, nego.proceeds)
    boss = f"the Boss, seat {nego.boss}"
    if isinstance(decision, Respond):
        assert nego.pending is not None
        return f"Stop window: {seats(deciders)} may stop {nego.pending.describe()}"
    if isinstance(decision, Closing):
        # The rulebook's "Going once, going twice-the deal is closed!", seat by seat (docs/negotiation.md).
        queue = decision.seats
        then = f" (then {seats(queue[1:])})" if len(queue) > 1 else " (the last to answer)"
        return (
            f'"going once, going twice": closing round of {deal}, called by {boss}: '
            f"{seats(deciders[:1])} may play a card or pass{then}"
        )
    if quiet(state):
        return f"negotiation for {deal}: everyone has passed; {boss}, may {quiet_choices(state)}"
    who = "everyone" if len(deciders) == state.players else seats(deciders)
    if nego.boss not in deciders:
        return f"negotiation for {deal}: {who} may bargain; {boss}, has passed"
    if stands(state):
        return f"negotiation for {deal}: {who} may bargain; {boss}, may call"
    return f"negotiation for {deal}: {who} may bargain; {boss}, may call once agreed terms cover the space"


# ------------------------------------------------------------------ the end
def end_reason(state: BossState) -> str:
    """Returns why the game ended: the end roll, the last deal card, or the turn limit ('' if it goes on)."""
    if not state.over:
        return ""
    last = state.deals[-1] if state.deals else None
    if last is not None and "roll" in last:
        card = state.content.deal_cards[last["card"] - 1]
        if last["roll"] in card.ends:
            numbers = ", ".join(map(str, card.ends))
            return (
                f"Seat {last['boss']} rolled {last['roll']} after deal {len(state.deals)}: deal card "
                f"{card.number} ends the game on {numbers}."
            )
    if not state.deal_cards:
        card_number = last["card"] if last is not None else "?"
        return f"The last deal card ({card_number}) was placed: the game ends after it."
    limit = state.options["max_turns"]
    if limit and state.turn >= limit:
        return f"The turn limit ({limit} turns) was reached (ruling B-3)."
    return "The game ended."


def score_steps(state: BossState) -> list[ScoreStep]:
    """Returns each seat's money deal by deal (as Boss: proceeds less payments; as a payee), summing to
    its score; money the record of deals does not explain (a loaded position) gets a line of its own."""
    steps: list[ScoreStep] = [ScoreStep(None, "Most money wins; each deal's share, seat by seat.")]
    for seat in range(state.players):
        lines = _seat_steps(state, seat)
        rest = state.money[seat] - sum(step.points or 0 for step in lines)
        if rest or not lines:
            lines.append(
                ScoreStep(seat, "money not from a recorded deal" if rest else "no deal paid it", rest)
            )
        steps += lines
    return steps


def _seat_steps(state: BossState, seat: int) -> list[ScoreStep]:
    """Returns one seat's share of each recorded deal."""
    lines = []
    for number, deal in enumerate(state.deals, 1):
        paid = {int(s): a for s, a in deal["payments"].items()}
        where = f"deal {number} (space {deal['space']}, deal card {deal['card']})"
        if deal["boss"] == seat:
            out = sum(paid.values())
            label = f"Boss of {where}: proceeds {deal['proceeds']}, paid out {out}"
            lines.append(ScoreStep(seat, label, deal["proceeds"] - out))
        elif seat in paid:
            lines.append(ScoreStep(seat, f"paid by seat {deal['boss']} in {where}", paid[seat]))
    return lines


# ------------------------------------------------------------------ the cards
def card_texts(content: Content, house: tuple[dict[str, str], str] | None = None) -> dict[str, str]:
    """Returns the text of every card kind in the deck and of every deal card: the content set's own
    texts, else the house ones (``house``, default data/card_texts.json: the rulebook's sentences)."""
    house_kinds, house_deal = house_card_texts() if house is None else house
    kinds = {**house_kinds, **content.kind_texts}
    texts: dict[str, str] = {}
    for name in sorted(set(content.cards)):
        kind, _, colour = name.partition(":")
        count = content.cards.count(name)
        template = kinds.get(name) or kinds.get(kind)
        if template is None:
            texts[name] = f"{name}: this content set gives no text for this card ({count} in the deck)."
            continue
        if colour and colour != ANY:
            investor = content.investor(colour)
            for key, value in (("colour", colour), ("name", investor.name), ("investor", investor.investor)):
                template = template.replace("{" + key + "}", value)
        texts[name] = f"{template} {count} in the deck."
    for card in content.deal_cards:
        texts[f"deal card {card.number}"] = _deal_text(content, card.number, content.deal_text or house_deal)
    return texts


def _deal_text(content: Content, number: int, template: str) -> str:
    """Returns one deal card's text: its value, the numbers on its back, and whether they are house."""
    card = content.deal_cards[number - 1]
    if card.ends:
        ends = (
            f"On its back: {', '.join(map(str, card.ends))}; after its deal the Boss rolls the die, and "
            "one of these numbers ends the game."
        )
    else:
        ends = "No numbers on its back."
    if number == len(content.deal_cards):
        ends += " The last deal card: the game ends after its deal."
    template = template or (
        "Deal card {number}: {value} million a dividend while on top (this content set gives no text). {ends}"
    )
    text = template.replace("{number}", str(number)).replace("{value}", str(card.value))
    text = text.replace("{ends}", ends)
    if content.deal_source.startswith("house"):
        text += " (House values: Parlour's design; the printed cards' values and numbers are not known.)"
    return text
