"""The checks a mutated input must pass: a clean one-line refusal, or a state that plays without error."""

from __future__ import annotations

import json
import random
from typing import Any

from parlour.core.errors import IllegalActionError, PositionError
from parlour.core.game import Game
from parlour.core.state import GameState

REFUSED, ACCEPTED = "refused", "accepted"
MAX_MESSAGE = 400
"""The longest refusal message accepted as "one line"."""


def _fingerprint(data: Any) -> str:
    """Returns a text that changes whenever ``data`` changes (it may hold values JSON cannot write)."""
    return repr(data)


def _position(state: GameState) -> str:
    """Returns the state's position as canonical JSON text."""
    return json.dumps(state.to_position(), sort_keys=True)


def check_message(err: Exception) -> None:
    """A refusal is one short line that says what was wrong."""
    text = str(err)
    assert text and "\n" not in text and len(text) <= MAX_MESSAGE, f"not a one-line message: {text[:600]!r}"


def check_position(
    game: Game, data: Any, max_actions: int | None = None, rng: random.Random | None = None
) -> str:
    """Loads ``data``; returns ``"refused"`` (a clean PositionError) or ``"accepted"`` (after play checks).

    An accepted state must be playable: deciders while not over, legal actions for each, views for
    every seat and spectators, a position that reloads to itself, and every legal action (at most
    ``max_actions`` of each seat, sampled) applied to a copy without any error but a clean refusal
    that leaves the copy unchanged.  The caller's ``data`` is never changed, and the state never
    shares objects with it.
    """
    before = _fingerprint(data)
    try:
        state = game.state_from_position(data)
    except PositionError as err:
        check_message(err)
        assert _fingerprint(data) == before, "refusing a position changed the caller's data"
        return REFUSED
    assert _fingerprint(data) == before, "loading a position changed the caller's data"
    exercise(game, state, max_actions, rng or random.Random(0))
    # Playing on the loaded state must not reach back into the caller's data.
    if not state.is_over():
        seat = state.deciders()[0]
        try:
            state.apply(state.legal_actions(seat)[0], seat)
        except IllegalActionError as err:
            check_message(err)
    assert _fingerprint(data) == before, "playing on a loaded state changed the caller's data"
    return ACCEPTED


def exercise(game: Game, state: GameState, max_actions: int | None, rng: random.Random) -> None:
    """Runs every query of the protocol on a state, and applies its legal actions to copies."""
    state.scores()
    state.ranking()
    state.invariant_errors()
    for seat in [*range(state.players), None]:
        state.render(seat)
        json.dumps(state.observation(seat) if seat is not None else state.public_observation())
    text = _position(state)
    assert _position(game.state_from_position(json.loads(text))) == text, "the position did not round-trip"
    if state.is_over():
        assert not state.deciders(), "a finished game still asks a seat"
        return
    deciders = state.deciders()
    assert deciders, "nobody may act, yet the game is not over"
    for seat in deciders:
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is asked but has no legal action"
        chosen = legal if max_actions is None or len(legal) <= max_actions else rng.sample(legal, max_actions)
        for action in chosen:
            assert state.parse_action(state.format_action(action)) == action, f"{action} does not round-trip"
            _apply_to_copy(state, action, seat)


def _apply_to_copy(state: GameState, action: Any, seat: int) -> None:
    """Applies a legal action to a copy; then the copy must still be playable."""
    copy = state.clone()
    before = _position(copy)
    try:
        copy.apply(action, seat)
    except IllegalActionError as err:
        # Only a forced chance outcome may be refused mid-action, and then nothing changed.
        check_message(err)
        assert state.chance.forced, f"legal {action} was refused: {err}"
        assert _position(copy) == before, f"refusing {action} changed the state"
        return
    if copy.is_over():
        return
    deciders = copy.deciders()
    assert deciders, f"after {action} nobody may act, yet the game is not over"
    for other in deciders:
        assert copy.legal_actions(other), f"after {action} seat {other} is asked but has no legal action"
