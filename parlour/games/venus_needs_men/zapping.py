"""Rulebook "Zap Cards": the windows in which they may be played, their effects, and priority.

Windows (docs/rulings/venus-needs-men.md, B-3 "Zap windows") are offered, in
order from the active seat clockwise, to every seat that could hold a card
playable there as far as the whole table knows (:func:`asked`): who is asked
never depends on hidden cards.  A play restarts the window; it closes when
everyone asked has passed, and what its moment waits for happens then (an
attack is rolled, a roll's result carried out, a threatened ship destroyed).

A window is one typed record, a class per moment (:class:`StartWindow`,
:class:`DeclareWindow`, :class:`RollWindow`, :class:`SaveWindow`,
:class:`EndWindow`), stored as the ``zap`` decision with its ``moment``.
Steps and windows call each other (an attack step opens a window, a card in a
window gives a step), so the step itself is taken here too (:func:`take_step`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar, Literal, Self

from parlour.core.decisions import Seat
from parlour.core.errors import PositionError
from parlour.core.payloads import write_record
from parlour.core.positions import check_int
from parlour.games.venus_needs_men import actions as verbs
from parlour.games.venus_needs_men import asking, combat, population, research
from parlour.games.venus_needs_men import steps as step_rules
from parlour.games.venus_needs_men.actions import (
    PASS,
    STEPS,
    WITHDRAW,
    Pass,
    ShipAction,
    VenusAction,
    Withdraw,
    Zap,
)
from parlour.games.venus_needs_men.asking import for_planet, has_targets, immediate_possible
from parlour.games.venus_needs_men.combat import REFUGE
from parlour.games.venus_needs_men.decision import VenusDecision
from parlour.games.venus_needs_men.options import DIE
from parlour.games.venus_needs_men.phases import DECLARE, END, IMMEDIATE, ROLL, SAVE, START, ZAP
from parlour.games.venus_needs_men.state import VenusState
from parlour.games.venus_needs_men.zapdeck import TARGETS, ZapCard

MAX_DICE = 6
"""More dice than any weapon rolls."""
MAX_NUMBER = 100
"""Larger than any hit number, weapon bonus or jam a legal game reaches."""
_BASE = frozenset({"seats", "concurrent"})


# ------------------------------------------------------------------ the windows
@dataclass(eq=False, kw_only=True)
class ZapWindow(VenusDecision):
    """A Zap window: the seats that could hold a card playable now by public knowledge, from the active
    seat clockwise, play a card or pass (ruling B-3)."""

    kind = ZAP
    phase = "a Zap window"
    passing = True
    moment: ClassVar[str] = ""
    """When the window opens: ``start``, ``declare``, ``roll``, ``save`` or ``end`` (ruling B-3)."""
    any_timing: ClassVar[bool] = True
    """Whether every seat may play a card of "any" timing here (:meth:`playable` says so for each)."""
    open: bool
    """Whether the seats to ask are counted: a window counts them when it comes to the top, and again
    when a card's effect is done (what the card changed may change who could answer)."""

    # ---------------------------------------------------------- the rules of every window
    def legal(self, state: VenusState, seat: Seat) -> list[VenusAction]:
        """Returns pass, and ``zap N [TARGET]`` for every card the seat may play here with every target."""
        found: list[VenusAction] = [PASS]
        for number in sorted(state.hands[seat]):
            card = state.card(number)
            if self.playable(state, seat, card):
                found += [Zap.of(number, target) for target in targets(state, seat, card)]
        return found

    def apply(self, state: VenusState, seat: Seat, action: VenusAction) -> None:
        """A pass moves the window on; a card takes effect and the window restarts."""
        if not isinstance(action, Zap):
            self.pass_seat(seat)
            return
        card = state.card(action.card)
        state.hands[seat].remove(card.number)
        state.discards[seat].append(card.number)
        state.emit(f"{state.seat_name(seat)} plays Zap card {card.number}, {card.name}{_aim(state, action)}.")
        self.play(state, seat, card, action)
        # The window restarts once the card's effect is done (it may have pushed a decision of its
        # own): the seats to ask are counted afresh when the window is on top again.
        self.open = False
        self.reopen(())

    def auto(self, state: VenusState) -> bool:
        """Counts the seats to ask when the window comes to the top; closes it when all have passed (at
        once when it asks nobody)."""
        if not self.open:
            self.open = True
            self.seats = asked(state, self)  # reopen(...), without copying the fresh list
        if self.seats:  # not is_settled
            return False
        state.stack.pop()
        self.resolve(state)
        return True

    # ---------------------------------------------------------- what each moment changes
    def playable(self, state: VenusState, seat: Seat, card: ZapCard) -> bool:
        """Returns whether ``seat`` may play ``card`` here: "at any time" cards at the turn's start and
        end, and when an attack is declared (the moment it can still be answered, ruling B-3)."""
        return card.timing == "any"

    def play(self, state: VenusState, seat: Seat, card: ZapCard, action: Zap) -> None:
        """Carries out a card's effect (pushing a decision when it needs one), telling the table."""
        effect(state, seat, card, action)

    def resolve(self, state: VenusState) -> None:
        """Carries out what the window's moment waited for, once it has closed."""

    def first_asked(self, seats: Sequence[Seat]) -> Sequence[Seat]:
        """Returns the seats the window may ask, of every seat from the active one clockwise."""
        return seats

    def always_asks(self, state: VenusState) -> Seat | None:
        """Returns a seat the window asks whatever it holds (it has a choice besides the cards), if any."""
        return None

    # ---------------------------------------------------------- positions
    @property
    def data(self) -> dict[str, object]:
        """The payload as stored: the moment first, then the moment's fields."""
        return {"moment": self.moment, **write_record(self, _BASE)}

    @classmethod
    def read(cls, data: object, path: str, seats: list[Seat], concurrent: bool) -> Self:
        """Reads a window of the moment ``data.moment`` names, refusing fields that moment has not."""
        moment = data.get("moment") if isinstance(data, dict) else None
        kind = WINDOWS.get(moment) if isinstance(moment, str) else None
        if kind is None or not isinstance(data, dict):
            raise PositionError(f"{path}.moment", f"must be one of {', '.join(WINDOWS)}")
        fields = {k: v for k, v in data.items() if k != "moment"}
        window = kind.read_record(fields, path, seats, concurrent)
        assert isinstance(window, cls)
        return window

    @classmethod
    def read_record(cls, data: dict[str, object], path: str, seats: list[Seat], concurrent: bool) -> Self:
        """Reads the fields of this moment's window (the moment itself taken off)."""
        return super().read(data, path, seats, concurrent)

    def check(self, state: VenusState, path: str) -> None:
        """Refuses a window asking seats before it has counted them, or naming what this game has not."""
        super().check(state, path)
        if not self.open and self.seats:
            raise PositionError(f"{path}.seats", "a Zap window that has not opened asks nobody yet")


@dataclass(eq=False, kw_only=True)
class StartWindow(ZapWindow):
    """The window before the action."""

    moment = START
    everyone: bool = True
    """Whether every seat may be asked (ruling B-3): on the first turn, when robots were repaired as the
    turn began, and once a card has been played in it; else the active seat alone."""

    def first_asked(self, seats: Sequence[Seat]) -> Sequence[Seat]:
        """Returns the active seat alone unless the window is open to everyone (the others were asked
        at the end of the turn before, and only the active seat's secret refill came between)."""
        return seats if self.everyone else seats[:1]

    def play(self, state: VenusState, seat: Seat, card: ZapCard, action: Zap) -> None:
        """Carries out the card; now everyone may answer it."""
        super().play(state, seat, card, action)
        self.everyone = True


@dataclass(eq=False, kw_only=True)
class EndWindow(ZapWindow):
    """The window after the action; the active player may also play its own-turn-end cards."""

    moment = END

    def playable(self, state: VenusState, seat: Seat, card: ZapCard) -> bool:
        """Returns whether ``seat`` may play ``card``: at any time, or at the end of its own turn."""
        return card.timing == "any" or (card.timing == "own-end" and seat == state.active_seat)


@dataclass(eq=False, kw_only=True)
class DeclareWindow(ZapWindow):
    """The window between an attack's declaration and its roll: "You must declare which enemy spaceship
    you are attacking before you roll the dice." """

    moment = DECLARE
    attacker: str
    target: str
    """A spaceship, or ``refuge`` (Earth's Secret Underground Refuge)."""
    weapon: str
    """The weapon named (a Q-Ray owner's Gatling Lasers), or ''."""
    cards: bool
    """Whether Technology and Special cards apply to the attack."""
    main: bool
    """Whether the attack is a step of the turn's main action (its ship may attack again if called off)."""
    answered: bool = False
    """Whether a Zap card has been played in the window: the active player may then withdraw the
    declaration (ruling A-21), and is asked whatever it holds."""

    def always_asks(self, state: VenusState) -> Seat | None:
        """Returns the active seat once a card has answered a declaration of its action (it may withdraw
        it, A-21); else nobody."""
        return state.active_seat if self.answered and self.main else None

    def legal(self, state: VenusState, seat: Seat) -> list[VenusAction]:
        """Returns pass, ``withdraw`` for the active seat once a card has answered its declaration, and
        the cards the seat may play."""
        found = super().legal(state, seat)
        if self.answered and self.main and seat == state.active_seat:
            found.insert(1, WITHDRAW)
        return found

    def apply(self, state: VenusState, seat: Seat, action: VenusAction) -> None:
        """Withdraws the declaration (A-21), passes, or plays a card (now the declaration is answered)."""
        if isinstance(action, Withdraw):
            state.stack.pop()
            state.emit(
                f"{state.seat_name(seat)} withdraws {self.attacker}'s attack on {_where(self.target)} "
                "before the roll."
            )
            _take_back(state, self.attacker)
            return
        if isinstance(action, Zap):
            self.answered = True
        super().apply(state, seat, action)

    def resolve(self, state: VenusState) -> None:
        """The attack is rolled, or called off if it no longer can be (in the action itself the ship may
        then attack again, or the action be chosen afresh: nothing is rolled yet, ruling A-21)."""
        ship, target = self.attacker, self.target
        if not combat.still_possible(state, ship, target, self.cards):
            state.emit(f"{ship}'s attack on {_where(target)} is called off.")
            if self.main:
                _take_back(state, ship)
            return
        dice, need, bonus, qray = combat.roll(state, ship, target, self.weapon, self.cards)
        state.stack.push(
            RollWindow(
                open=False,
                attacker=ship,
                target=target,
                dice=dice,
                plays=[],
                jam=0,
                need=need,
                bonus=bonus,
                qray=qray,
                cards=self.cards,
            )
        )

    def check(self, state: VenusState, path: str) -> None:
        """Refuses ships not in this game, a weapon that is no weapon Upgrade, and an answered
        declaration of anything but the turn's own action."""
        super().check(state, path)
        if self.answered and self.main and state.action != "attack":
            raise PositionError(f"{path}.data.answered", "a declaration of the action belongs to an attack")
        _ship(state, self.attacker, f"{path}.data.attacker")
        _target(state, self.target, f"{path}.data.target")
        upgrade = state.tech.upgrades.get(self.weapon)
        if self.weapon and (upgrade is None or upgrade.slot != "weapon"):
            raise PositionError(f"{path}.data.weapon", "must be '' or a weapon Upgrade (e.g. gatling)")


@dataclass(eq=False, kw_only=True)
class RollWindow(ZapWindow):
    """The window after an attack roll: the roll cards of the attacker's and the target's commanders, and
    their "any time" cards (ruling B-3)."""

    moment = ROLL
    any_timing = False
    attacker: str
    target: str
    """A spaceship, or ``refuge``."""
    dice: list[int]
    plays: list[tuple[int, Literal["hit", "miss"]]]
    """The hit and miss cards played on the roll: the highest-numbered decides (ruling B-4)."""
    jam: int
    """What Jamming takes off each die."""
    need: int
    """The number a die must reach (with the bonus) to hit."""
    bonus: int
    qray: bool
    """Whether the roll is the Q-Ray's (its own table)."""
    cards: bool

    def playable(self, state: VenusState, seat: Seat, card: ZapCard) -> bool:
        """Returns whether the seat commands the side a roll card helps: the target (miss, jam) or the
        attacker (hit); an "any time" card, whether it commands either side (the seats asked here)."""
        if card.timing == "any":
            return seat in (self._seat(state, self.target), self._seat(state, self.attacker))
        if card.timing != "roll":
            return False
        return self._seat(state, self.target if card.effect in ("miss", "jam") else self.attacker) == seat

    @staticmethod
    def _seat(state: VenusState, side: str) -> Seat:
        """Returns the seat commanding a ship (the Refuge: Earth's)."""
        return state.seat_of["earth" if side == REFUGE else state.controller(side)]

    def play(self, state: VenusState, seat: Seat, card: ZapCard, action: Zap) -> None:
        """A hit or miss card decides the roll (unless a higher one answers); Jamming lowers the dice."""
        if card.effect in ("miss", "hit"):
            self.plays.append((card.number, "hit" if card.effect == "hit" else "miss"))
            state.emit(f"The attack will {card.effect} (unless a higher-numbered card answers).")
        elif card.effect == "jam":
            self.jam += 2
            state.emit("Each die of the roll counts 2 less.")
        else:
            super().play(state, seat, card, action)

    def resolve(self, state: VenusState) -> None:
        """Carries out the result: a miss, a raid on the Refuge, or a threatened ship (Q-Ray: its table).
        A card played here may have taken the attacker or the target away: the roll then has no effect
        (ruling B-11)."""
        target = self.target
        if target != REFUGE and state.ships.get(target) is None:
            return
        if not combat.still_possible(state, self.attacker, target, self.cards):
            state.emit(f"{self.attacker}'s roll against {_where(target)} has no effect: the attack is gone.")
            return
        verdict = self.verdict()
        if self.qray:
            for ship in combat.qray(state, self.attacker, target, self.dice[0] - self.jam, verdict):
                threaten(state, ship, 0, True, self.attacker if ship == target else "")
            return
        hit = any(d + self.bonus - self.jam >= self.need for d in self.dice)
        hit = hit if verdict is None else verdict
        if not hit:
            state.emit(f"{self.attacker} misses {target}.")
        elif target == REFUGE:
            population.raid(state, state.controller(self.attacker))
        else:
            threaten(state, target, 0, self.cards, self.attacker)

    def verdict(self) -> bool | None:
        """Returns the verdict of the highest hit or miss card played on this roll, if any (B-4)."""
        return max(self.plays)[1] == "hit" if self.plays else None

    def check(self, state: VenusState, path: str) -> None:
        """Refuses ships not in this game, dice that no die shows, cards of another effect."""
        super().check(state, path)
        _ship(state, self.attacker, f"{path}.data.attacker")
        _target(state, self.target, f"{path}.data.target")
        if not 1 <= len(self.dice) <= MAX_DICE:
            raise PositionError(f"{path}.data.dice", f"must list 1 to {MAX_DICE} dice")
        for i, die in enumerate(self.dice):
            check_int(die, f"{path}.data.dice[{i}]", 1, DIE)
        for i, (number, verdict) in enumerate(self.plays):
            _card(state, number, (verdict,), f"{path}.data.plays[{i}]")
        if len({n for n, _ in self.plays}) != len(self.plays):
            raise PositionError(f"{path}.data.plays", "a Zap card is played once")
        for name in ("jam", "need", "bonus"):
            check_int(getattr(self, name), f"{path}.data.{name}", 0, MAX_NUMBER)


@dataclass(eq=False, kw_only=True)
class SaveWindow(ZapWindow):
    """The window before a ship is destroyed (by a hit or a Zap card): its commander may save it, and
    play its "any time" cards (ruling B-3)."""

    moment = SAVE
    any_timing = False
    ship: str
    cause: int
    """The destroying Zap card, or 0 for a hit."""
    saved_by: int
    """The highest saving card played, or 0."""
    cards: bool
    attacker: str = ""
    """The ship whose hit threatens (''for a Zap card, or the Q-Ray's own ship on a 1): the ship survives
    when it is out of the attacker's reach as the window closes (ruling B-11)."""

    def playable(self, state: VenusState, seat: Seat, card: ZapCard) -> bool:
        """Returns whether the seat commands the ship, and the card saves or is an "any time" card."""
        return card.timing in ("saving", "any") and state.seat_of[state.controller(self.ship)] == seat

    def play(self, state: VenusState, seat: Seat, card: ZapCard, action: Zap) -> None:
        """A saving card shields the ship (a higher-numbered destroying card still destroys it)."""
        if card.effect != "save":
            super().play(state, seat, card, action)
            return
        self.saved_by = max(self.saved_by, card.number)
        state.emit(f"{self.ship} is shielded (a higher-numbered Sabotage would still destroy it).")

    def resolve(self, state: VenusState) -> None:
        """Destroys (or disables) the ship unless a saving card beat the cause (a hit is always beaten)."""
        ship = self.ship
        if state.ships.get(ship) is None:
            return
        if self.saved_by and self.saved_by > self.cause:
            state.emit(f"{ship} is saved by Zap card {self.saved_by}.")
            return
        if self.attacker and not combat.still_possible(state, self.attacker, ship, self.cards):
            state.emit(f"{ship} escapes: {self.attacker} can no longer reach it.")
            return
        combat.wreck(state, ship, self.cards or bool(self.cause))

    def check(self, state: VenusState, path: str) -> None:
        """Refuses a ship not in this game, a cause that destroys nothing, a saver that saves nothing."""
        super().check(state, path)
        _ship(state, self.ship, f"{path}.data.ship")
        if self.attacker:
            _ship(state, self.attacker, f"{path}.data.attacker")
            if self.cause:
                raise PositionError(
                    f"{path}.data.attacker", "a ship threatened by a Zap card has no attacker"
                )
        if self.cause:
            _card(state, self.cause, ("destroy",), f"{path}.data.cause")
        if self.saved_by:
            _card(state, self.saved_by, ("save",), f"{path}.data.saved_by")


WINDOWS: dict[str, type[ZapWindow]] = {
    w.moment: w for w in (StartWindow, RollWindow, DeclareWindow, SaveWindow, EndWindow)
}
"""The window of each moment."""


def _ship(state: VenusState, value: str, path: str) -> None:
    """Refuses a name that is not a spaceship of this game."""
    if value not in state.ships:
        raise PositionError(path, f"{value[:24]!r} is not a spaceship in this game")


def _target(state: VenusState, value: str, path: str) -> None:
    """Refuses an attack's target that is neither a spaceship of this game nor the Refuge."""
    if value != REFUGE:
        _ship(state, value, path)


def _card(state: VenusState, number: int, effects: tuple[str, ...], path: str) -> None:
    """Refuses a number that is not a Zap card with one of ``effects``."""
    if number not in state.zap.cards or state.card(number).effect not in effects:
        raise PositionError(path, f"must be a Zap card with effect {' or '.join(effects)}")


# ------------------------------------------------------------------ who is asked
def order_from(state: VenusState, seat: int) -> tuple[int, ...]:
    """Returns every seat clockwise from ``seat``."""
    return _clockwise(seat, state.players)


@cache
def _clockwise(seat: int, players: int) -> tuple[int, ...]:
    """Returns (once, then shared) every seat clockwise from ``seat``."""
    return tuple((seat + i) % players for i in range(players))


def targets(state: VenusState, seat: int, card: ZapCard) -> list[str]:
    """Returns the possible targets of a card: land areas, planets or ships ('' if it needs none)."""
    need = TARGETS.get(card.effect)
    planet = for_planet(state, seat)
    if need == "area":
        return [a for a in state.board.land_areas() if state.population[a] > 0]
    if need == "planet":
        return [p for p in state.planets if state.seat_of[p] != seat]
    if need == "ship":
        return list(state.fleets.enemies(state.seat_of[planet]))
    if card.effect == "extra-turn" or card.effect.startswith("immediate"):
        return [""] if immediate_possible(state, seat, card) else []
    return [""]


def unseen(state: VenusState) -> list[int]:
    """Returns the Zap cards nobody has shown (in no discard pile): as far as the table knows, any of
    them may be in any hand."""
    shown = {c for pile in state.discards for c in pile}
    return [n for n in sorted(state.zap.cards) if n not in shown]


def _may_play_one(state: VenusState, seat: int, window: ZapWindow, kinds: list[ZapCard]) -> bool:
    """Returns whether ``seat`` holds a Zap card and a card of one of these kinds would be playable by it
    in ``window``, with a target."""
    if not state.hands[seat]:
        return False
    return any(window.playable(state, seat, card) and has_targets(state, seat, card) for card in kinds)


def unseen_kinds(state: VenusState) -> list[ZapCard]:
    """Returns a card of each kind (timing and effect) among the Zap cards nobody has shown."""
    return list(asking.unseen(state)[0])


_RULES: dict[type, tuple[int, bool, bool]] = {}
"""Each window class's :func:`~.asking.holders_asked` rule, and whether it overrides
:meth:`ZapWindow.first_asked` and :meth:`ZapWindow.always_asks` (worked out once per class)."""


def _rules(kind: type[ZapWindow]) -> tuple[int, bool, bool]:
    """Returns (and keeps) a window class's rule: which cards a seat may play (its ``playable``: the
    base's, the end window's, or its own), whether it narrows the seats asked, whether it asks a seat
    whatever it holds."""
    playable = kind.playable
    rule = (
        asking.ANY
        if playable is ZapWindow.playable
        else asking.END
        if playable is EndWindow.playable
        else asking.OWN
    )
    found = _RULES[kind] = (
        rule,
        kind.first_asked is not ZapWindow.first_asked,
        kind.always_asks is not ZapWindow.always_asks,
    )
    return found


def asked(state: VenusState, window: ZapWindow) -> list[int]:
    """Returns the seats a window asks, from the active seat clockwise: those that could hold a playable
    card by public knowledge (ruling B-3), whatever they really hold (a turn's start window: see
    :meth:`StartWindow.first_asked`), and the seat it asks whatever it holds (``always_asks``)."""
    kind = type(window)
    rule, narrows, answers = _RULES.get(kind) or _rules(kind)
    first: Sequence[int] | None = None  # every seat
    if narrows:
        if not isinstance(window, StartWindow) or kind.first_asked is not StartWindow.first_asked:
            first = window.first_asked(asking.clockwise(state))
        elif not window.everyone:  # StartWindow.first_asked, without the calls: the active seat alone
            first = (state.seat_of[state.planets[state.current]],)
    found = asking.holders_asked(
        state, first, window.any_timing, rule, window.playable if rule == asking.OWN else None
    )
    if not answers:
        return found
    always = window.always_asks(state)
    if always is None or always in found:
        return found
    return [s for s in asking.clockwise(state) if s == always or s in found]


# ------------------------------------------------------------------ effects
def _aim(state: VenusState, action: Zap) -> str:
    """Returns " on TARGET" for a card's target, in words (a planet or area by name, a ship by its name)."""
    if not action.target:
        return ""
    return f" on {state.board.area(action.target).name if state.board.has(action.target) else action.target}"


def effect(state: VenusState, seat: int, card: ZapCard, action: Zap) -> None:
    """Carries out a card's effect that needs no window of its own (pushing a decision when it needs one)."""
    planet = for_planet(state, seat)
    name = state.planet(planet).name
    kind = card.effect
    if kind in ("each-receives", "plague"):
        _everyone_receives(state, seat, action.target if kind == "each-receives" else _most_populous(state))
    elif kind == "extra-turn":
        state.extra_turns[planet] = state.extra_turns.get(planet, 0) + 1
        state.emit(f"{name} will take another turn after this one.")
    elif kind == "skip-turn":
        state.skips[action.target] = state.skips.get(action.target, 0) + 1
        state.emit(f"{state.planet(action.target).name} will skip its next turn.")
    elif kind == "destroy":
        threaten(state, action.target, card.number)
    elif kind.startswith("immediate-"):
        step = kind.split("-", 1)[1]
        state.emit(f"{state.seat_name(seat)} takes an immediate {step} step (or declines it).")
        assert step in ("move", "attack", "build", "collect")
        state.stack.push(Immediate(seats=[seat], action=step))  # type: ignore[arg-type]


def _most_populous(state: VenusState) -> str:
    """Returns the land area with the most population (the first in map order on a tie)."""
    lands = state.board.land_areas()
    return max(lands, key=lambda a: (state.population[a], -lands.index(a)))


def _everyone_receives(state: VenusState, seat: int, area: str) -> None:
    """Each seat in turn from the card's player receives one unit from ``area`` while it lasts."""
    for other in order_from(state, seat):
        if state.population[area] > 0:
            population.take(state, for_planet(state, other), area)
    population.check_win(state)


def threaten(state: VenusState, ship: str, cause: int, cards: bool = False, attacker: str = "") -> None:
    """A ship is about to be destroyed (by ``attacker``'s hit, or by Zap card ``cause``): its owner may
    save it."""
    state.stack.push(
        SaveWindow(open=False, ship=ship, cause=cause, saved_by=0, cards=cards, attacker=attacker)
    )


def _where(target: str) -> str:
    """Returns an attack's target in words (a ship's name, or the Refuge)."""
    return "the Secret Underground Refuge" if target == REFUGE else target


def _take_back(state: VenusState, ship: str) -> None:
    """Takes a declared step of the turn's action back: the ship has not acted (when no other step has
    been taken, the ``attacking`` phase gives the action's choice back, ruling A-21)."""
    if ship in state.acted:
        state.acted.remove(ship)


# ------------------------------------------------------------------ steps
def take_step(state: VenusState, planet: str, action: VenusAction, mode: str) -> None:
    """Does what a step says (an attack declares its target: its window opens before the roll)."""
    if type(action) is verbs.Move:  # the commonest step first (no step's class derives from another's)
        step_rules.move(state, action)
        return
    cards = step_rules.cards_apply(state, mode)
    if isinstance(action, verbs.Build):
        step_rules.build(state, planet, action, step_rules.build_count(state, planet, mode))
    elif isinstance(action, verbs.Attack):
        _declare(state, action.ship, action.target, action.weapon, cards, mode == step_rules.MAIN)
    elif isinstance(action, verbs.Control):
        combat.control(state, action.ship, action.target)
    elif isinstance(action, verbs.Collect):
        area = action.area or state.ships[action.ship] or ""
        main = cards and mode == step_rules.MAIN
        population.collect(state, planet, action.ship, area, main, action.infected)
    elif isinstance(action, verbs.Infect):
        population.infect(state, action.ship)
    elif isinstance(action, verbs.Purge):
        population.purge(state, planet, action.ship)
    elif isinstance(action, verbs.Research):
        research.attempt(state, planet, action.upgrade, cards)


def _declare(state: VenusState, ship: str, target: str, weapon: str, cards: bool, main: bool) -> None:
    """Declares an attack: "You must declare which enemy spaceship you are attacking before you roll the
    dice." A Zap window opens between the declaration and the roll (ruling B-3, moment ``declare``)."""
    if state.logging:
        name = state.planet(state.controller(ship)).name
        state.emit(f"{ship} ({name}) declares an attack on {_where(target)}.")
    state.stack.push(
        DeclareWindow(open=False, attacker=ship, target=target, weapon=weapon, cards=cards, main=main)
    )


@dataclass(eq=False, kw_only=True)
class Immediate(VenusDecision):
    """An immediate-action card's step, taken by the card's player in the middle of a turn with any of
    its planets and ships (or declined)."""

    kind = IMMEDIATE
    phase = "an immediate action"
    action: Literal["move", "attack", "build", "collect"]
    """The card's step."""

    def legal(self, state: VenusState, seat: Seat) -> list[VenusAction]:
        """Returns pass and the step for any of the seat's planets and ships."""
        found: list[VenusAction] = [PASS]
        for side in state.sides(seat):
            found += step_rules.steps(state, self.action, side, state.fleet(side), step_rules.IMMEDIATE)
        return found

    def apply(self, state: VenusState, seat: Seat, action: VenusAction) -> None:
        """Takes the step (or declines it)."""
        if isinstance(action, Pass):
            state.emit(f"{state.seat_name(seat)} declines the {self.phase}.")
            state.stack.pop()
            return
        planet = self._actor(state, seat, action)
        state.stack.pop()
        take_step(state, planet, action, step_rules.IMMEDIATE)

    @staticmethod
    def _actor(state: VenusState, seat: int, action: VenusAction) -> str:
        """Returns the planet taking the step: the ship's commander, or for a build the home world's."""
        if isinstance(action, ShipAction):
            return state.controller(action.ship)
        if isinstance(action, verbs.Build):
            # An immediate build names where: a home world (its planet) or Earth's land.
            home = state.board.area(action.area)
            return home.planet if home.kind == "home" and home.planet else "earth"
        kind = STEPS[type(action)]
        return next(
            p
            for p in state.sides(seat)
            if step_rules.has_steps(state, kind, p, state.fleet(p), step_rules.IMMEDIATE)
        )

    def check(self, state: VenusState, path: str) -> None:
        """Refuses an immediate step asking anyone but the one seat that played the card."""
        super().check(state, path)
        if len(self.seats) != 1:
            raise PositionError(f"{path}.seats", "an immediate action asks the seat that played the card")


__all__ = ["END", "START", "ZapWindow", "asked", "take_step"]
