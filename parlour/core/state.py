"""The game-state protocol every game implements: deciders, legal actions, apply, views, copies."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import is_
from typing import Any, ClassVar, Generic

from typing_extensions import TypeVar

from parlour.core.chance import Chance
from parlour.core.decisions import MAX_AUTO_STEPS, DecisionStack, Seat
from parlour.core.errors import IllegalActionError
from parlour.core.notation import Action
from parlour.core.positions import JSONObject

A = TypeVar("A", bound=Action, default=Any)
"""The game's action type (generic code writes a bare ``GameState``)."""

PASS_TEXT = "pass"
"""The notation of the pass every passing window offers (see :meth:`GameState.only_pass`)."""

S = TypeVar("S", bound="GameState")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as text; ``secret`` is shown to ``seat`` alone."""

    text: str
    """What every seat and spectator is told."""
    seat: Seat | None = None
    """The seat that also sees ``secret``."""
    secret: str | None = None
    """Extra detail for ``seat`` only (e.g. which cards it drew)."""

    def for_seat(self, viewer: Seat | None) -> str:
        """Returns the text as ``viewer`` sees it (``None``: a spectator)."""
        if self.secret is not None and viewer is not None and viewer == self.seat:
            return f"{self.text} ({self.secret})"
        return self.text


def _too_many_steps() -> None:
    """Refuses a game whose automatic steps never end (more than MAX_AUTO_STEPS in a row)."""
    raise RuntimeError(f"more than {MAX_AUTO_STEPS} automatic steps in a row: a loop in the rules")


def _read_only_over(state: object, value: bool) -> None:
    """Refuses to set ``over`` on a state whose class works its end out in ``is_over()``."""
    raise AttributeError(
        f"{type(state).__name__} overrides is_over(), which says whether the game has ended:"
        " change what is_over() reads, not over"
    )


class GameState(ABC, Generic[A]):
    """A whole game in progress: the base class owns legality checks, caching and events.

    The decision on top of the stack carries the rules (``parlour.core.decisions.Decision``): by
    default ``_legal_actions`` asks it, ``_apply`` applies through it and then :meth:`settle` runs
    the steps nobody decides. A game may override the underscore hooks instead:

    * ``_legal_actions(seat)``: the one source of legality;
    * ``_apply(seat, action)``: changes the state for an action known to be legal,
      calling :meth:`emit` for events and ``self.chance`` for anything random;
    * ``scores()``, ``is_over()``, views, copies and positions.

    :meth:`apply` refuses anything not in ``legal_actions(seat)`` before touching
    the state, so a refused action leaves the state exactly as it was.

    Pitfall: ``_apply`` must not fail for a legal action.  The one exception it
    may raise is a bad *forced* chance outcome or a bad die from ``chance.ask``;
    the base class then restores the snapshot it took because the forced queue
    was non-empty or the callback was set.
    """

    game_name: str = ""
    """The game's registry name (pickling finds the game by it)."""
    players: int
    """Number of seats."""
    chance: Chance
    """The seeded generator and forced-outcome queue."""
    stack: DecisionStack
    """Pending decisions; the top one says who may act."""
    over: bool = False
    """Whether the game has ended: a game sets it as the game ends (the decision loop, :meth:`settle` and
    :meth:`deciders`, reads it on its hot path without a call); a game that would rather work the end
    out overrides :meth:`is_over` instead, and ``over`` then asks it (see ``__init_subclass__``)."""

    _stack_rules: ClassVar[bool] = True
    """Whether the class keeps the base's ``_apply`` and ``settle`` (the top decision applies, its ``auto``
    steps follow): :meth:`apply` and :meth:`apply_legal` then run them inline, without the two calls."""
    _stack_legal: ClassVar[bool] = True
    """Whether the class keeps the base's ``_legal_actions`` (the top decision's ``legal``): a list not
    cached yet is then asked of the decision directly."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Makes ``over`` ask :meth:`is_over` in a class that overrides it and keeps no ``over`` of its own
        (so the decision loop reads one flag whichever way a game says that it has ended); notes whether
        the class keeps the base's hooks, which the hot path then runs inline (``_stack_rules``)."""
        super().__init_subclass__(**kwargs)
        is_over = cls.__dict__.get("is_over")
        if is_over is not None and "over" not in cls.__dict__:
            cls.over = property(is_over, _read_only_over, doc="Whether the game has ended (``is_over()``).")  # type: ignore[assignment]
        cls._stack_rules = cls._apply is GameState._apply and cls.settle is GameState.settle
        cls._stack_legal = cls._legal_actions is GameState._legal_actions

    def __init__(self) -> None:
        self._legal_cache: dict[Seat, list[A]] = {}
        self._legal_sets: dict[Seat, frozenset[A]] = {}
        self._deciders: tuple[Seat, ...] | None = None
        self._events: list[Event] | None = None
        self._offered: tuple[Seat, list[A]] | None = None
        self.actions_applied = 0

    # ----------------------------------------------------------------- queries
    def deciders(self) -> tuple[Seat, ...]:
        """Returns the seats that may act now (empty once the game is over); cached until the next action."""
        found = self._deciders
        if found is None:
            items = self.stack._items  # the stack's own list: no method calls on this hot path
            if not items or self.over:
                found = ()
            else:
                top = items[-1]
                if top._plain_deciders:  # Decision.deciders, inline
                    seats = top.seats
                    found = (tuple(seats) if top.concurrent else (seats[0],)) if seats else ()
                else:
                    found = top.deciders()
            self._deciders = found
        return found

    def waiting(self) -> tuple[Seat, ...]:
        """Returns every seat the open decision will still ask, in order: the deciders first, then (in a
        decision that asks one seat at a time) the seats after them. Public, as who is asked is."""
        if self.is_over() or not len(self.stack):
            return ()
        return tuple(self.stack.top.seats)

    def legal_actions(self, seat: Seat | None = None) -> list[A]:
        """Returns the legal actions of ``seat`` (default: the only decider) in a stable order."""
        if type(seat) is int:  # a bool is no seat: it takes the checks below
            cached = self._legal_cache.get(seat)
            if cached is not None:  # only a seat already checked has a list
                return cached
            if 0 <= seat < self.players:
                deciders = self._deciders
                if deciders is None:
                    deciders = self.deciders()
                if seat not in deciders:
                    cached = []
                elif self._stack_legal:  # the base's _legal_actions, inline
                    cached = self.stack._items[-1].legal(self, seat)
                else:
                    cached = self._legal_actions(seat)
                self._legal_cache[seat] = cached
                return cached
        resolved = self._resolve_seat(seat, strict=False)
        if resolved is None:
            return []
        cached = self._legal_cache.get(resolved)
        if cached is None:
            cached = self._legal_actions(resolved) if resolved in self.deciders() else []
            self._legal_cache[resolved] = cached
        return cached

    def is_legal(self, action: object, seat: Seat | None = None) -> bool:
        """Returns whether ``action`` is legal for ``seat`` now."""
        resolved = self._resolve_seat(seat, strict=False)
        return resolved is not None and self._is_listed(action, resolved)

    def _is_listed(self, action: object, seat: Seat) -> bool:
        """Returns whether the action is among the seat's legal actions, or one the top decision accepts
        all the same (``Decision.accepts``).

        An action taken from ``legal_actions`` is found by identity, without hashing or comparing any
        action; another one (parsed from text) by equality, through a set built once per state.
        """
        legal = self._legal_cache.get(seat)
        if legal is None:
            legal = self.legal_actions(seat)
        if any(map(is_, legal, repeat(action))):
            return True
        try:
            if action in self._legal_set(seat):
                return True
        except TypeError:
            return False
        return seat in self.deciders() and bool(self.stack.top.accepts(self, seat, action))

    def _legal_set(self, seat: Seat) -> frozenset[A]:
        """Returns the legal actions of ``seat`` as a set (cached)."""
        found = self._legal_sets.get(seat)
        if found is None:
            found = frozenset(self.legal_actions(seat))
            self._legal_sets[seat] = found
        return found

    def _resolve_seat(self, seat: Seat | None, strict: bool) -> Seat | None:
        """Returns the acting seat: the one given, or the only decider."""
        if seat is not None:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
                raise IllegalActionError(f"there is no seat {seat} (seats are 0..{self.players - 1})")
            return seat
        deciders = self.deciders()
        if len(deciders) == 1:
            return deciders[0]
        if strict and not deciders:
            raise IllegalActionError("the game is over: no seat may act")
        if strict:
            raise IllegalActionError(f"seats {list(deciders)} may act now: say which seat acts")
        return None

    # ----------------------------------------------------------------- actions
    def apply(self, action: A, seat: Seat | None = None, *, quiet: bool = False) -> list[Event]:
        """Applies a legal action for ``seat`` and returns the events; refuses anything else. ``quiet``
        checks the action all the same but records no event (and returns none): mass simulation, where
        nobody reads the texts (:attr:`logging` is False, as in playouts)."""
        deciders = self._deciders
        if deciders is None:
            deciders = self.deciders()
        if type(seat) is not int or seat not in deciders:  # the common case: one check
            seat = self._acting(seat)
        legal = self._legal_cache.get(seat)
        # An action taken from legal_actions is found by identity here, without a call (_is_listed).
        if (legal is None or not any(map(is_, legal, repeat(action)))) and not self._is_listed(action, seat):
            raise IllegalActionError(f"{action} is not legal for seat {seat} now: {self._why(action, seat)}")
        # Forced outcomes and a manual-dice callback may be refused mid-action: keep a copy to restore.
        chance = self.chance
        snapshot = self.clone() if chance.forced or chance.ask is not None else None
        self._events = None if quiet else []
        self._offered = None
        try:
            if self._stack_rules:  # _apply and settle, inline
                self.stack._items[-1].apply(self, seat, action)
                steps = 0
                while True:
                    items = self.stack._items  # read anew: a step may replace the stack (Venture's undo)
                    if not items or self.over or not items[-1].auto(self):
                        break
                    steps += 1
                    if steps >= MAX_AUTO_STEPS:
                        _too_many_steps()
            else:
                self._apply(seat, action)
        except Exception:
            if snapshot is None:
                raise
            ask = self.chance.ask
            self._restore(snapshot)
            self.chance.ask = ask  # copies drop the callback: the table keeps rolling its own dice
            raise
        finally:
            events, self._events = self._events, None
        self._deciders = None
        offered = self._offered  # what _take_offered does, inline
        if offered is not None:
            self._offered = None
            self._legal_cache = {offered[0]: offered[1]}
            if self._legal_sets:
                self._legal_sets = {}
        elif self._legal_cache:
            self._legal_cache = {}
            if self._legal_sets:
                self._legal_sets = {}
        self.actions_applied += 1
        return events or []

    def _acting(self, seat: Seat | None) -> Seat:
        """Returns the seat that acts (the one given, or the only decider); refuses one that may not act."""
        acting = self._resolve_seat(seat, strict=True)
        assert acting is not None
        if acting not in self.deciders():
            raise IllegalActionError(f"seat {acting} may not act now (waiting for {self._waiting()})")
        return acting

    def apply_legal(self, action: A, seat: Seat) -> None:
        """Applies an action taken from ``legal_actions(seat)`` without checks or events (playouts)."""
        self._offered = None
        if self._stack_rules:  # _apply and settle, inline
            self.stack._items[-1].apply(self, seat, action)
            steps = 0
            while True:
                items = self.stack._items  # read anew: a step may replace the stack (Venture's undo)
                if not items or self.over or not items[-1].auto(self):
                    break
                steps += 1
                if steps >= MAX_AUTO_STEPS:
                    _too_many_steps()
        else:
            self._apply(seat, action)
        self._deciders = None
        offered = self._offered  # what _take_offered does, inline
        if offered is not None:
            self._offered = None
            self._legal_cache = {offered[0]: offered[1]}
            if self._legal_sets:
                self._legal_sets = {}
        elif self._legal_cache:
            self._legal_cache = {}
            if self._legal_sets:
                self._legal_sets = {}
        self.actions_applied += 1

    def _take_offered(self) -> None:
        """Forgets the legal actions cached before the action, keeping those the decision now on top
        worked out as the action settled (:meth:`offer_legal`)."""
        offered = self._offered
        if offered is not None:
            self._offered = None
            self._legal_cache = {offered[0]: offered[1]}
            if self._legal_sets:
                self._legal_sets = {}
        elif self._legal_cache:
            self._forget_legal()

    def offer_legal(self, seat: Seat, actions: list[A]) -> None:
        """Hands over ``seat``'s legal actions, just worked out by the top decision's ``auto`` as it returns
        False (so nothing changes before a seat decides) and asking that seat alone: the action being
        applied keeps them, and ``legal_actions(seat)`` returns them without working them out again. They
        must be exactly what the decision's ``legal`` returns now."""
        self._offered = (seat, actions)

    def _forget_legal(self) -> None:
        """Drops the cached deciders and legal actions after the state changed."""
        self._deciders = None
        self._legal_cache = {}
        if self._legal_sets:
            self._legal_sets = {}

    def emit(self, text: str, seat: Seat | None = None, secret: str | None = None) -> None:
        """Records an event of the action being applied (no-op in quiet playouts)."""
        if self._events is not None:
            self._events.append(Event(text, seat, secret))

    @property
    def logging(self) -> bool:
        """Whether events are being recorded (build costly texts only then)."""
        return self._events is not None

    def _waiting(self) -> str:
        """Returns a phrase naming the seats that may act."""
        deciders = self.deciders()
        return "the game is over" if not deciders else "seats " + ", ".join(map(str, deciders))

    def why_illegal(self, action: A, seat: Seat) -> str:
        """Returns why ``action`` is not legal for ``seat`` now (for messages to people)."""
        if seat not in self.deciders():
            return f"seat {seat} may not act now (waiting for {self._waiting()})"
        return self._why(action, seat)

    def _why(self, action: A, seat: Seat) -> str:
        """Returns why an action is illegal: the top decision says (games may override)."""
        if len(self.stack) and hasattr(self.stack.top, "why"):
            return str(self.stack.top.why(self, seat, action))
        return "it is not among the legal actions"

    def _restore(self: S, snapshot: S) -> None:
        """Restores every attribute from a snapshot taken by :meth:`clone`: those in the instance's
        ``__dict__`` and, for a state class compiled as a native class, its own fields (mypyc lists them
        in ``__mypyc_attrs__``; they live outside ``__dict__``)."""
        self.__dict__.update(snapshot.__dict__)
        for name in getattr(type(self), "__mypyc_attrs__", ()):
            if name != "__dict__" and hasattr(snapshot, name):
                setattr(self, name, getattr(snapshot, name))

    # ----------------------------------------------------------------- hooks
    def _legal_actions(self, seat: Seat) -> list[A]:
        """Returns the legal actions for a seat that may act (the one source of legality): the top
        decision's."""
        result: list[A] = self.stack._items[-1].legal(self, seat)  # the top decision, read directly
        return result

    def _apply(self, seat: Seat, action: A) -> None:
        """Changes the state for a legal action: the top decision applies it, then the steps nobody
        decides run (:meth:`settle`)."""
        self.stack._items[-1].apply(self, seat, action)  # the top decision, read directly
        self.settle()

    def settle(self) -> None:
        """Runs the top decision's steps nobody decides (``Decision.auto``) until a seat must act.

        Games call it after setting up a new game too. It stops when the game is over or the stack is
        empty; a game whose automatic steps never end is refused after MAX_AUTO_STEPS of them.
        """
        for _ in range(MAX_AUTO_STEPS):
            items = self.stack._items  # read anew: a step may replace the stack (Venture's undo)
            if not items or self.over or not items[-1].auto(self):
                self._deciders = None
                return
        _too_many_steps()

    def is_over(self) -> bool:
        """Returns whether the game has ended (``over``; a game may override this instead of keeping it)."""
        return self.over

    @abstractmethod
    def scores(self) -> list[float]:
        """Returns each seat's score (final once the game is over)."""

    @abstractmethod
    def clone(self: S) -> S:
        """Returns a deep, independent copy (same generator, same future)."""

    def __reduce__(self) -> tuple[Callable[[str, JSONObject], GameState], tuple[str, JSONObject]]:
        """Pickles a state as its position (the game is found by the position's ``game`` field)."""
        return (_from_position, (self.game_name, self.to_position()))

    def __deepcopy__(self: S, memo: dict[int, object]) -> S:
        """``copy.deepcopy`` is :meth:`clone` (content such as decks and boards is shared, never copied)."""
        return self.clone()

    @abstractmethod
    def determinize(self: S, seat: Seat, rng: random.Random) -> S:
        """Returns a full state consistent with what ``seat`` knows, with a fresh generator."""

    @abstractmethod
    def observation(self, seat: Seat) -> Mapping[str, object]:
        """Returns what ``seat`` may know, as JSON-able data (computed on demand)."""

    @abstractmethod
    def public_observation(self) -> Mapping[str, object]:
        """Returns what a spectator may know, as JSON-able data."""

    @abstractmethod
    def to_position(self) -> JSONObject:
        """Returns the whole state as a JSON-able position."""

    def format_action(self, action: A) -> str:
        """Returns the action's notation (an Action writes its own: ``str``)."""
        return str(action)

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Returns the action written ``text``; raises NotationError if malformed."""

    def render(self, seat: Seat | None) -> str:
        """Returns a plain-text picture of the table as ``seat`` sees it (``None``: a spectator)."""
        return str(self.observation(seat) if seat is not None else self.public_observation())

    def turns_played(self) -> int:
        """Returns how many turns have begun (every player's turns counted); 0 if a game has none."""
        return 0

    def estimate(self) -> list[float]:
        """Returns each seat's score as it would stand if the game ended now (search bots' evaluation)."""
        return self.scores()

    def routine_decision(self) -> bool:
        """Returns whether the decision on top is bookkeeping (paying, placing) search leaves to a policy."""
        return False

    def check_seat(self, seat: Seat | None) -> None:
        """Refuses a seat number that is not at this table (None, a spectator, is fine)."""
        if seat is not None and (isinstance(seat, bool) or not 0 <= seat < self.players):
            raise IllegalActionError(f"there is no seat {seat} (seats are 0..{self.players - 1})")

    def invariant_errors(self) -> list[str]:
        """Returns broken conservation invariants (every card in one place...); empty if all hold."""
        return []

    def passing_window(self) -> bool:
        """Returns whether the decision on top asks seats who may always pass (a Zap or Stop window, a
        negotiation): its class says so (``Decision.passing``)."""
        items = self.stack._items
        return bool(items) and items[-1].passing

    def only_pass(self, seat: Seat) -> bool:
        """Returns whether ``seat`` is asked in a passing window where a pass is its only legal action.

        A front end may then pass for the seat (auto-pass, a per-seat setting). Whether the seat could
        have played is its secret, so the front end must handle both cases alike as the others see
        them: the same events and display as a chosen pass, the same hand-over of a shared screen, and
        no earlier or later answer (a server applies every pass, typed or automatic, after the same
        delay). Who is asked never depends on hidden cards (``kit.check_secrecy``); auto-pass only
        saves a person the keystroke.
        """
        if seat not in self.deciders() or not self.passing_window():
            return False
        legal = self.legal_actions(seat)
        return len(legal) == 1 and self.format_action(legal[0]) == PASS_TEXT

    def reaction_cards(self) -> list[str]:
        """Returns the names of the cards of this content set that may be played in a passing window
        (public), for a person's "ask me only for these cards" setting; default: none (the game has
        no such cards, or does not name them)."""
        return []

    def playable_cards(self, seat: Seat) -> list[str]:
        """Returns the names (from :meth:`reaction_cards`) of the cards ``seat`` could play in the
        passing window open now: the seat's own secret, for its own front end and settings only."""
        return []

    def hints(self, seat: Seat) -> list[str]:
        """Returns advice lines for a human at ``seat`` (games may override)."""
        return []

    # ----------------------------------------------------------------- for people (terminal, browser)
    def seat_name(self, seat: Seat) -> str:
        """Returns how the table calls ``seat`` (Venus Needs Men!: its planet); default ``seat N``."""
        return f"seat {seat}"

    def turn_player(self) -> Seat | None:
        """Returns the seat whose turn it is (None before the first turn, after the end, or in games
        without turns); the log groups actions by it."""
        return None

    def decision_summary(self) -> str:
        """Returns one public line saying who is deciding what now (a banner); games may say more."""
        deciders = self.deciders()
        if not deciders:
            return "The game is over."
        names = ", ".join(self.seat_name(s) for s in deciders)
        kind = self.stack.top.kind if len(self.stack) else "act"
        return f"{names} to decide: {kind}"

    def score_steps(self) -> list[ScoreStep]:
        """Returns the final scoring step by step (games itemise it; default: each seat's score)."""
        return [ScoreStep(seat, "score", score) for seat, score in enumerate(self.scores())]

    def end_reason(self) -> str:
        """Returns why the game ended, in one sentence ('' while it goes on or if a game says nothing)."""
        return ""

    def card_texts(self) -> dict[str, str]:
        """Returns the text of every card this game's content set holds, by card name (for ``info``)."""
        return {}

    def table_content(self) -> JSONObject:
        """Returns the public facts that never change during the game and that a drawn table needs
        beside the observation (the map's areas and places, the board's spaces, card names by number),
        read from the content data; JSON-ready. Nothing hidden: every seat and spectator gets it."""
        return {}

    # ----------------------------------------------------------------- results
    def ranking(self) -> list[int]:
        """Returns each seat's rank (1 is best; tied seats share a rank)."""
        return rank(self.scores())

    def winners(self) -> list[Seat]:
        """Returns the seats ranked first (several on a tie: a shared win)."""
        return [s for s, r in enumerate(self.ranking()) if r == 1]

    def apply_notation(self, text: str, seat: Seat | None = None) -> list[Event]:
        """Parses and applies an action written in notation."""
        return self.apply(self.parse_action(text), seat)


@dataclass(frozen=True, slots=True)
class ScoreStep:
    """One line of a final scoring: what ``seat`` (None: the whole table) got for what."""

    seat: Seat | None
    """The seat scored (None: a heading or a remark for everyone)."""
    label: str
    """What is scored ("Oil conglomerate OI-BCD", "Mars's planet", "total")."""
    points: float | None = None
    """Points for it (None: a line without a number)."""


_LOADERS: list[Callable[[str, JSONObject], GameState]] = []
"""How a pickled state is loaded again (the registry's ``load_state``, set when ``parlour.core`` loads)."""


def register_loader(loader: Callable[[str, JSONObject], GameState]) -> None:
    """Sets how :func:`_from_position` finds a game by name (the registry calls it once)."""
    _LOADERS[:] = [loader]


def _from_position(game_name: str, position: JSONObject) -> GameState:
    """Unpickles a state from its game's name and its position (importing ``parlour.core`` registers
    the loader, so a fresh process that unpickles finds it)."""
    return _LOADERS[0](game_name, position)


def rank(scores: Sequence[float]) -> list[int]:
    """Returns competition ranks for scores (higher is better; ties share)."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]
