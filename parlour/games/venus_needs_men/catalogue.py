"""Every action Venus Needs Men! can ever offer, in a fixed order: the id space for learning environments."""

from __future__ import annotations

from parlour.games.venus_needs_men.board import Board
from parlour.games.venus_needs_men.factions import Factions
from parlour.games.venus_needs_men.tech import TechSet
from parlour.games.venus_needs_men.zapdeck import ZapDeck


def action_catalogue(board: Board, factions: Factions, zap: ZapDeck, tech: TechSet) -> list[str]:
    """Returns the notation of every possible action with any home worlds (ids are positions in this list)."""
    ships = [s for p in factions.order for s in factions.planets[p].ship_ids()]
    areas = [a.id for a in board.areas if a.kind != "refuge"]
    lands = list(board.land_areas())
    upgrades = sorted(tech.upgrades)
    weapons = sorted(u for u, c in tech.upgrades.items() if c.slot == "weapon")
    actions = ["build", *(f"build {a}" for a in areas)]
    actions += [f"move {s} {a}" for s in ships for a in areas]
    # A ship under Mind Control may attack its own planet's ships: every ordered pair is listed.
    actions += [f"attack {s} {t}" for s in ships for t in ships if s != t]
    actions += [f"attack {s} {t} {w}" for s in ships for t in ships if s != t for w in weapons]
    actions += [f"attack {s} refuge" for s in ships]
    actions += [f"control {s} {t}" for s in ships for t in ships if s[0] != t[0]]
    actions += [f"collect {s}" for s in ships] + [f"collect {s} {a}" for s in ships for a in lands]
    actions += [f"infect {s}" for s in ships] + [f"purge {s}" for s in ships]
    actions += [f"research {u}" for u in upgrades] + [f"cycle {u}" for u in upgrades]
    actions += ["pass", "done", "end", *(f"extend {n}" for n in sorted(zap.cards))]
    targets = [*lands, *factions.order, *ships]
    actions += [f"zap {n}" for n in sorted(zap.cards)]
    actions += [f"zap {n} {t}" for n in sorted(zap.cards) for t in targets]
    # Added later, at the end so that earlier ids keep their meaning: infected units, releases,
    # withdrawals.
    actions += [f"collect {s} infected" for s in ships]
    actions += [f"collect {s} {a} infected" for s in ships for a in lands]
    actions += [f"release {s}" for s in ships]
    actions += ["withdraw"]  # a declared attack taken back before its roll
    return actions
