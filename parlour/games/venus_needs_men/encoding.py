"""Action catalogue and observation tensor of Venus Needs Men! for learning environments."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.core.encoding import Encoding, game_state, owner_block, seat_block
from parlour.core.features import Features
from parlour.core.state import GameState
from parlour.games.venus_needs_men.board import load_board
from parlour.games.venus_needs_men.catalogue import action_catalogue
from parlour.games.venus_needs_men.factions import load_factions
from parlour.games.venus_needs_men.game_state import VenusGameState
from parlour.games.venus_needs_men.options import DIE
from parlour.games.venus_needs_men.tech import load_tech
from parlour.games.venus_needs_men.views import EnhancedView
from parlour.games.venus_needs_men.zapdeck import ZapDeck


def encoding(zap: ZapDeck, players: int, options: Mapping[str, object]) -> Encoding:
    """Returns Venus Needs Men!'s encoding for a table of ``players`` with this Zap deck and options."""
    board, factions, tech = load_board(), load_factions(), load_tech()
    order = list(factions.order)
    ships = [s for p in order for s in factions.planets[p].ship_ids()]
    areas = [a.id for a in board.areas if a.kind != "refuge"]
    lands = list(board.land_areas())
    upgrades = sorted(tech.upgrades)
    numbers = sorted(zap.cards)
    kinds = ["zap", "act", "moving", "attacking", "collecting", "extend", "extra", "immediate", "scavenge"]
    total = float(board.total(str(options["length"])))

    def encode(state: GameState, seat: int) -> Features:
        obs = game_state(state, VenusGameState).observation(seat)
        f = Features()
        f.one_hot("decision", obs["decision"], kinds)
        f.one_hot("window", (obs["window"] or {}).get("moment"), ["start", "roll", "save", "end"])
        f.scalar("I may act", seat in obs["deciders"])
        f.one_hot("active planet", obs["active"], order)
        for planet in order:
            owner = obs["seat_of"].get(planet)
            owner_block(f, f"seat of {planet}", owner, seat, players)
        index = {a: i for i, a in enumerate(areas)}
        f.one_hots("area of each ship", [index.get(obs["ships"].get(s) or "", -1) for s in ships], len(areas))
        f.flags("population", (obs["population"][a] for a in lands), 40)
        f.flags("collected", (obs["collected"].get(p, 0) for p in order), total)
        f.scalar("needed", obs["needed"], total)
        f.scalar("earth open", obs["earth_open"])
        hand = obs["hand"] or []
        f.flags("my Zap hand", (n in hand for n in numbers))
        seat_block(f, "Zap hand sizes", obs["hand_sizes"], seat, 3)
        seat_block(f, "Zap deck sizes", obs["deck_sizes"], seat, 18)
        played = {n for pile in obs["discards"] for n in pile}
        f.flags("Zap cards played", (n in played for n in numbers))
        f.one_hot("action", obs["action"], ["build", "move", "attack", "collect", "research"])
        f.flags("acted", (s in obs["acted"] for s in ships))
        f.scalar("extended", obs["extended"], 3)
        _enhanced(f, obs["enhanced"] or BASIC, order, ships, lands, upgrades)
        return f

    # Shuffled: home worlds (planets=random), the Zap cards and the Upgrade cards; rolled: the die.
    shuffled = (*order, *map(str, numbers), *upgrades)
    return Encoding(action_catalogue(board, factions, zap, tech), encode, shuffled, DIE)


BASIC = EnhancedView(
    technology={},
    specials={},
    upgrades={},
    pending_upgrades={},
    face_up=[],
    upgrade_deck_size=0,
    upgrade_discard=[],
    controlled={},
    disabled=[],
    infected={},
    cycled=False,
    seized=[],
)
"""The Enhanced block of a Basic game: nothing held, no Upgrade piles (its features all zeros)."""


def _enhanced(
    f: Features,
    ext: EnhancedView,
    order: list[str],
    ships: list[str],
    lands: list[str],
    upgrades: list[str],
) -> None:
    """Appends the Enhanced game's block (all zeros in the Basic game)."""
    held, pending = ext["upgrades"], ext["pending_upgrades"]
    for planet in order:
        f.flags(f"upgrades of {planet}", (u in held.get(planet, []) for u in upgrades))
        f.flags(f"pending upgrades of {planet}", (u in pending.get(planet, []) for u in upgrades))
    f.flags("face-up upgrades", (ext["face_up"].count(u) for u in upgrades), 2)
    f.scalar("upgrade deck", ext["upgrade_deck_size"], 16)
    controlled, disabled = ext["controlled"], ext["disabled"]
    for planet in order:
        f.flags(f"controlled by {planet}", (controlled.get(s) == planet for s in ships))
    f.flags("disabled", (s in disabled for s in ships))
    f.flags("infected", (ext["infected"].get(a, 0) for a in lands), 40)
