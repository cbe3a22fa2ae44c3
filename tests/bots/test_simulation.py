"""Mass simulation (parlour.bots.simulation), the bot lookup and the random bot."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.bots.random_bot import RandomBot
from parlour.bots.registry import bot_names, make_bot
from parlour.bots.simulation import (
    DEFAULT_BATCH,
    Batch,
    GameOutcome,
    _play_chunk,
    game_seed,
    play_one,
    simulate,
    wilson,
)
from parlour.bots.tournament import tournament
from parlour.core.errors import OptionError
from parlour.core.match import play_match
from parlour.core.registry import load_game
from parlour.core.state import GameState

GAME = load_game("venture")
SEATS = ["greedy", "random", "random"]
SHORT = {"max_turns": 30}
"""Games cut at 30 turns: quick, but long enough for real play."""


def without_seconds(summary: dict[str, Any]) -> dict[str, Any]:
    """Returns the summary without its wall-clock time."""
    return {k: v for k, v in summary.items() if k != "seconds"}


# ------------------------------------------------------------------ wilson
def test_wilson_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3)
    assert high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-3)
    assert wilson(10, 10)[1] == 1.0
    assert wilson(10, 10)[0] == pytest.approx(0.7225, abs=1e-3)


def test_wilson_is_symmetric_and_contains_the_rate() -> None:
    for trials in (1, 7, 40, 1000):
        for successes in range(0, trials + 1, max(1, trials // 9)):
            low, high = wilson(successes, trials)
            assert 0.0 <= low <= successes / trials <= high <= 1.0
            mirrored = wilson(trials - successes, trials)
            assert low == pytest.approx(1 - mirrored[1], abs=1e-12)


def test_wilson_of_no_trials_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_narrows_with_more_trials() -> None:
    widths = [wilson(n // 2, n)[1] - wilson(n // 2, n)[0] for n in (10, 100, 1000)]
    assert widths[0] > widths[1] > widths[2]


# ------------------------------------------------------------------ simulate
def test_simulate_summary_keys_and_sums() -> None:
    seen: list[int] = []
    summary = simulate("venture", SEATS, 13, seed=4, options=SHORT, batch=Batch(progress=seen.append))
    assert set(summary) == {
        "turn_order",
        "game",
        "games",
        "seed",
        "options",
        "actions",
        "seconds",
        "mean_length",
        "length_sd",
        "mean_turns",
        "seats",
        "bots",
    }
    assert summary["game"] == "venture"
    assert summary["games"] == 13
    assert summary["seed"] == 4
    assert summary["options"]["max_turns"] == 30
    assert sum(seen) == 13
    assert [row["seat"] for row in summary["seats"]] == [0, 1, 2]
    assert [row["bot"] for row in summary["seats"]] == SEATS
    assert sum(row["wins"] for row in summary["seats"]) == pytest.approx(13)
    for row in summary["seats"]:
        assert row["win_rate"] == pytest.approx(row["wins"] / 13, abs=1e-3)
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    assert set(summary["bots"]) == {"greedy", "random"}
    assert summary["bots"]["greedy"]["seats"] == 1
    assert summary["bots"]["random"]["seats"] == 2
    assert summary["bots"]["greedy"]["wins"] == summary["seats"][0]["wins"]
    assert summary["bots"]["random"]["wins"] == pytest.approx(
        summary["seats"][1]["wins"] + summary["seats"][2]["wins"], abs=1e-3
    )
    assert summary["bots"]["random"]["win_rate"] == pytest.approx(
        summary["bots"]["random"]["wins"] / 26, abs=1e-3
    )
    assert summary["actions"] == pytest.approx(summary["mean_length"] * 13)
    assert summary["mean_turns"] > 1


def test_simulate_splits_a_shared_win() -> None:
    """Cut after one turn, nobody scores: every game is a three-way tie, a third of a win each."""
    summary = simulate("venture", ["random"] * 3, 6, seed=2, options={"max_turns": 1})
    for row in summary["seats"]:
        assert row["mean_score"] == 0.0
        assert row["wins"] == 2.0
        assert row["win_rate"] == pytest.approx(1 / 3)
    assert summary["bots"]["random"]["wins"] == 6.0
    assert summary["mean_turns"] == 1.0
    outcome = play_one("venture", ["random"] * 3, 2, 0, {"max_turns": 1})
    assert outcome.scores == [0.0, 0.0, 0.0]
    assert outcome.wins == [pytest.approx(1 / 3)] * 3


@pytest.mark.slow
def test_simulate_is_deterministic_from_its_seed() -> None:
    first = simulate("venture", SEATS, 12, seed=9, options=SHORT)
    again = simulate("venture", SEATS, 12, seed=9, options=SHORT)
    other = simulate("venture", SEATS, 12, seed=10, options=SHORT)
    assert without_seconds(first) == without_seconds(again)
    assert without_seconds(first) != without_seconds(other)


@pytest.mark.slow
def test_simulate_is_the_same_with_two_workers() -> None:
    one = simulate("venture", SEATS, 23, seed=5, options=SHORT, batch=Batch(workers=1))
    two = simulate("venture", SEATS, 23, seed=5, options=SHORT, batch=Batch(workers=2, workers_max=2))
    assert without_seconds(one) == without_seconds(two)


def test_game_seed_depends_only_on_seed_and_index() -> None:
    seeds = {game_seed(seed, index) for seed in range(20) for index in range(500)}
    assert len(seeds) == 20 * 500
    assert game_seed(3, 17) == game_seed(3, 17)


def test_games_do_not_depend_on_how_they_are_chunked() -> None:
    """A game's outcome is the same played in a chunk of seven, alone, or in another order."""
    job = ("venture", SEATS, 2, list(range(7)), SHORT, None, False)
    together = _play_chunk(job)
    alone = [_play_chunk(("venture", SEATS, 2, [i], SHORT, None, False))[0] for i in reversed(range(7))]
    assert together == sorted(alone, key=lambda o: o.index)
    assert [o.index for o in together] == list(range(7))
    assert len({(tuple(o.scores), o.actions) for o in together}) > 1


@pytest.mark.slow
def test_simulate_adds_up_the_games_played_one_by_one() -> None:
    summary = simulate("venture", SEATS, 14, seed=6, options=SHORT)
    games = [play_one("venture", SEATS, 6, i, GAME.options(SHORT)) for i in range(14)]
    assert summary["actions"] == sum(o.actions for o in games)
    for s in range(3):
        assert summary["seats"][s]["wins"] == pytest.approx(sum(o.wins[s] for o in games), abs=1e-3)
        mean = sum(o.scores[s] for o in games) / 14
        assert summary["seats"][s]["mean_score"] == pytest.approx(mean)


def test_play_one_gives_each_game_a_full_win_in_shares() -> None:
    outcome = play_one("venture", SEATS, 0, 3, GAME.options(SHORT))
    assert isinstance(outcome, GameOutcome)
    assert outcome.index == 3
    assert sum(outcome.wins) == pytest.approx(1.0)
    best = max(outcome.scores)
    assert [w > 0 for w in outcome.wins] == [score == best for score in outcome.scores]


def test_simulate_refuses_an_unknown_bot_before_playing() -> None:
    with pytest.raises(OptionError, match="nobody"):
        simulate("venture", ["greedy", "nobody", "random"], 5)


def test_simulate_refuses_a_bad_player_count() -> None:
    with pytest.raises(OptionError, match="2 to 6"):
        simulate("venture", ["random"] * 7, 1)


# ------------------------------------------------------------------ bots by name
def test_make_bot_refuses_an_unknown_name_listing_the_bots() -> None:
    with pytest.raises(OptionError) as err:
        make_bot(GAME, "grandmaster", 0)
    message = str(err.value)
    assert "grandmaster" in message
    assert "greedy" in message
    assert "random" in message
    assert bot_names(GAME) == ["greedy", "ismcts", "learned", "quick", "random"]  # learned: a policy ships


def test_make_bot_returns_the_named_bot() -> None:
    assert make_bot(GAME, "random", 3).name == "random"
    assert make_bot(GAME, "greedy", 3).name == "greedy"
    assert isinstance(make_bot(GAME, "random", 3), RandomBot)


# ------------------------------------------------------------------ the random bot
class Recorder:
    """Wraps a bot, checking each choice is legal and keeping the choices."""

    def __init__(self, bot: RandomBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.chosen: list[str] = []

    def choose(self, state: GameState, seat: int) -> object:
        action = self.bot.choose(state, seat)
        assert action in state.legal_actions(seat)
        self.chosen.append(str(action))
        return action


def test_random_bot_picks_only_legal_actions_in_whole_games() -> None:
    for seed in range(3):
        agents = [Recorder(RandomBot(seed * 4 + s)) for s in range(4)]
        result = play_match(GAME, agents, seed, SHORT)
        assert result.state.is_over()
        assert sum(len(a.chosen) for a in agents) == result.actions


def test_random_bot_is_reproducible_from_its_seed() -> None:
    def moves(bot_seed: int) -> list[str]:
        agents = [Recorder(RandomBot(bot_seed + s)) for s in range(3)]
        return [m.action for m in play_match(GAME, agents, 11, SHORT).record.moves]

    assert moves(100) == moves(100)
    assert moves(100) != moves(200)


def test_random_bot_uses_every_legal_action() -> None:
    """Over many draws from one position, a uniform bot picks each legal action."""
    state = GAME.new_state(3, 5)
    seat = state.deciders()[0]
    legal = state.legal_actions(seat)
    assert len(legal) > 3
    bot = RandomBot(1)
    picks = [bot.choose(state, seat) for _ in range(40 * len(legal))]
    assert set(picks) == set(legal)
    one, two = RandomBot(8), RandomBot(8)
    assert [one.choose(state, seat) for _ in range(20)] == [two.choose(state, seat) for _ in range(20)]


class Listed:
    """A stand-in state whose legal actions are a given list (what the random bot reads)."""

    def __init__(self, legal: list[int]) -> None:
        self.legal = legal

    def legal_actions(self, seat: int) -> list[int]:
        return self.legal


def test_random_bot_chooses_as_random_choice_does() -> None:
    """The bot works ``rng.choice`` out inline: the same choices from the same random bits, consumed alike
    (lists of one action consume bits too), and the generator left in the same state."""
    for seed in range(20):
        bot, rng = RandomBot(seed), random.Random(seed)
        for count in [*range(1, 70), 127, 128, 129, 1000, 4097]:
            legal = list(range(count))
            assert bot.choose(Listed(legal), 0) == rng.choice(legal)  # type: ignore[arg-type]
        assert bot.rng.getstate() == rng.getstate()
    with pytest.raises(IndexError):
        RandomBot(0).choose(Listed([]), 0)  # type: ignore[arg-type]


class Drawn(random.Random):
    """A generator of another class: the bot asks its own ``choice``."""

    def choice(self, seq: Any) -> Any:
        return seq[-1]


def test_random_bot_asks_a_generator_of_another_class() -> None:
    bot = RandomBot(0)
    bot.rng = Drawn(0)
    assert bot.choose(Listed([1, 2, 3]), 0) == 3  # type: ignore[arg-type]


@pytest.mark.slow
def test_turn_order_rows_count_every_win_once() -> None:
    """Win rates by place in the turn order cover every game's wins exactly once."""
    summary = simulate("venture", ["greedy", "random", "random"], 9, seed=4)
    rows = summary["turn_order"]
    assert [row["place"] for row in rows] == [0, 1, 2]
    assert sum(row["wins"] for row in rows) == pytest.approx(9)
    assert all(row["ci95"][0] <= row["win_rate"] <= row["ci95"][1] for row in rows)


@pytest.mark.parametrize("name", ["venture", "im-the-boss", "venus-needs-men", "embers"])
def test_an_unrecorded_match_plays_the_recorded_game(name: str) -> None:
    """Simulation plays unrecorded (no action written in notation): the same game as a recorded match,
    the same actions, first seat and final position; only the record's moves are left out."""
    game = load_game(name)

    def match(recorded: bool) -> Any:
        agents = [make_bot(game, "random", 40 + s) for s in range(3)]
        return play_match(game, agents, 7, recorded=recorded)

    kept, lean = match(True), match(False)
    assert lean.record.moves == [] and len(kept.record.moves) == kept.actions == lean.actions > 0
    assert kept.recorded and not lean.recorded
    assert lean.first == kept.first
    state = game.new_state(3, 7, kept.record.options)
    for move in kept.record.moves:  # the first turn's player, whoever set the game up before it
        if state.turn_player() is not None:
            break
        state.apply(state.parse_action(move.action), move.seat)
    assert kept.first == state.turn_player()
    if name == "im-the-boss":  # the marker is placed by the seat on the first player's right
        assert kept.first != kept.record.moves[0].seat
    else:
        assert kept.first == kept.record.moves[0].seat
    assert lean.state.to_position() == kept.state.to_position()
    assert lean.record.scores == kept.record.scores == kept.state.scores()


def test_the_python_api_starts_no_program_unless_the_batch_allows_it(tmp_path: Path) -> None:
    """``simulate()`` and ``tournament()`` refuse a ``cmd:`` seat by default (a server reusing them must
    never run a program a client named); the command line's batch allows it, on the local backend only."""
    marker = tmp_path / "ran"
    seat = f"cmd:{sys.executable} -c 'open({str(marker)!r}, \"w\")'"
    for batch in (DEFAULT_BATCH, Batch(backend="ray", commands=True)):
        refusal = "use --backend local" if batch.commands else "cmd:"
        with pytest.raises(OptionError, match=refusal):
            simulate("embers", [seat, "random"], 1, batch=batch)
        with pytest.raises(OptionError, match=refusal):
            tournament("embers", [seat, "random"], 1, 2, batch=batch)
        assert not marker.exists()
    with pytest.raises(OptionError, match="cmd:"):
        play_one("embers", [seat, "random"], 0, 0, {})
    assert not marker.exists()
