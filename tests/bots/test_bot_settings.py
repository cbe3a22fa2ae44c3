"""Every setting and budget a bot name carries has a range: inside it the bot plays, outside it is refused."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.bots.ismcts import BUDGET_RANGE, RANGES, Budget, IsmctsBot, Settings
from parlour.bots.registry import MAX_NAME, make_bot
from parlour.core.errors import OptionError, ParlourError
from parlour.core.registry import game_names, load_game
from parlour.core.state import GameState

WHOLE = {"horizon", "deepen", "cap", "race", "samples"}
"""The settings that take whole numbers."""


def decision(name: str, seed: int = 3) -> tuple[GameState, int]:
    """Returns a two-player (or smallest) state a few random actions in, and the seat to act."""
    game = load_game(name)
    state = game.new_state(max(2, game.min_players), seed, game.quick_options)
    rng = random.Random(seed)
    for _ in range(9):
        seat = state.deciders()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state, state.deciders()[0]


def assert_moves_legally(game_name: str, bot_name: str) -> None:
    """The bot called ``bot_name`` is built and chooses a legal action."""
    state, seat = decision(game_name)
    bot = make_bot(load_game(game_name), bot_name, 1)
    action = bot.choose(state, seat)
    assert state.is_legal(action, seat), (bot_name, action)


def assert_refused(bot_name: str, *words: str) -> None:
    """Building the bot raises OptionError with a one-line message holding every word."""
    with pytest.raises(OptionError) as refused:
        make_bot(load_game("embers"), bot_name, 0)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 400, message
    for word in words:
        assert word in message, message


def test_every_setting_has_a_range() -> None:
    """The ranges name exactly the search's settings, each from a low to a higher value."""
    assert set(RANGES) == set(Settings.__dataclass_fields__)
    assert all(0 <= low < high for low, high in RANGES.values())
    assert {f.name for f in Settings.__dataclass_fields__.values() if f.type == "int"} == WHOLE
    defaults = Settings()
    assert all(low <= getattr(defaults, name) <= high for name, (low, high) in RANGES.items())


def inside(name: str) -> list[str]:
    """Returns values just inside a setting's range: both ends and a step in from each."""
    low, high = RANGES[name]
    step = 1 if name in WHOLE else 0.001
    return [f"{low:g}", f"{low + step:g}", f"{high - step:g}", f"{high:g}"]


def outside(name: str) -> list[str]:
    """Returns values outside a setting's range: just beyond each end, NaN, infinity, huge, negative."""
    low, high = RANGES[name]
    step = 1 if name in WHOLE else 0.001
    return [f"{low - step:g}", f"{high + step:g}", "nan", "inf", "-inf", "1e400", "9" * 30, "-1", "1e9"]


@pytest.mark.parametrize("game_name", game_names())
@pytest.mark.parametrize("setting", sorted(RANGES))
def test_a_setting_just_inside_its_range_plays_legally(game_name: str, setting: str) -> None:
    for value in inside(setting):
        assert_moves_legally(game_name, f"ismcts:3it::{setting}={value}")


@pytest.mark.parametrize("game_name", game_names())
@pytest.mark.parametrize("end", [0, 1])
def test_every_setting_at_one_end_of_its_range_at_once_plays_legally(game_name: str, end: int) -> None:
    text = ",".join(f"{name}={limits[end]:g}" for name, limits in RANGES.items())
    assert_moves_legally(game_name, f"ismcts:3it::{text}")


@pytest.mark.parametrize("setting", sorted(RANGES))
def test_a_setting_outside_its_range_is_refused_naming_it(setting: str) -> None:
    low, high = RANGES[setting]
    for value in outside(setting):
        assert_refused(f"ismcts:3it::{setting}={value}", f"ismcts setting {setting}=", f"{low:g} to {high:g}")


def test_the_message_names_the_setting_the_value_and_the_range() -> None:
    assert_refused("ismcts:200ms::power=10000", "ismcts setting power=10000 is out of range: 0 to 2")
    assert_refused("ismcts:::horizon=2.5", "ismcts setting horizon=2.5 is not a whole number from 0 to 1000")
    assert_refused("ismcts:200ms::explore=x", "ismcts setting explore=x is not a number from 0 to 10")
    assert_refused("ismcts:200ms::horizon", "ismcts setting horizon needs =number")
    assert_refused("ismcts:200ms::speed=2", "ismcts setting speed=2 is unknown", "explore")
    assert_refused("ismcts:200ms:horizon=2", "no playout bot 'horizon=2'", "third colon")


@pytest.mark.parametrize("setting", sorted(RANGES))
def test_settings_made_in_python_are_checked_too(setting: str) -> None:
    """``Settings(...)`` refuses what ``Settings.parse`` refuses: out of range, NaN, a bool, a float for a
    whole number."""
    low, high = RANGES[setting]
    for value in (high + 1, low - 1, math.nan, math.inf, True, "1", 10**400):
        with pytest.raises(ValueError, match=f"ismcts setting {setting}"):
            Settings(**{setting: value})  # type: ignore[arg-type]
    if setting in WHOLE:
        with pytest.raises(ValueError, match="whole number"):
            Settings(**{setting: 1.0})  # type: ignore[arg-type]
    given: dict[str, Any] = {setting: high}
    assert getattr(Settings(**given), setting) == high


@pytest.mark.parametrize(
    "budget", ["1ms", "1it", "1", "0.001s", ".5s", "3600s", "3600000ms", "10000000it", "2S", " 5it "]
)
def test_budgets_inside_their_range_are_accepted(budget: str) -> None:
    assert isinstance(make_bot(load_game("embers"), f"ismcts:{budget}", 0), IsmctsBot)


@pytest.mark.parametrize(
    "budget",
    ["0ms", "0it", "0.0004s", "3600.001s", "3600001ms", "10000001it", "1e400s", "9" * 40, "nan", "-1s"],
)
def test_budgets_outside_their_range_are_refused_naming_the_range(budget: str) -> None:
    assert_refused(f"ismcts:{budget}", "ismcts budget", BUDGET_RANGE)


@pytest.mark.parametrize("budget", ["fast", "1.5ms", "1.5it", "1e3ms", "１s", "1 s", "inf", "0x10it"])
def test_budgets_of_the_wrong_shape_are_refused(budget: str) -> None:
    with pytest.raises(ValueError, match=r"ismcts budget .* is not like 200ms"):
        Budget.parse(budget)


@pytest.mark.parametrize(
    "name",
    [
        "ismcts:\ud800",
        "ismcts:200ms::horizon=\ud800",
        "ismcts:200ms::horizon=١٢",  # Arabic-Indic digits
        "gr\u00e9edy",
        "random\n",
        "ismcts:200ms::" + "horizon=2," * 30,
        "x" * 100_000,
    ],
)
def test_non_ascii_and_very_long_names_are_refused_in_one_line(name: str) -> None:
    assert_refused(name, "bot name", str(MAX_NAME))


SETTING_TEXT = st.one_of(
    st.text(max_size=60),
    st.text(alphabet="0123456789.eE+-,=:naifxhorizonpwecapsmgt \ud800", max_size=40),
    st.lists(
        st.tuples(
            st.sampled_from([*RANGES, "speed", ""]),
            st.one_of(
                st.floats(allow_nan=True, allow_infinity=True).map(repr),
                st.integers(-(10**30), 10**30).map(str),
                st.text(alphabet="0123456789.e-+", max_size=8),
            ),
        ),
        max_size=4,
    ).map(lambda pairs: ",".join(f"{name}={value}" for name, value in pairs)),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(budget=st.one_of(st.just("3it"), st.text(max_size=12)), text=SETTING_TEXT)
def test_any_setting_text_is_refused_in_one_line_or_the_bot_plays_legally(budget: str, text: str) -> None:
    """Whatever follows ``ismcts:``: a ParlourError with a one-line message, or a bot that moves legally
    (never another exception, never a bot that fails on its move)."""
    name = f"ismcts:{budget}::{text}"
    try:
        bot = make_bot(load_game("embers"), name, 0)
    except ParlourError as err:
        message = str(err)
        assert message and "\n" not in message and len(message) < 400, message
        return
    assert isinstance(bot, IsmctsBot)
    bot.budget = Budget(iterations=min(bot.budget.iterations or 3, 3))  # any accepted budget, kept short
    state, seat = decision("embers")
    action = bot.choose(state, seat)
    assert state.is_legal(action, seat)
