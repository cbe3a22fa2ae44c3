"""Issue 35: the kit catches a ``determinize`` that re-deals nothing and a ``clone`` that drops the count
of actions applied (broken variants of Embers, built here), and every real game passes those checks."""

from __future__ import annotations

import random
from typing import Any, TypeVar, cast

import pytest

from parlour.core.chance import Chance
from parlour.core.registry import game_names, load_game
from parlour.games.embers import EmbersGame, EmbersGameState
from parlour.testing import kit

S = TypeVar("S", bound=EmbersGameState)


def rebuild(kind: type[S], state: EmbersGameState) -> S:
    """Returns a copy of ``state`` as a state of class ``kind`` (same count of actions applied)."""
    found = kind.__new__(kind)
    vars(found).update(vars(state.clone()))
    return found


class Unchanged(EmbersGameState):
    """Embers whose ``determinize`` returns the state unchanged: a copy, even its generator."""

    def determinize(self, seat: int, rng: random.Random) -> Unchanged:
        """Re-deals nothing."""
        return self.clone()


class FreshOnly(EmbersGameState):
    """Embers whose ``determinize`` takes a fresh generator but re-deals no card."""

    def determinize(self, seat: int, rng: random.Random) -> FreshOnly:
        """Re-deals nothing; the future draws differ."""
        copy = self.clone()
        copy.chance = self.chance.fresh(rng)
        return copy


class Forgetful(EmbersGameState):
    """Embers whose ``clone`` drops the count of actions applied (as a hand-written one may)."""

    def clone(self) -> Forgetful:
        """Returns a copy that counts no action applied."""
        copy = EmbersGameState.clone(self)
        copy.actions_applied = 0
        return copy


class Broken(EmbersGame):
    """Embers dealing (and loading) states of a broken class."""

    def __init__(self, kind: type[EmbersGameState]) -> None:
        self.kind = kind

    def deal(
        self, players: int, seed: int, options: dict[str, object], chance: Chance | None
    ) -> EmbersGameState:
        """Returns the deal as a state of the broken class."""
        return rebuild(self.kind, super().deal(players, seed, options, chance))

    def read(self, data: object, options: dict[str, Any]) -> EmbersGameState:
        """Returns the position as a state of the broken class."""
        return rebuild(self.kind, super().read(data, options))


@pytest.mark.parametrize("kind", [Unchanged, FreshOnly])
def test_the_kit_fails_a_determinize_that_redeals_nothing(kind: type[EmbersGameState]) -> None:
    """The whole kit on the broken Embers fails, naming the re-deal; the real Embers passes."""
    kit.check_game(EmbersGame(), 3, range(1))
    with pytest.raises(AssertionError, match="no determinisation re-dealt anything"):
        kit.check_game(Broken(kind), 3, range(1))


def test_the_kit_fails_a_clone_that_drops_the_count_of_actions_applied() -> None:
    """Along a playout, the copies must count the actions applied; and a copy of a state that has
    counted some must count as many (check_clone_is_exact)."""
    with pytest.raises(AssertionError, match="a clone counts 0 actions applied"):
        kit.check_game(Broken(Forgetful), 3, range(1))
    live = Broken(Forgetful).new_state(3, 0)
    kit.check_clone_is_exact(live)  # nothing applied yet: nothing to lose
    seat = live.deciders()[0]
    live.apply(live.legal_actions(seat)[0], seat)
    with pytest.raises(AssertionError, match="a clone counts 0 actions applied, the original 1"):
        kit.check_clone_is_exact(live)


def end_windows(seeds: range) -> list[EmbersGameState]:
    """Returns, from random two-player games of Embers, the states where every card but the ember in
    play is played or taken and the last seat is asked to answer: nobody holds a card, nothing is
    hidden, so a re-deal has nothing to change."""
    found: list[EmbersGameState] = []

    def keep(state: Any, step: int) -> None:
        if not state.is_over() and not state.draw and not any(state.hands):
            found.append(rebuild(Unchanged, state))

    for seed in seeds:
        kit.playout(EmbersGame(), 2, seed, None, keep)
    return found


def test_the_redeal_check_asks_nothing_of_states_without_hidden_cards() -> None:
    """States where no seat holds a card pass even with a determinize that re-deals nothing; a state
    with cards in hand, added to them, fails."""
    quiet = end_windows(range(5))
    assert quiet
    rng = random.Random(0)
    kit.check_determinize_redeals(quiet, rng)
    dealt = rebuild(Unchanged, cast(EmbersGameState, EmbersGame().new_state(2, 0)))
    with pytest.raises(AssertionError, match="seat 0: no determinisation re-dealt anything in 1 states"):
        kit.check_determinize_redeals([*quiet, dealt], rng)


@pytest.mark.parametrize("name", game_names())
def test_every_game_redeals_what_a_seat_has_not_seen_and_clones_exactly(name: str) -> None:
    """On states along random games of every registered game at its smallest and next table sizes,
    determinisations re-deal and copies are exact (the conformance kit runs both too)."""
    game = load_game(name)
    rng = random.Random(1)
    for players in {game.min_players, min(game.min_players + 1, game.max_players)}:
        states = [
            s for seed in range(2) for s in kit.states_along(game, players, seed, 5, game.quick_options)
        ]
        kit.check_determinize_redeals(states, rng)
        for state in states:
            kit.check_clone_is_exact(state)


def test_the_kit_s_malformed_inputs_are_game_neutral() -> None:
    """No fixed malformed input starts with a verb of any registered game (Venture's ``take`` and
    ``pay`` were among them); the verb-shaped ones come from the state at hand (``kit.malformed``)."""
    verbs = set()
    for name in game_names():
        game = load_game(name)
        catalogue = game.encoding(game.min_players, game.options()).catalogue
        verbs |= {text.split(" ")[0] for text in catalogue}
    assert {"take", "pay", "play", "douse", "offer"} <= verbs
    assert not [text for text in kit.MALFORMED if text.split(" ")[0] in verbs]
    state = EmbersGame().new_state(3, 0)
    first = state.format_action(state.legal_actions(0)[0])
    assert kit.malformed(state) == [*kit.MALFORMED, f"{first} xyzzy", "play \x00"]
