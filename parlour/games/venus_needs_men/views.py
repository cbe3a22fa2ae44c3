"""What each seat may see (observations) and the table as text."""

from __future__ import annotations

import textwrap
from typing import TypedDict

from parlour.core.decisions import Seat
from parlour.core.state import ScoreStep
from parlour.games.venus_needs_men import population
from parlour.games.venus_needs_men.combat import Releasing, Scavenge
from parlour.games.venus_needs_men.population import needed
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.turns import Act, Extending, Extra, Phase
from parlour.games.venus_needs_men.zapping import DeclareWindow, Immediate, RollWindow, SaveWindow, ZapWindow


class EnhancedView(TypedDict):
    """The Enhanced game's public parts: cards held, the Upgrade piles, control, robots, infection."""

    technology: dict[str, dict[str, str]]
    """Each planet's Technology card id by slot."""
    specials: dict[str, str]
    """Each planet's Special card id."""
    upgrades: dict[str, list[str]]
    pending_upgrades: dict[str, list[str]]
    face_up: list[str]
    upgrade_deck_size: int
    upgrade_discard: list[str]
    controlled: dict[str, str]
    """Ships under Mind Control: ship -> the planet controlling it."""
    disabled: list[str]
    infected: dict[str, int]
    cycled: bool
    seized: list[str]


class Observation(TypedDict):
    """What a seat (or a spectator) is shown of a game of Venus Needs Men!: the drawn table, the encoders
    and the text view read it (docs/browser-tables/venus_needs_men.md). Zap hands and decks are secret."""

    game: str
    players: int
    seat: Seat | None
    """Whose view this is (None: a spectator's)."""
    turn: int
    planets: list[str]
    """The sides in turn order."""
    seat_of: dict[str, int]
    active: str
    """The planet whose turn it is."""
    decision: str | None
    """The kind of the decision on top (None once the game is over)."""
    window: dict[str, object] | None
    """The Zap window on top, its data without ``open`` (None under any other decision)."""
    deciders: list[Seat]
    ships: dict[str, str | None]
    """Every ship's area (None: in its owner's supply), by name."""
    population: dict[str, int]
    collected: dict[str, int]
    needed: int
    """The population that wins."""
    earth_open: bool
    hand: list[int] | None
    """The seat's Zap cards, lowest first (None for a spectator)."""
    hand_sizes: list[int]
    deck_sizes: list[int]
    discards: list[list[int]]
    action: str
    acted: list[str]
    extended: int
    skips: dict[str, int]
    extra_turns: dict[str, int]
    over: bool
    winners: list[Seat]
    enhanced: EnhancedView | None
    """The Enhanced game's parts (None in the Basic game)."""


def observation(state: VenusState, seat: Seat | None) -> Observation:
    """Returns the table as ``seat`` may know it (None: a spectator); Zap hands and decks are secret."""
    top = state.stack.top if len(state.stack) else None
    return Observation(
        game="venus-needs-men",
        players=state.players,
        seat=seat,
        turn=state.turn,
        planets=list(state.planets),
        seat_of=dict(state.seat_of),
        active=state.active,
        decision=top.kind if top else None,
        window=_window(top.data) if isinstance(top, ZapWindow) else None,
        deciders=list(state.deciders()),
        ships={s: a for s, a in sorted(state.ships.items())},
        population=dict(state.population),
        collected=dict(state.collected),
        needed=needed(state),
        earth_open=state.earth_open,
        hand=sorted(state.hands[seat]) if seat is not None else None,
        hand_sizes=[len(h) for h in state.hands],
        deck_sizes=[len(d) for d in state.decks],
        discards=[list(d) for d in state.discards],
        action=state.action,
        acted=list(state.acted),
        extended=state.extended,
        skips=dict(state.skips),
        extra_turns=dict(state.extra_turns),
        over=state.over,
        winners=list(state.winners_),
        enhanced=_enhanced(state),
    )


def _enhanced(state: VenusState) -> EnhancedView | None:
    """Returns the Enhanced game's public parts: cards held, face-up Upgrades, control, robots, infection."""
    if state.options["game"] != "enhanced":
        return None
    tech = state.tech
    return EnhancedView(
        technology={p: {slot: c.id for slot, c in tech.technology[p].items()} for p in state.planets},
        specials={p: tech.specials[p].id for p in state.planets},
        upgrades={p: list(u) for p, u in state.upgrades.items()},
        pending_upgrades={p: list(u) for p, u in state.pending_upgrades.items()},
        face_up=list(state.face_up),
        upgrade_deck_size=len(state.upgrade_deck),
        upgrade_discard=list(state.upgrade_discard),
        controlled=dict(state.controlled),
        disabled=list(state.disabled),
        infected=dict(state.infected),
        cycled=state.cycled,
        seized=list(state.seized),
    )


def _window(data: dict[str, object]) -> dict[str, object]:
    """Returns a Zap window's public data."""
    return {k: v for k, v in data.items() if k != "open"}


MOMENTS = {
    "start": "before the action",
    "declare": "an attack is declared",
    "roll": "after an attack roll",
    "save": "a ship is about to be destroyed",
    "end": "after the action",
}
"""Each Zap window's moment in words."""


def summary(state: VenusState) -> str:
    """Returns one public line for a banner: who decides what now (docs/core.md)."""
    if state.over:
        return f"The game is over: {end_reason(state)}"
    if not len(state.stack) or not state.deciders():
        return f"Turn {state.turn}: {state.planet(state.active).name}"
    top = state.stack.top
    who = state.seat_name(state.deciders()[0])
    active = state.planet(state.active).name
    turn = f"(turn {state.turn}, {active}'s)"
    if isinstance(top, ZapWindow):
        choice = "play a Zap card or pass"
        if isinstance(top, DeclareWindow) and top.always_asks(state) == state.deciders()[0]:
            choice = "play a Zap card, pass (roll) or withdraw the attack"
        return f"{who}: {choice}; {_window_words(top)} {turn}"
    if isinstance(top, Act):
        verbs = (
            "build, move, attack, collect, research"
            if _is_enhanced(state)
            else "build, move, attack, collect"
        )
        return f"{active}: {verbs} or pass {turn}"
    if isinstance(top, Phase):
        return f"{active}: the next step of the {state.action} action, or done {turn}"
    if isinstance(top, Extending):
        return f"{active}: discard a Zap card to extend the {state.action} action, or end {turn}"
    if isinstance(top, Extra):
        return f"{active}: the extra {top.action} step of an extension {turn}"
    if isinstance(top, Immediate):
        return f"{who}: an immediate {top.action} (Zap card), or pass {turn}"
    if isinstance(top, Scavenge):
        return f"{who}: a free research roll from an alien wreck (Underground Resistance), or pass {turn}"
    if isinstance(top, Releasing):
        return f"{who}: choose a controlled ship to release (Mind Control) {turn}"
    return f"{who}: {top.kind} {turn}"


def _window_words(window: ZapWindow) -> str:
    """Returns what a Zap window answers, in words."""
    if isinstance(window, DeclareWindow | RollWindow):
        target = "the Refuge" if window.target == "refuge" else window.target
        rolled = f", rolled {' '.join(map(str, window.dice))}" if isinstance(window, RollWindow) else ""
        return f"{window.attacker} attacks {target}{rolled}"
    if isinstance(window, SaveWindow):
        return f"{window.ship} is about to be destroyed"
    return MOMENTS.get(window.moment, window.moment)


def end_reason(state: VenusState) -> str:
    """Returns why the game ended, in one sentence ('' while it goes on)."""
    if not state.over:
        return ""
    target = population.needed(state)
    winners = population.names(state, list(state.winners_))
    if population.reached(state):
        together = " together and share the win" if len(state.winners_) > 1 else ""
        return f"{winners} reached {target} population, the number needed to win{together}."
    lead = (
        f"the leader {winners} wins" if len(state.winners_) == 1 else f"the leaders {winners} share the win"
    )
    if population.nothing_left(state):
        return f"Nobody can collect any more population (ruling B-7): {lead}."
    return f"The turn limit ({state.options['max_turns']} turns) was reached (ruling B-7): {lead}."


def score_steps(state: VenusState) -> list[ScoreStep]:
    """Returns the final scoring: each planet's collected population, each seat's total (no points:
    the planets' lines add up to scores()), then why the game ended."""
    steps = [ScoreStep(None, f"Population collected ({needed(state)} wins)")]
    for seat in range(state.players):
        sides = state.sides(seat)
        for planet in sides:
            where = "in the Secret Underground Refuge" if planet == "earth" else "on its home world"
            steps.append(
                ScoreStep(seat, f"{state.planet(planet).name}: population {where}", state.collected[planet])
            )
        won = " (winner)" if state.over and seat in state.winners_ else ""
        steps.append(ScoreStep(seat, f"{state.seat_name(seat)}: total {state.seat_population(seat)}{won}"))
    if state.over:
        steps.append(ScoreStep(None, end_reason(state)))
    return steps


def card_texts(state: VenusState) -> dict[str, str]:
    """Returns every card's text by name: the Zap deck of the content set, then the Enhanced game's
    Technology, Upgrade and Special cards, each marked with where it comes from."""
    texts: dict[str, str] = {}
    by_name: dict[str, list[int]] = {}
    for number in sorted(state.zap.cards):
        by_name.setdefault(state.card(number).name, []).append(number)
    for name, numbers in by_name.items():
        card = state.card(numbers[0])
        word = "card" if len(numbers) == 1 else "cards"
        texts[name] = f"Zap {word} {', '.join(map(str, numbers))}{_origin(card.source)}: {card.text}"
    tech = state.tech
    for planet, slots in tech.technology.items():
        for slot, tech_card in slots.items():
            owner = state.factions.planets[planet].name
            texts[tech_card.name] = (
                f"{owner}'s {slot.capitalize()} Technology{_origin(tech_card.source)}: {tech_card.text}"
            )
    for upgrade in tech.upgrades.values():
        count = tech.upgrade_cards.count(upgrade.id)
        texts[upgrade.name] = (
            f"Technology Upgrade ({count} {'copy' if count == 1 else 'copies'}, roll {upgrade.roll}+)"
            f"{_origin(upgrade.source)}: {upgrade.text}"
        )
    for special in tech.specials.values():
        owner = state.factions.planets[special.planet].name
        texts[special.name] = f"{owner}'s Special{_origin(special.source)}: {special.text}"
    return texts


def _origin(source: str) -> str:
    """Returns where a card's text comes from, for its reader: the rulebook's card sheet or house design."""
    if source.startswith("sourced"):
        return " (text from the publisher's revised card sheet)"
    if source.startswith(("house", "name sourced")):
        return " (house text: the card's printed text is not in Parlour's sources)"
    return " (from your content set)" if not source else f" ({source})"


def _is_enhanced(state: VenusState) -> bool:
    """Returns whether this is the Enhanced game."""
    return bool(state.options["game"] == "enhanced")


def ship_label(state: VenusState, ship: str) -> str:
    """Returns a ship's name as the table shows it: ``V1(Mars)`` under Mind Control, ``P1(disabled)``."""
    marks = []
    if ship in state.controlled:
        marks.append(state.planet(state.controlled[ship]).name)
    if ship in state.disabled:
        marks.append("disabled")
    return ship + (f"({', '.join(marks)})" if marks else "")


def render_text(state: VenusState, seat: int | None) -> str:
    """Returns the table on one screen: the headline, population, every occupied area with its ships and
    where they can go, supplies, Zap piles, the seat's hand and the Enhanced game's cards."""
    board = state.board
    lines = [_headline(state)]
    lines.append(
        "Collected: "
        + " · ".join(f"{state.planet(p).name} {state.collected[p]}" for p in state.planets)
        + f"   ({needed(state)} wins)"
        + _team_totals(state)
    )
    land = []
    for land_id in board.land_areas():
        sick = state.infected.get(land_id, 0)
        land.append(f"{land_id} {state.population[land_id]}" + (f"+{sick} infected" if sick else ""))
    lines.append("Population: " + "  ".join(land))
    by_area: dict[str, list[str]] = {}
    for ship, where in sorted(state.ships.items()):
        if where is not None:
            by_area.setdefault(where, []).append(ship_label(state, ship))
    lines.append(
        "Ships by area (-> where they move on to; from Earth areas, the neighbours they also attack):"
    )
    for area in board.areas:
        if area.id in by_area:
            lines.append(f"  {area.id}: {' '.join(by_area[area.id])}{_reach(state, area.id)}")
    if not by_area:
        lines.append("  none on the board")
    supply = " · ".join(f"{state.planet(p).name} {len(state.supply(p))}" for p in state.planets)
    lines.append(f"In supply: {supply}")
    lines.append(
        "Zap hand/deck: "
        + " · ".join(
            f"{state.seat_name(s)} {len(h)}/{len(state.decks[s])}" for s, h in enumerate(state.hands)
        )
    )
    shown = [f"{state.seat_name(s)} {' '.join(map(str, d))}" for s, d in enumerate(state.discards) if d]
    if shown:
        lines.append("Zap discards: " + " · ".join(shown))
    if seat is not None:
        hand = [f"{n} {state.card(n).name}" for n in sorted(state.hands[seat])]
        lines.append("Your Zap hand: " + (" · ".join(hand) or "empty"))
    lines += _enhanced_lines(state)
    if not state.earth_open and "earth" in state.planets:
        lines.append("Earth may not collect yet (no alien has attacked an Earth ship or collected).")
    return "\n".join(wrapped for line in lines for wrapped in _wrap(line))


WIDTH = 100
"""The widest line of the text board; longer lines are wrapped, indented."""


def _wrap(line: str) -> list[str]:
    """Returns a line wrapped to WIDTH characters (continuations indented)."""
    if len(line) <= WIDTH:
        return [line]
    return textwrap.wrap(line, WIDTH, subsequent_indent="    ", break_on_hyphens=False)


def _team_totals(state: VenusState) -> str:
    """Returns each team's total in the two-player team game ('' otherwise)."""
    if len(state.planets) == state.players:
        return ""
    return "; teams: " + ", ".join(
        f"{state.seat_name(s)} {state.seat_population(s)}" for s in range(state.players)
    )


def _reach(state: VenusState, area_id: str) -> str:
    """Returns where ships in an area move on to (space) or attack into (Earth areas, besides Orbit)."""
    board = state.board
    area = board.area(area_id)
    if area.kind in ("land", "ocean"):
        near = [n for n in area.neighbours if board.area(n).kind in ("land", "ocean")]
        return f"  -> {' '.join(near)}" if near else ""
    near = [n for n in area.neighbours if board.area(n).kind in ("space", "orbit")]
    if area.kind == "orbit":
        near.append("any Earth area")
    return f"  -> {' '.join(near)}" if near else ""


def _enhanced_lines(state: VenusState) -> list[str]:
    """Returns the Enhanced game's cards and markers as text, one line a planet."""
    if state.options["game"] != "enhanced":
        return []
    tech = state.tech
    lines = []
    for planet in state.planets:
        cards = [c.name for c in tech.technology[planet].values()]
        cards += [tech.upgrades[u].name for u in state.upgrades.get(planet, [])]
        pending = [tech.upgrades[u].name for u in state.pending_upgrades.get(planet, [])]
        extra = f"; from the turn's end {', '.join(pending)}" if pending else ""
        lines.append(f"{state.planet(planet).name}: {', '.join(cards)}; {tech.specials[planet].name}{extra}")
    face_up = ", ".join(f"{u} ({tech.upgrades[u].name} {tech.upgrades[u].roll}+)" for u in state.face_up)
    lines.append(f"Face-up Upgrades: {face_up or 'none'}; deck {len(state.upgrade_deck)}")
    if state.controlled:
        lines.append(
            "Mind Control: "
            + ", ".join(
                f"{s} ({state.planet(state.owner(s)).name}'s) held by {state.planet(p).name}"
                for s, p in sorted(state.controlled.items())
            )
        )
    return lines


def _headline(state: VenusState) -> str:
    """Returns the first line: whose turn, what is being decided."""
    return summary(state)
