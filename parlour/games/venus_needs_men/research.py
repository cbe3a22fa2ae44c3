"""Rulebook "Research Action" (Enhanced game): the face-up Upgrades, the roll, and taking effect."""

from __future__ import annotations

from parlour.games.venus_needs_men import enhanced as tech
from parlour.games.venus_needs_men.options import DIE
from parlour.games.venus_needs_men.state import VenusState

FACE_UP = 3


def deal_upgrades(state: VenusState) -> None:
    """Shuffles the 16 Upgrade cards and turns three face up."""
    state.upgrade_deck = state.chance.shuffle(list(state.tech.upgrade_cards))
    state.face_up, state.upgrade_deck = state.upgrade_deck[:FACE_UP], state.upgrade_deck[FACE_UP:]


def replace(state: VenusState) -> None:
    """Turns over the top Upgrade card to fill the face-up row (an empty deck is reshuffled, A-12(iii))."""
    if not state.upgrade_deck and state.upgrade_discard:
        state.upgrade_deck = state.chance.shuffle(state.upgrade_discard)
        state.upgrade_discard = []
        state.emit("The Upgrade deck is empty: its discards are shuffled into a new deck.")
    if state.upgrade_deck:
        state.face_up.append(state.upgrade_deck.pop(0))


def cycle(state: VenusState, upgrade: str) -> None:
    """Discards a face-up Upgrade and turns over a new one (before researching)."""
    state.face_up.remove(upgrade)
    state.upgrade_discard.append(upgrade)
    state.cycled = True
    state.emit(f"{state.tech.upgrades[upgrade].name} is discarded from the face-up Upgrades.")
    replace(state)


def attempt(state: VenusState, planet: str, upgrade: str, cards: bool) -> None:
    """Rolls for an Upgrade (Earth's Resistance: two dice, the higher counts); it takes effect at turn end."""
    card = state.tech.upgrades[upgrade]
    rolls = 2 if cards and tech.has_special(state, planet, "resistance") else 1
    dice = [state.chance.roll(DIE) for _ in range(rolls)]
    if max(dice) < card.roll:
        state.emit(
            f"{state.planet(planet).name} researches {card.name}: rolls {' '.join(map(str, dice))}, "
            f"needs {card.roll}: no luck."
        )
        return
    state.face_up.remove(upgrade)
    state.pending_upgrades.setdefault(planet, []).append(upgrade)
    state.emit(
        f"{state.planet(planet).name} researches {card.name}: rolls {' '.join(map(str, dice))}: acquired "
        "(in effect at the end of the turn)."
    )
    replace(state)


def take_effect(state: VenusState) -> None:
    """Puts this turn's Upgrades into effect; an Upgrade made obsolete by a new one is discarded."""
    for planet, new in list(state.pending_upgrades.items()):
        held = state.upgrades.setdefault(planet, [])
        for upgrade in new:
            qray = any(c.qray for c in tech.weapons_of_planet(state, planet))
            for old in list(held):
                blockers = set(state.tech.upgrades[old].obsoleted_by)
                if old == "gatling" and qray:
                    blockers -= {"autofire", "amplifier"}
                if upgrade in blockers:
                    held.remove(old)
                    state.upgrade_discard.append(old)
                    state.emit(f"{state.tech.upgrades[old].name} is obsolete and discarded.")
            held.append(upgrade)
        state.upgrades_changed()
    state.pending_upgrades = {}
