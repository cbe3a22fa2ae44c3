"""Every game's action catalogue (the fixed id space for learning environments) holds every legal action."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from parlour.bots.registry import make_bot
from parlour.core.registry import load_game
from parlour.games.im_the_boss.catalogue import action_catalogue as boss_catalogue
from parlour.games.venture.catalogue import action_catalogue as venture_catalogue
from parlour.games.venus_needs_men.board import load_board
from parlour.games.venus_needs_men.catalogue import action_catalogue as venus_catalogue
from parlour.games.venus_needs_men.factions import load_factions
from parlour.games.venus_needs_men.tech import load_tech
from parlour.games.venus_needs_men.zapdeck import load_zap


def venture(players: int) -> list[str]:
    """Returns Venture's catalogue (the house deck)."""
    game = load_game("venture")
    return venture_catalogue(game.deck(game.options()))  # type: ignore[attr-defined]


def boss(players: int) -> list[str]:
    """Returns I'm the Boss!'s catalogue for a table size."""
    game = load_game("im-the-boss")
    return boss_catalogue(game.content(game.options()), players)  # type: ignore[attr-defined]


def venus(players: int) -> list[str]:
    """Returns Venus Needs Men!'s catalogue (any home worlds)."""
    return venus_catalogue(load_board(), load_factions(), load_zap(), load_tech())


CASES: list[tuple[str, Callable[[int], list[str]], int, dict[str, str], str]] = [
    ("venture", venture, 4, {}, "random"),
    ("venture", venture, 2, {}, "greedy"),
    ("im-the-boss", boss, 3, {}, "random"),
    ("im-the-boss", boss, 5, {}, "greedy"),
    ("venus-needs-men", venus, 2, {}, "random"),
    ("venus-needs-men", venus, 4, {"game": "enhanced"}, "greedy"),
    ("venus-needs-men", venus, 6, {"game": "enhanced"}, "random"),
]


@pytest.mark.parametrize(("name", "catalogue", "players", "options", "bot"), CASES)
def test_every_legal_action_is_in_the_catalogue(
    name: str, catalogue: Callable[[int], list[str]], players: int, options: dict[str, str], bot: str
) -> None:
    """Along whole games every legal action's notation has an id; ids are unique."""
    game = load_game(name)
    ids = catalogue(players)
    known = set(ids)
    assert len(known) == len(ids)
    for seed in range(3):
        state = game.new_state(players, seed, {**game.quick_options, **options})
        agents = [make_bot(game, bot, seed * 8 + s) for s in range(players)]
        while not state.is_over():
            seat = state.deciders()[0]
            missing = [
                state.format_action(a)
                for a in state.legal_actions(seat)
                if state.format_action(a) not in known
            ]
            assert not missing, f"{name}: {missing[:5]} have no id"
            state.apply_legal(agents[seat].choose(state, seat), seat)
