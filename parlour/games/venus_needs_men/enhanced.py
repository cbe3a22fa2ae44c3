"""The Enhanced game's numbers for one ship or planet: weapons, defenses, movement, builds, research.

Technology cards "are always in effect"; Upgrades in effect join them (an upgrade
is used where it is better, ruling A-12(iv)); Specials belong to the planet.  A
controlled ship uses its own planet's cards, never its Special (Mind Control).
"""

from __future__ import annotations

from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.tech import Loadout, TechCard

BASIC = TechCard("basic", "Basic attack", "weapon", "two dice, 8 or more", dice=2)
"""The Basic game's attack (and an extended attack under the rulebook's reading, ruling A-01)."""
BASIC_DEFENSE = 8


def is_enhanced(state: VenusState) -> bool:
    """Returns whether this is the Enhanced game."""
    return state.enhanced


def cards_of(state: VenusState, planet: str, slot: str) -> list[TechCard]:
    """Returns a planet's Technology card and Upgrades in effect for one slot."""
    return list(in_effect(state, planet, slot))


def in_effect(state: VenusState, planet: str, slot: str) -> tuple[TechCard, ...]:
    """Returns :func:`cards_of` as a tuple (the rules' hot paths read it without copying)."""
    return state.tech.in_effect(planet, slot, tuple(state.upgrades.get(planet, ())))


def loadout(state: VenusState, planet: str) -> Loadout:
    """Returns what a planet's Technology cards and Upgrades in effect give (moves, reach, builds...):
    :meth:`VenusState.loadout`, read without a Python call once the state keeps it."""
    found = state._loadouts.get(planet)
    return found if found is not None else state.loadout(planet)


def special(state: VenusState, planet: str) -> str:
    """Returns the id of the planet's Special ('' outside the Enhanced game, or for a planet not in play)."""
    if not state.enhanced or planet not in state.seat_of:
        return ""
    return state.tech.specials[planet].id


def has_special(state: VenusState, planet: str, special: str) -> bool:
    """Returns whether the planet is in play with this Special (Enhanced game only)."""
    return state.enhanced and planet in state.seat_of and state.tech.specials[planet].id == special


def weapons(state: VenusState, ship: str) -> list[TechCard]:
    """Returns the weapons a ship may use: its planet's Weapon card and weapon Upgrades."""
    return cards_of(state, state.owner(ship), "weapon")


def terrain(state: VenusState, area: str) -> str:
    """Returns ``space`` (planets and Orbit too, ruling A-04), ``land`` or ``ocean``."""
    kind = state.board.area(area).kind
    return kind if kind in ("land", "ocean") else "space"


def defense(state: VenusState, ship: str) -> int:
    """Returns a ship's defense where it stands (the best of its planet's cards)."""
    where = state.ships[ship]
    assert where is not None
    return max(c.defense[terrain(state, where)] for c in in_effect(state, state.owner(ship), "defense"))


def hit_chance(card: TechCard, target: int) -> float:
    """Returns the chance that a weapon's dice reach ``target`` (dice 1–10 plus its bonus)."""
    need = max(1, target - card.bonus)
    miss = min(1.0, max(0.0, (need - 1) / 10))
    return 1 - miss**card.dice


def best_weapon(state: VenusState, ship: str, target: int) -> TechCard:
    """Returns the ship's dice weapon most likely to reach ``target`` (Q-Ray excluded)."""
    dice = [c for c in weapons(state, ship) if not c.qray]
    return max(dice, key=lambda c: (hit_chance(c, target), c.id)) if dice else BASIC


def moves_per_ship(state: VenusState, ship: str) -> int:
    """Returns how many areas a ship may move in a move action."""
    return loadout(state, state.owner(ship)).moves


def build_count(state: VenusState, planet: str) -> int:
    """Returns the ships one build action makes (Amphibious 2, Automated Assembly one more)."""
    count = 2 if has_special(state, planet, "amphibious") else 1
    return count + loadout(state, planet).extra_build


def launches(state: VenusState, planet: str) -> bool:
    """Returns whether new ships may go next to the home world (Quality Control)."""
    return loadout(state, planet).launch


def held(state: VenusState, planet: str) -> set[str]:
    """Returns the ids of a planet's cards in effect and of the Upgrades it acquired this turn."""
    have = set(loadout(state, planet).held)
    have.update(state.pending_upgrades.get(planet, ()))
    return have


def researchable(state: VenusState, planet: str, upgrade: str, have: set[str] | None = None) -> bool:
    """Returns whether the planet may try for an Upgrade: no duplicate, nothing that obsoletes it
    (``have``: the planet's :func:`held` cards, when the caller has them)."""
    card = state.tech.upgrades[upgrade]
    if have is None:
        have = held(state, planet)
    if upgrade in have or not have.isdisjoint(card.duplicates):
        return False
    if card.id == "gatling" and loadout(state, planet).qray:
        # Gatling Lasers' text: with the Q-Ray it is not obsoleted by Auto Fire Control or Energy Amplifier.
        return have.isdisjoint(set(card.obsoleted_by) - {"autofire", "amplifier"})
    return have.isdisjoint(card.obsoleted_by)


def why_not_researchable(state: VenusState, planet: str, upgrade: str) -> str:
    """Returns why the planet may not try for an Upgrade ('' if it may): "You may not attempt to acquire
    an upgrade which duplicates or is obsoleted by a card you already have"."""
    card = state.tech.upgrades[upgrade]
    held = [c for slot in ("weapon", "defense", "movement", "build") for c in cards_of(state, planet, slot)]
    held += [state.tech.upgrades[u] for u in state.pending_upgrades.get(planet, [])]
    name = state.planet(planet).name
    if any(c.id == upgrade for c in held):
        return f"{name} already has {card.name}"
    dupes = [c.name for c in held if c.id in card.duplicates]
    if dupes:
        return f"{card.name} duplicates {name}'s {', '.join(dupes)}"
    blockers = set(card.obsoleted_by)
    if card.id == "gatling" and any(c.qray for c in weapons_of_planet(state, planet)):
        blockers -= {"autofire", "amplifier"}
    obsolete = [c.name for c in held if c.id in blockers]
    if obsolete:
        return f"{card.name} is obsoleted by {name}'s {', '.join(obsolete)}"
    return ""


def weapons_of_planet(state: VenusState, planet: str) -> list[TechCard]:
    """Returns a planet's weapons."""
    return cards_of(state, planet, "weapon")
