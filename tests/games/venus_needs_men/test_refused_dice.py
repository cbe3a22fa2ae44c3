"""A die the table enters outside the die is refused and the whole state is put back (GameState._restore),
also when the state class is compiled as a native class whose fields live outside ``__dict__``."""

from __future__ import annotations

import json

import pytest

from parlour.core.errors import IllegalActionError

from .scenario import load, play


def test_a_bad_entered_die_leaves_every_field_of_the_state_as_it_was() -> None:
    """Mars's M1 attacks V1 in Orbit with no Zap card anywhere: the roll asks the table, which answers 0."""
    state = load(ships={"V1": "orbit", "M1": "orbit"}, active="mars", hands={}, decks={})
    before = json.dumps(state.to_position(), sort_keys=True)
    acted, applied = list(state.acted), state.actions_applied
    state.chance.ask = lambda low, high: 0
    with pytest.raises(IllegalActionError, match=r"outside 1\.\.10"):
        play(state, "attack M1 V1")
    assert json.dumps(state.to_position(), sort_keys=True) == before
    assert (state.acted, state.actions_applied, state.action) == (acted, applied, "")
    state.chance.ask = None
    play(state, "attack M1 V1")  # the same action plays once the dice are the generator's
    assert state.actions_applied == applied + 1
