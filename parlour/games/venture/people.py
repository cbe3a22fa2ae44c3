"""What the table is told: the banner line, the final scoring step by step, why the game ended, card texts.

Everything here reads public information only (holdings, the center, counts, the debt), so the banner
is the same for every seat and across determinisations.
"""

from __future__ import annotations

from parlour.core.content import HouseFile
from parlour.core.state import ScoreStep
from parlour.games.venture.content import CAPITAL, LETTERS, PROFIT, PROXY, SYMBOLS, Deck
from parlour.games.venture.reorganisation import Reorganisation
from parlour.games.venture.rules import Payment, Turn
from parlour.games.venture.scoring import earning_stacks, holdings_profit, stack_label
from parlour.games.venture.state import VentureState
from parlour.games.venture.takeovers import Placement

INDUSTRY_COLOURS = {
    "ST": "#56B4E9",
    "OI": "#E69F00",
    "RR": "#009E73",
    "RE": "#F0E442",
    "AU": "#D55E00",
    "SH": "#CC79A7",
}
"""One colour per industry of the house deck (codes), from the Okabe-Ito palette, which stays
distinguishable with every common colour-vision deficiency; always shown beside the code or name."""

SYMBOL_NAMES = {letter: name for name, letter in SYMBOLS.items()}


def text_colours(deck: Deck) -> dict[str, str]:
    """Returns the words of the table's texts (industry codes and names) and their colours."""
    colours = {}
    for code, name in deck.industries.items():
        colour = INDUSTRY_COLOURS.get(code)
        if colour:
            colours[code] = colours[name] = colour
    return colours


# ---------------------------------------------------------------- the banner
def decision_summary(state: VentureState) -> str:
    """Returns one public line: who decides what now (the turn, the debt, the decision under way)."""
    if state.over:
        best = max(state.profits)
        winners = [f"seat {s}" for s, p in enumerate(state.profits) if p == best]
        return (
            f"The game is over: {' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'} with {best}."
        )
    seat, top = state.current, state.stack.top
    turn = f"(turn {state.turn})"
    owed = f", owing {state.owed}" if state.owed else ""
    if isinstance(top, Placement):
        return f"seat {seat} places {top.corp}: on a stack it fits, or alone {turn}"
    if isinstance(top, Reorganisation):
        moves = len(top.seen) - 1
        made = f"{moves} move{'' if moves == 1 else 's'} so far"
        return f"seat {seat} reorganises ({made}{owed}): move, done or cancel {turn}"
    if isinstance(top, Payment):
        laid = " ".join(state.card(r).name for r in state.payment) or "nothing yet"
        return f"seat {seat} pays the {state.owed} owed (laid down: {laid}) {turn}"
    if isinstance(top, Turn) and top.must_reorganise:
        return f"seat {seat} must reorganise: two corporations of one industry share a stack {turn}"
    if state.transacted:
        return f"seat {seat}: more transactions, or end{owed} {turn}"
    return f"seat {seat}: take over, proxy fight, reorganise, or discard {turn}"


# ---------------------------------------------------------------- the final scoring
def score_steps(state: VentureState) -> list[ScoreStep]:
    """Returns the rulebook's final scoring step by step: for each player the profits entered at the
    Profit cards, each conglomerate's end-of-game profit, then the grand total (no points: the lines
    with points add up to scores()).  Before the end: the profits entered so far."""
    if not state.over:
        return [ScoreStep(s, "profits entered so far", p) for s, p in enumerate(state.profits)]
    steps = [ScoreStep(None, f"Final scoring. {end_reason(state)}")]
    for seat in range(state.players):
        final = holdings_profit(state, seat)
        earlier = state.profits[seat] - final
        rounds = state.profit_rounds
        steps.append(ScoreStep(seat, f"profits entered at {rounds} Profit card scorings", earlier))
        stacks = earning_stacks(state, seat)
        for corps, profit in stacks:
            steps.append(ScoreStep(seat, f"end of game: {stack_label(corps)}", profit))
        if not stacks:
            steps.append(ScoreStep(seat, "end of game: no conglomerate of three or more earns", 0))
        steps.append(ScoreStep(seat, f"grand total {state.profits[seat]} (end-of-game profits {final})"))
    return steps


def end_reason(state: VentureState) -> str:
    """Returns why the game ended ('' while it goes on): the last corporation taken, or the turn limit."""
    if not state.over:
        return ""
    if not state.stock and not state.center:
        return "The stock is empty and the last corporation of the center has been taken."
    return f"The turn limit of {state.options['max_turns']} turns was reached (ruling A-12)."


# ---------------------------------------------------------------- card texts
TEXTS_FILE = HouseFile("parlour.games.venture", "data/texts.json")
"""The house card texts (rulebook wording), kept apart from the deck so the deck's digest stays."""


def house_texts() -> dict[str, object]:
    """Returns the house card texts by kind of card (templates with {placeholders})."""
    data = TEXTS_FILE.load().data()
    return (
        {k: v for k, v in data.items() if k not in ("format", "about", "source")}
        if isinstance(data, dict)
        else {}
    )


def card_texts(deck: Deck, house: dict[str, object] | None = None) -> dict[str, str]:
    """Returns the text of every corporation and every kind of resources card, from the deck's data
    over the house texts (``house``, by default the house file's)."""
    texts: dict[str, object] = {**(house_texts() if house is None else house), **deck.texts}
    missing = "(this deck file gives no text for this card)"
    result = {}
    for corp in deck.corporations:
        letters = ", ".join(ch for ch in LETTERS if ch in corp.letters)
        industry = deck.industries[corp.industry]
        template = texts.get("corporation")
        result[corp.name] = (
            _fill(template, industry=industry, letters=letters, value=corp.value)
            if isinstance(template, str)
            else f"{industry} corporation, letters {letters}, worth {corp.value} million {missing}"
        )
    for card in deck.resources:
        if card.name in result:
            continue
        text: object
        if card.kind == CAPITAL:
            template = texts.get("set" if card.symbol else "capital")
            symbol = SYMBOL_NAMES.get(card.symbol, "")
            text = _fill(template, value=card.value, symbol=symbol) if isinstance(template, str) else None
        elif card.kind == PROXY:
            proxy = texts.get("proxy")
            text = proxy.get(str(card.halves)) if isinstance(proxy, dict) else None
        else:
            assert card.kind == PROFIT
            text = texts.get("profit")
        result[card.name] = text if isinstance(text, str) else f"{card.kind} card {card.name} {missing}"
    return result


def _fill(template: str, **values: object) -> str:
    """Returns a text template with its ``{name}`` placeholders filled (plain replacement: a deck
    file's text is data, never a format string that could reach into objects)."""
    for name, value in values.items():
        template = template.replace("{" + name + "}", str(value))
    return template
