"""What each seat may see (observations) and the table as text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.games.venus_needs_men.state import VenusState


def observation(state: VenusState, seat: int | None) -> dict[str, Any]:
    """Returns the table as ``seat`` may know it (None: a spectator); Zap hands and decks are secret."""
    from parlour.games.venus_needs_men.population import needed

    top = state.stack.top if len(state.stack) else None
    return {
        "game": "venus-needs-men",
        "players": state.players,
        "seat": seat,
        "turn": state.turn,
        "planets": list(state.planets),
        "seat_of": dict(state.seat_of),
        "active": state.active,
        "decision": top.kind if top else None,
        "window": _window(top.data) if top is not None and top.kind == "zap" else None,
        "deciders": list(state.deciders()),
        "ships": {s: a for s, a in sorted(state.ships.items())},
        "population": dict(state.population),
        "collected": dict(state.collected),
        "needed": needed(state),
        "earth_open": state.earth_open,
        "hand": sorted(state.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "deck_sizes": [len(d) for d in state.decks],
        "discards": [list(d) for d in state.discards],
        "action": state.action,
        "acted": list(state.acted),
        "extended": state.extended,
        "skips": dict(state.skips),
        "extra_turns": dict(state.extra_turns),
        "over": state.over,
        "winners": list(state.winners_),
        "enhanced": _enhanced(state),
    }


def _enhanced(state: VenusState) -> dict[str, Any] | None:
    """Returns the Enhanced game's public parts: cards held, face-up Upgrades, control, robots, infection."""
    if state.options["game"] != "enhanced":
        return None
    tech = state.tech
    return {
        "technology": {p: {slot: c.id for slot, c in tech.technology[p].items()} for p in state.planets},
        "specials": {p: tech.specials[p].id for p in state.planets},
        "upgrades": {p: list(u) for p, u in state.upgrades.items()},
        "pending_upgrades": {p: list(u) for p, u in state.pending_upgrades.items()},
        "face_up": list(state.face_up),
        "upgrade_deck_size": len(state.upgrade_deck),
        "upgrade_discard": list(state.upgrade_discard),
        "controlled": dict(state.controlled),
        "disabled": list(state.disabled),
        "infected": dict(state.infected),
        "cycled": state.cycled,
        "seized": list(state.seized),
    }


def _window(data: dict[str, Any]) -> dict[str, Any]:
    """Returns a Zap window's public data."""
    return {k: v for k, v in data.items() if k != "open"}


def render_text(state: VenusState, seat: int | None) -> str:
    """Returns the map as a readable list, the scores and the seat's Zap hand."""
    from parlour.games.venus_needs_men.population import needed

    board = state.board
    lines = [_headline(state)]
    lines.append(
        "Population: "
        + "  ".join(f"{state.planet(p).name} {state.collected[p]}" for p in state.planets)
        + f"  (needed {needed(state)})"
    )
    by_area: dict[str, list[str]] = {}
    for ship, where in sorted(state.ships.items()):
        if where is not None:
            by_area.setdefault(where, []).append(ship)
    lines.append("Map (area: neighbours; population; ships):")
    for area in board.areas:
        if area.kind == "refuge":
            continue
        pop = f" pop {state.population[area.id]}" if area.kind == "land" else ""
        ships = " ".join(by_area.get(area.id, []))
        near = ", ".join(area.neighbours)
        lines.append(f"  {area.id:10} {area.kind:6}{pop:8} [{ships}]  -> {near}")
    supply = "  ".join(f"{state.planet(p).name}: {len(state.supply(p))}" for p in state.planets)
    lines.append(f"Ships in supply: {supply}")
    lines.append(
        "Zap cards: "
        + "  ".join(f"seat {s} hand {len(h)} deck {len(state.decks[s])}" for s, h in enumerate(state.hands))
    )
    if seat is not None:
        hand = [f"{n} {state.card(n).name}" for n in sorted(state.hands[seat])]
        lines.append("Your Zap hand: " + ("; ".join(hand) or "empty"))
    lines += _enhanced_lines(state)
    if not state.earth_open and "earth" in state.planets:
        lines.append("Earth may not collect yet (no alien has attacked an Earth ship or collected).")
    return "\n".join(lines)


def _enhanced_lines(state: VenusState) -> list[str]:
    """Returns the Enhanced game's cards and markers as text."""
    if state.options["game"] != "enhanced":
        return []
    tech = state.tech
    lines = []
    for planet in state.planets:
        cards = [c.name for c in tech.technology[planet].values()]
        cards += [tech.upgrades[u].name for u in state.upgrades.get(planet, [])]
        pending = [tech.upgrades[u].name for u in state.pending_upgrades.get(planet, [])]
        extra = f" (from the end of this turn: {', '.join(pending)})" if pending else ""
        lines.append(
            f"{state.planet(planet).name}: {', '.join(cards)}; Special {tech.specials[planet].name}{extra}"
        )
    face_up = ", ".join(f"{u} ({tech.upgrades[u].name}, {tech.upgrades[u].roll}+)" for u in state.face_up)
    lines.append(f"Face-up Upgrades: {face_up or 'none'}; deck {len(state.upgrade_deck)}")
    if state.controlled:
        lines.append("Mind Control: " + ", ".join(f"{s} by {p}" for s, p in sorted(state.controlled.items())))
    if state.disabled:
        lines.append("Disabled robots: " + " ".join(sorted(state.disabled)))
    infected = {a: n for a, n in state.infected.items() if n}
    if infected:
        lines.append("Infected population: " + ", ".join(f"{a} {n}" for a, n in infected.items()))
    return lines


def _headline(state: VenusState) -> str:
    """Returns the first line: whose turn, what is being decided."""
    if state.over:
        names = ", ".join(f"seat {s}" for s in state.winners_)
        return f"Venus Needs Men! — game over after {state.turn} turns; winner(s): {names}."
    from parlour.games.venus_needs_men.rules import PHASE_NAMES

    top = state.stack.top
    what = PHASE_NAMES.get(top.kind, top.kind)
    if top.kind == "zap":
        data = top.data
        what = f"Zap window ({data['moment']})"
        if data["moment"] == "roll":
            what += (
                f": {data['attacker']} attacks {data['target']}, rolled {' '.join(map(str, data['dice']))}"
            )
        elif data["moment"] == "save":
            what += f": {data['ship']} is about to be destroyed"
    return (
        f"Venus Needs Men! — turn {state.turn}: {state.planet(state.active).name} "
        f"(seat {state.active_seat}); "
        f"{what}; waiting for seat(s) {', '.join(map(str, state.deciders()))}."
    )
