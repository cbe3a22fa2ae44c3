"""Observation tensors and action catalogues for each game (layouts in docs/environments.md).

Every encoder reads only ``state.observation(seat)`` — what the seat may know —
so a tensor can never carry another seat's hidden cards.  Seats are counted
clockwise from the viewer (the viewer is 0), padded to six seats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from parlour.core.game import Game
from parlour.core.state import GameState
from parlour.envs.features import Features, relative

SEATS = 6


@dataclass(frozen=True)
class Adapter:
    """What an environment needs from a game: the action catalogue and the observation encoder."""

    catalogue: list[str]
    encode: Callable[[GameState, int], Features]
    chance_names: tuple[str, ...] = ()
    """The names of every item the game shuffles (piles, placards, home worlds), for chance outcomes."""
    faces: int = 0
    """The highest number any of the game's die rolls can show."""


def _seat_block(features: Features, name: str, values: list[Any], viewer: int, scale: float) -> None:
    """Appends one number per seat, viewer first, padded to six seats."""
    players = len(values)
    ordered = [0.0] * SEATS
    for seat, value in enumerate(values):
        ordered[relative(seat, viewer, players)] = float(value or 0)
    features.flags(name, ordered, scale)


def _owner_block(features: Features, name: str, owner: int | None, viewer: int, players: int) -> None:
    """Appends a one-hot of a seat (relative to the viewer) or a final 'nobody' slot."""
    slot = SEATS if owner is None else relative(owner, viewer, players)
    features.one_hot(name, slot, range(SEATS + 1))


# ------------------------------------------------------------------ Venture
def venture(game: Game, players: int, options: dict[str, Any]) -> Adapter:
    """Returns Venture's adapter."""
    from parlour.games.venture.catalogue import action_catalogue

    deck = game.deck(options)  # type: ignore[attr-defined]
    corps = [c.name for c in deck.corporations]
    cards = sorted({r.name for r in deck.resources})
    kinds = ["turn", "place", "reorganise", "pay", "discard"]

    def encode(state: GameState, seat: int) -> Features:
        obs = state.observation(seat)
        f = Features()
        f.one_hot("decision", obs["decision"], kinds)
        f.scalar("my turn", obs["current"] == seat)
        f.scalar("turn", obs["turn"], 400)
        f.flags("center", (c in obs["center"] for c in corps))
        where: dict[str, int] = {}
        tops: set[str] = set()
        for s, stacks in enumerate(obs["holdings"]):
            for stack in stacks:
                for name in stack["cards"]:
                    where[name] = s
                tops.add(stack["cards"][-1])
        slots = [SEATS if where.get(c) is None else relative(where[c], seat, players) for c in corps]
        f.one_hots("holder of each corporation", slots, SEATS + 1)
        f.flags("top of a stack", (c in tops for c in corps))
        f.flags("hand", (obs["hand"].count(n) for n in cards), 8)
        f.flags("discard", (obs["discard"].count(n) for n in cards), 8)
        f.flags("payment", (obs["payment"].count(n) for n in cards), 8)
        _seat_block(f, "profits", obs["profits"], seat, 400)
        _seat_block(f, "holdings profit", obs["holdings_profit"], seat, 400)
        _seat_block(f, "hand sizes", obs["hand_sizes"], seat, 20)
        f.scalar("owed", obs["owed"], 100)
        f.scalar("stock", obs["stock_size"], 54)
        f.scalar("draw pile", obs["draw_size"], 60)
        return f

    # Shuffled: the corporations and the resources cards; rolled: the dealer (0 to players - 1, any table).
    return Adapter(action_catalogue(deck), encode, (*corps, *cards), game.max_players - 1)


# ------------------------------------------------------------------ I'm the Boss!
def im_the_boss(game: Game, players: int, options: dict[str, Any]) -> Adapter:
    """Returns I'm the Boss!'s adapter."""
    from parlour.games.im_the_boss.catalogue import action_catalogue, largest_proceeds

    content = game.content(options)  # type: ignore[attr-defined]
    colours = list(content.colours)
    names = sorted(set(content.cards))
    top = float(largest_proceeds(content))
    kinds = ["marker", "turn", "arrive", "limit", "bargain", "respond", "closing"]
    spaces = range(1, len(content.spaces) + 1)
    limit = float(options["negotiation_limit"])

    def encode(state: GameState, seat: int) -> Features:
        obs = state.observation(seat)
        f = Features()
        f.one_hot("decision", obs["decision"], kinds)
        f.scalar("my turn", obs["current"] == seat)
        f.scalar("I may act", seat in obs["deciders"])
        f.flags("hand", (obs["hand"].count(n) for n in names), 12)
        _seat_block(f, "hand sizes", obs["hand_sizes"], seat, 15)
        for colour in colours:
            _owner_block(f, f"placard {colour}", obs["placards"][colour], seat, players)
        _seat_block(f, "money", obs["money"], seat, 150)
        _seat_block(f, "money shown", [m is not None for m in obs["money"]], seat, 1)
        f.flags("covered", (n is not None for n in obs["covered"]))
        f.one_hot("marker", obs["marker"], spaces)
        f.scalar("dividend value", obs["dividend_value"] or 0, 10)
        f.scalar("deal cards left", len(obs["deal_cards"]), 15)
        f.scalar("draw pile", obs["draw_size"], 98)
        f.flags("discard", (obs["discard"].count(n) for n in names), 33)
        _negotiation(f, obs["negotiation"], seat, players, colours, spaces, top, limit)
        return f

    # Shuffled: the placards and the deck; rolled: the die and the first player (0 to players - 1, any table).
    faces = max(content.die, game.max_players - 1)
    return Adapter(action_catalogue(content, players), encode, (*colours, *names), faces)


def _negotiation(
    f: Features,
    nego: dict[str, Any] | None,
    seat: int,
    players: int,
    colours: list[str],
    spaces: range,
    top: float,
    limit: float,
) -> None:
    """Appends the negotiation block (all zeros when there is none)."""
    nego = nego or {}
    f.scalar("negotiating", bool(nego))
    f.one_hot("deal space", nego.get("space"), spaces)
    f.one_hot("boss", relative(nego["boss"], seat, players) if nego else None, range(SEATS))
    f.scalar("proceeds", nego.get("proceeds", 0), top)
    laid = nego.get("laid", [[] for _ in range(players)])
    for colour in colours:
        _seat_block(f, f"laid {colour}", [pile.count(colour) for pile in laid], seat, 4)
    f.flags("travelling", (c in nego.get("travelling", []) for c in colours))
    offers = {(c, s): a for c, s, a in nego.get("offers", [])}
    for colour in colours:
        _seat_block(f, f"offer {colour}", [(colour, s) in offers for s in range(players)], seat, 1)
    for colour in colours:
        _seat_block(f, f"ask {colour}", [offers.get((colour, s), 0) for s in range(players)], seat, top)
    terms = nego.get("terms", {})
    for colour in colours:
        line = terms.get(colour)
        f.one_hot(f"term seat {colour}", relative(line[0], seat, players) if line else None, range(SEATS))
    f.flags("term amounts", ((terms[c][1] if c in terms else 0) for c in colours), top)
    f.flags("terms agreed", (bool(c in terms and terms[c][2]) for c in colours))
    tips = nego.get("tips", {})
    _seat_block(f, "tips", [tips.get(str(s), [s, 0, False])[1] for s in range(players)], seat, top)
    _seat_block(f, "counted", nego.get("counted", [0] * players), seat, limit)
    f.scalar("called", bool(nego.get("called")))
    f.scalar("pending play", bool(nego.get("pending")))


# ------------------------------------------------------------------ Venus Needs Men!
def venus_needs_men(game: Game, players: int, options: dict[str, Any]) -> Adapter:
    """Returns Venus Needs Men!'s adapter."""
    from parlour.games.venus_needs_men.board import load_board
    from parlour.games.venus_needs_men.catalogue import action_catalogue
    from parlour.games.venus_needs_men.factions import load_factions
    from parlour.games.venus_needs_men.options import DIE
    from parlour.games.venus_needs_men.tech import load_tech

    board, factions, tech = load_board(), load_factions(), load_tech()
    zap = game.zap(options)  # type: ignore[attr-defined]
    order = list(factions.order)
    ships = [s for p in order for s in factions.planets[p].ship_ids()]
    areas = [a.id for a in board.areas if a.kind != "refuge"]
    lands = list(board.land_areas())
    upgrades = sorted(tech.upgrades)
    numbers = sorted(zap.cards)
    kinds = ["zap", "act", "moving", "attacking", "collecting", "extend", "extra", "immediate", "scavenge"]
    total = float(board.total(options["length"]))

    def encode(state: GameState, seat: int) -> Features:
        obs = state.observation(seat)
        f = Features()
        f.one_hot("decision", obs["decision"], kinds)
        f.one_hot("window", (obs["window"] or {}).get("moment"), ["start", "roll", "save", "end"])
        f.scalar("I may act", seat in obs["deciders"])
        f.one_hot("active planet", obs["active"], order)
        for planet in order:
            owner = obs["seat_of"].get(planet)
            _owner_block(f, f"seat of {planet}", owner, seat, players)
        index = {a: i for i, a in enumerate(areas)}
        f.one_hots("area of each ship", [index.get(obs["ships"].get(s) or "", -1) for s in ships], len(areas))
        f.flags("population", (obs["population"][a] for a in lands), 40)
        f.flags("collected", (obs["collected"].get(p, 0) for p in order), total)
        f.scalar("needed", obs["needed"], total)
        f.scalar("earth open", obs["earth_open"])
        f.flags("my Zap hand", (n in obs["hand"] for n in numbers))
        _seat_block(f, "Zap hand sizes", obs["hand_sizes"], seat, 3)
        _seat_block(f, "Zap deck sizes", obs["deck_sizes"], seat, 18)
        played = {n for pile in obs["discards"] for n in pile}
        f.flags("Zap cards played", (n in played for n in numbers))
        f.one_hot("action", obs["action"], ["build", "move", "attack", "collect", "research"])
        f.flags("acted", (s in obs["acted"] for s in ships))
        f.scalar("extended", obs["extended"], 3)
        _enhanced(f, obs["enhanced"] or {}, order, ships, lands, upgrades)
        return f

    # Shuffled: home worlds (planets=random), the Zap cards and the Upgrade cards; rolled: the die.
    shuffled = (*order, *map(str, numbers), *upgrades)
    return Adapter(action_catalogue(board, factions, zap, tech), encode, shuffled, DIE)


def _enhanced(
    f: Features,
    ext: dict[str, Any],
    order: list[str],
    ships: list[str],
    lands: list[str],
    upgrades: list[str],
) -> None:
    """Appends the Enhanced game's block (all zeros in the Basic game)."""
    held, pending = ext.get("upgrades", {}), ext.get("pending_upgrades", {})
    for planet in order:
        f.flags(f"upgrades of {planet}", (u in held.get(planet, []) for u in upgrades))
        f.flags(f"pending upgrades of {planet}", (u in pending.get(planet, []) for u in upgrades))
    f.flags("face-up upgrades", (ext.get("face_up", []).count(u) for u in upgrades), 2)
    f.scalar("upgrade deck", ext.get("upgrade_deck_size", 0), 16)
    controlled, disabled = ext.get("controlled", {}), ext.get("disabled", [])
    for planet in order:
        f.flags(f"controlled by {planet}", (controlled.get(s) == planet for s in ships))
    f.flags("disabled", (s in disabled for s in ships))
    f.flags("infected", (ext.get("infected", {}).get(a, 0) for a in lands), 40)


ADAPTERS: dict[str, Callable[[Game, int, dict[str, Any]], Adapter]] = {
    "venture": venture,
    "im-the-boss": im_the_boss,
    "venus-needs-men": venus_needs_men,
}
"""Each game's adapter by its command-line name."""
