"""The greedy bot: builds, heads for Earth, collects where it can, attacks the leader and its threats.

It reads only what its seat may know: the board, the ships, the population and
its own Zap hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from parlour.core.agents import SeededBot
from parlour.core.state import GameState
from parlour.games.venus_needs_men import steps as step_rules
from parlour.games.venus_needs_men.actions import (
    DONE,
    PASS,
    Attack,
    Build,
    Collect,
    Control,
    End,
    Extend,
    Move,
    Release,
    Research,
    VenusAction,
    Zap,
)
from parlour.games.venus_needs_men.combat import Releasing, Scavenge
from parlour.games.venus_needs_men.options import BASIC_HIT
from parlour.games.venus_needs_men.phases import END, SAVE, START
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.turns import Act, Extending, Extra, Phase
from parlour.games.venus_needs_men.zapping import DeclareWindow, Immediate, RollWindow, ZapWindow

FEW_SHIPS = 3
"""Below this many ships on the board the bot builds rather than waits."""


class Standing(NamedTuple):
    """Where a seat stands: the leader among the others, its own population and the best of the others'."""

    leader: int | None
    mine: int
    best_other: int


class GreedyBot(SeededBot):
    """Plays each decision by the simple priorities in the module docstring; seeded to break ties."""

    name = "greedy"

    def choose(self, state: GameState, seat: int) -> VenusAction:
        """Returns the bot's action for ``seat``."""
        assert isinstance(state, VenusState)
        legal = state.legal_actions(seat)
        listed = {id(a) for a in legal}  # the wishes are mostly the legal actions themselves: cheap to find
        allowed: set[VenusAction] | None = None
        for action in (*self._wishes(state, seat, legal), PASS, DONE, End()):
            if id(action) in listed:
                return action
            if allowed is None:
                allowed = set(legal)
            if action in allowed:
                return action
        return legal[0]

    def _wishes(self, state: VenusState, seat: int, legal: list[VenusAction]) -> Sequence[VenusAction]:
        """Returns the actions the bot would like, best first."""
        top = state.stack.top
        if isinstance(top, ZapWindow):
            return self._zap(state, seat, legal)
        if isinstance(top, Act):
            return self._act(state, legal)
        if isinstance(top, Phase | Extra | Immediate):
            return self._best_steps(state, seat, legal)
        if isinstance(top, Extending):
            return self._extend(state, seat, legal)
        if isinstance(top, Scavenge):
            return self._rank_research(state, [a for a in legal if isinstance(a, Research)])
        if isinstance(top, Releasing):
            # Keep the ships of the strongest rivals: release the weakest owner's ship first.
            releases = [a for a in legal if isinstance(a, Release)]
            ranked: list[Release] = sorted(
                releases, key=lambda a: (state.seat_population(state.seat_of[state.owner(a.ship)]), a.ship)
            )
            return [*ranked]
        return []

    # ------------------------------------------------------------ the action
    def _act(self, state: VenusState, legal: list[VenusAction]) -> Sequence[VenusAction]:
        """Collect if possible, else attack a worthwhile target, else build when few ships, else move."""
        planet = state.active
        collects = [a for a in legal if isinstance(a, Collect)]
        collectors = {a.ship for a in collects}
        if collects and (
            len(collectors) * 2 >= len(state.fleet(planet)) or not self._moves_help(state, planet, legal)
        ):
            return self._rank_collects(state, collects)
        attacks = self._good_attacks(state, planet, [a for a in legal if isinstance(a, Attack | Control)])
        builds = [a for a in legal if isinstance(a, Build)]
        if builds and len(state.fleet(planet)) < FEW_SHIPS:
            return self._rank_builds(state, builds)
        if attacks and len({a.ship for a in attacks}) >= len(state.fleet(planet)) / 2:
            return attacks
        moves = self._rank_moves(state, planet, [a for a in legal if isinstance(a, Move)])
        research = self._rank_research(state, [a for a in legal if isinstance(a, Research)])
        return [*moves, *research, *attacks, *builds]

    def _best_steps(self, state: VenusState, seat: int, legal: list[VenusAction]) -> Sequence[VenusAction]:
        """Continues an action (or takes an extra or immediate step) with the best remaining step."""
        planet = state.sides(seat)[0] if isinstance(state.stack.top, Immediate) else state.active
        collects = self._rank_collects(state, [a for a in legal if isinstance(a, Collect)])
        attacks = self._good_attacks(state, planet, [a for a in legal if isinstance(a, Attack | Control)])
        moves = self._rank_moves(state, planet, [a for a in legal if isinstance(a, Move)])
        builds = self._rank_builds(state, [a for a in legal if isinstance(a, Build)])
        research = self._rank_research(state, [a for a in legal if isinstance(a, Research)])
        return [*collects, *attacks, *builds, *moves, *research, DONE]

    def _extend(self, state: VenusState, seat: int, legal: list[VenusAction]) -> Sequence[VenusAction]:
        """Extends a collection (every unit counts) or an attack on a worthwhile target."""
        cards = sorted(
            (a for a in legal if isinstance(a, Extend)), key=lambda a: self._card_worth(state, a.card)
        )
        if not cards:
            return []
        planet = state.active
        fleet = state.fleet(planet)
        if state.action == "collect" and step_rules.collect_steps(state, planet, fleet):
            return [cards[0]]
        attacks = [
            a for a in step_rules.attack_steps(state, planet, fleet) if isinstance(a, Attack | Control)
        ]
        if state.action == "attack" and self._good_attacks(state, planet, attacks):
            return [cards[0]]
        return []

    # ------------------------------------------------------------ ranking steps
    def _rank_collects(self, state: VenusState, collects: list[Collect]) -> list[Collect]:
        """Collects from the most populated areas first; an infected unit when Titan is a rival (Titan's
        parasites would bring it home)."""
        seat = state.active_seat
        rival = "titan" in state.seat_of and state.seat_of["titan"] != seat
        return sorted(
            collects,
            key=lambda a: (
                -state.population.get(state.ships[a.ship] or "", 0),
                a.infected != rival,
            ),
        )

    def _moves_help(self, state: VenusState, planet: str, legal: list[VenusAction]) -> bool:
        """Returns whether some ship could improve its place by moving."""
        return bool(self._rank_moves(state, planet, [a for a in legal if isinstance(a, Move)]))

    @staticmethod
    def _rank_research(state: VenusState, actions: list[Research]) -> list[Research]:
        """Researches the easiest Upgrade first (Enhanced game)."""
        return sorted(actions, key=lambda a: (state.tech.upgrades[a.upgrade].roll, a.upgrade))

    def _rank_builds(self, state: VenusState, builds: list[Build]) -> list[Build]:
        """Earth builds where the most population is."""
        return sorted(builds, key=lambda a: -state.population.get(a.area, 0))

    def _good_attacks(
        self, state: VenusState, planet: str, attacks: list[Attack | Control]
    ) -> list[Attack | Control]:
        """Returns attacks on the leader's ships and on ships sharing an area with the bot's, best first."""
        if not attacks:
            return []
        leader = self._leader(state, state.seat_of[planet])
        fleet = state.fleet(planet)
        good = []
        for action in attacks:
            if action.target == "refuge":
                good.append((-3, action.target, action))
                continue
            target_seat = state.seat_of[state.controller(action.target)]
            where = state.ships[action.target] or ""
            # The leader's ships, and ships sharing a land area with ours (they compete for its people).
            land = state.board.area(where).kind == "land" if where else False
            near = land and any(state.ships[s] == where for s in fleet)
            score = (target_seat == leader) * 2 + near
            if score:
                good.append((-score, action.target, action))
        ranked = [a for _, _, a in sorted(good, key=lambda t: (t[0], t[1]))]
        # Mind Control first: taking a ship beats a chance of destroying it.
        controls = [a for a in attacks if isinstance(a, Control)]
        return [*controls, *(a for a in ranked if not isinstance(a, Control))]

    def _rank_moves(self, state: VenusState, planet: str, moves: list[Move]) -> list[Move]:
        """Moves that bring a ship closer to Earth, or onto the richest land with the fewest enemies."""
        values: dict[str, int] = {}

        def value(area: str) -> int:
            found = values.get(area)
            if found is None:
                found = values[area] = self._place_value(state, planet, area)
            return found

        scored = []
        for action in moves:
            here = state.ships[action.ship] or ""
            gain = value(action.area) - value(here)
            if gain > 0:
                scored.append((-gain, action.ship, action.area, action))
        return [a for *_, a in sorted(scored)]

    def _place_value(self, state: VenusState, planet: str, area: str) -> int:
        """Returns how good an area is for one of the bot's ships: near Earth, then rich and safe land."""
        board = state.board
        kind = board.area(area).kind
        if kind == "land":
            enemies = sum(
                1 for s, w in state.ships.items() if w == area and step_rules.is_enemy(state, planet, s)
            )
            return 100 + state.population[area] * 3 - enemies * 4
        if kind == "ocean":
            return 60
        if kind == "orbit":
            return 80
        distance = board.distance(area, board.orbit)
        return 60 - 10 * (distance if distance is not None else 9)

    # ------------------------------------------------------------ Zap cards
    def _zap(self, state: VenusState, seat: int, legal: list[VenusAction]) -> Sequence[VenusAction]:
        """Plays a Zap card when it clearly pays; otherwise passes."""
        window = state.stack.top
        assert isinstance(window, ZapWindow)
        moment = window.moment
        plays = [a for a in legal if isinstance(a, Zap)]
        wishes: list[VenusAction] = []
        standing: Standing | None = None
        for action in plays:
            effect = state.card(action.card).effect
            if moment == SAVE and effect == "save":
                wishes.append(action)
            elif isinstance(window, RollWindow):
                wishes += self._roll_card(state, seat, window, action, effect)
            elif isinstance(window, DeclareWindow):
                # One of its ships is attacked: Sabotage the attacker before it rolls.
                target = window.target
                mine = target != "refuge" and state.seat_of[state.controller(target)] == seat
                if mine and effect == "destroy" and action.target == window.attacker:
                    wishes.append(action)
            elif moment in (START, END):
                if standing is None:
                    standing = self._standing(state, seat)
                wishes += self._any_card(state, seat, action, effect, standing)
        return [*wishes, PASS]

    def _roll_card(
        self, state: VenusState, seat: int, window: RollWindow, action: Zap, effect: str
    ) -> Sequence[VenusAction]:
        """Evasive Maneuvers or Jamming against a hit on its ship; Targeting Computer on its own miss."""
        dice = [d + window.bonus - window.jam for d in window.dice]
        need = window.need
        if window.qray:
            need = BASIC_HIT  # The Q-Ray destroys on 8 or more (its worst for the target).
        hit = any(d >= need for d in dice)
        plays = sorted(window.plays)
        if plays:
            hit = plays[-1][1] == "hit"
        mine = window.target != "refuge" and state.seat_of[state.controller(window.target)] == seat
        top = plays[-1][0] if plays else 0
        if mine and hit and effect == "miss" and action.card > top:
            return [action]
        if mine and hit and effect == "jam" and not plays and all(d - 2 < need for d in dice):
            return [action]
        if not mine and not hit and effect == "hit" and action.card > top:
            return [action]
        return []

    def _standing(self, state: VenusState, seat: int) -> Standing:
        """Returns the leader among the other seats, the seat's population and the best of the others'."""
        populations = state.seat_populations()
        best_other = max((populations[s] for s in range(state.players) if s != seat), default=0)
        return Standing(self._leader(state, seat, populations), populations[seat], best_other)

    def _any_card(
        self, state: VenusState, seat: int, action: Zap, effect: str, standing: Standing
    ) -> Sequence[VenusAction]:
        """Cards playable at the start or end of a turn, when they help the bot more than others."""
        leader, mine, best_other = standing
        if effect == "extra-turn" or effect == "immediate-collect":
            return [action]
        if effect in ("each-receives", "plague") and mine > best_other:
            return [action]
        if effect == "skip-turn" and leader is not None and state.seat_of.get(action.target) == leader:
            return [action]
        if (
            effect == "destroy"
            and leader is not None
            and state.seat_of[state.controller(action.target)] == leader
        ):
            where = state.ships[action.target] or ""
            return [action] if state.board.area(where).kind in ("land", "orbit") else []
        if effect == "immediate-build" and seat == state.active_seat:
            return [action]
        return []

    @staticmethod
    def _card_worth(state: VenusState, number: int) -> int:
        """Returns how much the bot values keeping a card (the cheapest is discarded to extend)."""
        worth = {"extra-turn": 9, "immediate-collect": 8, "destroy": 7, "save": 6, "miss": 5, "skip-turn": 5}
        return worth.get(state.card(number).effect, 2)

    @staticmethod
    def _leader(state: VenusState, seat: int, populations: list[int] | None = None) -> int | None:
        """Returns the other seat with the most population (the first clockwise on a tie); ``populations``:
        every seat's, when the caller has them."""
        if populations is None:
            populations = state.seat_populations()
        others = [s for s in range(state.players) if s != seat]
        return max(others, key=lambda s: (populations[s], -s), default=None)


__all__ = ["END", "GreedyBot"]
