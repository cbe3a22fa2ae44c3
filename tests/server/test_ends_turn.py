"""Which choices end the turn (issue 31): the view says so from the engine (each legal action tried on a
determinisation from the seat's own view), so that every game's menus can mark them."""

from __future__ import annotations

import random

from starlette.testclient import TestClient

from parlour.core.registry import load_game
from parlour.core.state import GameState
from parlour.server.views import turn_enders

from .conftest import bearer, create


def texts(state: GameState, seat: int) -> list[str]:
    return [state.format_action(a) for a in state.legal_actions(seat)]


def test_venture_discards_end_the_turn_and_take_overs_do_not() -> None:
    game = load_game("venture")
    state = game.new_state(3, 7, game.options({}))
    seat = state.deciders()[0]
    ends = turn_enders(state, seat, state.legal_actions(seat))
    legal = texts(state, seat)
    assert ends and all(t.startswith("discard ") for t in ends)
    assert {t for t in legal if t.startswith("discard ")} == set(ends)


def test_the_other_games_mark_their_turn_enders_and_only_legal_ones() -> None:
    for name in ("im-the-boss", "venus-needs-men"):
        game = load_game(name)
        state, rng, found = game.new_state(3, 5, game.options({})), random.Random(2), set()
        for _ in range(300):
            if state.is_over():
                break
            seat = state.deciders()[0]
            ends = turn_enders(state, seat, state.legal_actions(seat))
            assert set(ends) <= set(texts(state, seat))
            if ends and state.turn_player() == seat:
                found.add(ends[0].split(" ")[0])
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        assert found, name


def test_nothing_ends_the_turn_of_a_seat_whose_turn_it_is_not() -> None:
    game = load_game("venture")
    state = game.new_state(3, 7, game.options({}))
    other = next(s for s in range(3) if s != state.turn_player())
    assert turn_enders(state, other, state.legal_actions(state.turn_player())) == []


def test_the_answer_does_not_depend_on_hidden_cards() -> None:
    """Two deals that look alike to the seat (its hand, the table) get the same answer."""
    game = load_game("venture")
    state = game.new_state(3, 7, game.options({}))
    seat = state.deciders()[0]
    other = state.determinize(seat, random.Random(99))  # the others' hands and the deck dealt anew
    actions = state.legal_actions(seat)
    assert turn_enders(state, seat, actions) == turn_enders(other, seat, actions)


def test_the_view_carries_them_for_the_seat_asked_only(client: TestClient) -> None:
    made = create(client, "venture", ["human", "human"])
    views = [
        client.get(f"/api/tables/{made['table']}", headers=bearer(t)).json() for t in made["tokens"].values()
    ]
    asked = next(v for v in views if v["asked"])
    assert asked["ends_turn"] and set(asked["ends_turn"]) <= set(asked["legal"])
    assert all(v["ends_turn"] == [] for v in views if not v["asked"])
    spectator = client.get(f"/api/tables/{made['table']}", headers=bearer(made["spectator_token"])).json()
    assert spectator["ends_turn"] == []
