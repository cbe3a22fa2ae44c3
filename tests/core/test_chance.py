"""Chance: seeded determinism, forced outcomes, probing, JSON form and fresh generators."""

from __future__ import annotations

import random

import pytest

from parlour.core.chance import DIE, ORDER, Chance, ChanceRequest, Forced, NeedChance, ProbeChance
from parlour.core.errors import IllegalActionError, PositionError

ITEMS = list(range(20))


# ---------------------------------------------------------------- determinism
def test_same_seed_gives_same_shuffles_and_rolls() -> None:
    a, b = Chance(42), Chance(42)
    for _ in range(5):
        assert a.shuffle(ITEMS) == b.shuffle(ITEMS)
        assert a.roll(6) == b.roll(6)
    assert a.events == b.events == 10


def test_shuffle_is_a_permutation_and_leaves_input_alone() -> None:
    items = list(ITEMS)
    result = Chance(3).shuffle(items)
    assert sorted(result) == ITEMS
    assert items == ITEMS
    assert result != ITEMS  # 20! orders: a seeded identity would be a broken generator


def test_successive_events_differ() -> None:
    chance = Chance(7)
    first, second = chance.shuffle(ITEMS), chance.shuffle(ITEMS)
    assert first != second
    rolls = [chance.roll(1000) for _ in range(10)]
    assert len(set(rolls)) > 1


def test_different_seeds_differ() -> None:
    assert Chance(1).shuffle(ITEMS) != Chance(2).shuffle(ITEMS)


def test_an_event_depends_only_on_seed_and_event_count() -> None:
    chance = Chance(11)
    chance.shuffle(ITEMS)
    chance.shuffle(ITEMS)
    resumed = Chance(11, events=2)
    assert chance.shuffle(ITEMS) == resumed.shuffle(ITEMS)
    assert chance.events == resumed.events == 3


def test_rolls_stay_in_range() -> None:
    chance = Chance(5)
    rolls = [chance.roll(6) for _ in range(300)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    zero_based = [chance.roll(4, low=0) for _ in range(200)]
    assert set(zero_based) == {0, 1, 2, 3}


# ---------------------------------------------------------------- forced outcomes
def test_forced_die_is_consumed_before_the_generator() -> None:
    chance = Chance(9, forced=[Forced(DIE, 6), Forced(DIE, 1)])
    assert chance.roll(6) == 6
    assert chance.roll(6) == 1
    assert chance.forced == []
    assert chance.events == 0, "forced outcomes do not consume generator events"
    assert chance.roll(6) == Chance(9).roll(6)
    assert chance.events == 1


def test_forced_die_respects_low() -> None:
    chance = Chance(0, forced=[Forced(DIE, 0)])
    assert chance.roll(4, low=0) == 0


def test_forced_order_is_consumed_before_the_generator() -> None:
    names = ["c", "a", "b"]
    chance = Chance(9, forced=[Forced(ORDER, names)])
    assert chance.shuffle(["a", "b", "c"]) == ["c", "a", "b"]
    assert chance.forced == []
    assert chance.events == 0


def test_forced_order_uses_name_of_and_handles_duplicate_names() -> None:
    cards = {0: "10", 1: "3c", 2: "10", 3: "x1"}
    chance = Chance(1, forced=[Forced(ORDER, ["x1", "10", "3c", "10"])])
    result = chance.shuffle([0, 1, 2, 3], lambda i: cards[i])
    assert [cards[i] for i in result] == ["x1", "10", "3c", "10"]
    assert sorted(result) == [0, 1, 2, 3]


def test_forced_outcome_of_another_kind_is_left_in_the_queue() -> None:
    chance = Chance(4, forced=[Forced(ORDER, ["a", "b"])])
    assert chance.roll(6) == Chance(4).roll(6)
    assert chance.forced == [Forced(ORDER, ["a", "b"])]
    assert chance.shuffle(["b", "a"]) == ["a", "b"]
    assert chance.forced == []


@pytest.mark.parametrize("value", [0, 7, -3, 100])
def test_forced_die_out_of_range_is_refused(value: int) -> None:
    chance = Chance(1, forced=[Forced(DIE, value)])
    with pytest.raises(IllegalActionError, match=r"outside 1\.\.6"):
        chance.roll(6)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["a", "b", "z"], "'z'"),  # a name that is not in the pile
        (["a", "b"], "2 items but the pile holds 3"),  # too short
        (["a", "a", "b"], "'a'"),  # duplicates a card the pile has once
        (["a", "b", "c", "c"], "'c'"),  # too long
    ],
)
def test_forced_order_that_is_not_a_permutation_is_refused(names: list[str], message: str) -> None:
    chance = Chance(1, forced=[Forced(ORDER, names)])
    with pytest.raises(IllegalActionError, match=message):
        chance.shuffle(["a", "b", "c"])


# ---------------------------------------------------------------- copies
def test_copy_is_independent() -> None:
    chance = Chance(3, 2, [Forced(DIE, 4), Forced(ORDER, ["a"])])
    copy = chance.copy()
    assert copy == chance
    assert copy.roll(6) == 4
    assert copy.shuffle(["a"]) == ["a"]
    copy.shuffle(ITEMS)
    copy.forced.append(Forced(DIE, 1))
    assert chance.forced == [Forced(DIE, 4), Forced(ORDER, ["a"])]
    assert chance.events == 2
    assert copy.events == 3
    assert copy.forced == [Forced(DIE, 1)]


def test_fresh_gives_an_independent_generator() -> None:
    original = Chance(8, 5, [Forced(DIE, 2)])
    fresh = original.fresh(random.Random(1))
    assert fresh.forced == []
    assert fresh.events == 0
    assert fresh.seed != original.seed
    before = original.to_json()
    for _ in range(5):
        fresh.shuffle(ITEMS)
        fresh.roll(6)
    assert original.to_json() == before
    assert fresh.events == 10


def test_fresh_is_seeded_from_the_given_rng() -> None:
    a = Chance(8).fresh(random.Random(99))
    b = Chance(123).fresh(random.Random(99))
    c = Chance(8).fresh(random.Random(100))
    assert a.seed == b.seed
    assert a.shuffle(ITEMS) == b.shuffle(ITEMS)
    assert c.seed != a.seed


# ---------------------------------------------------------------- JSON
def test_json_round_trip() -> None:
    chance = Chance(17, 4, [Forced(DIE, 3), Forced(ORDER, ["10", "3c", "x1"])])
    data = chance.to_json()
    assert data == {
        "seed": 17,
        "events": 4,
        "forced": [{"kind": "die", "value": 3}, {"kind": "order", "value": ["10", "3c", "x1"]}],
    }
    again = Chance.from_json(data)
    assert again == chance
    assert again.roll(6) == 3
    assert chance.copy().roll(6) == 3


def test_json_round_trip_keeps_the_future() -> None:
    chance = Chance(21)
    chance.shuffle(ITEMS)
    again = Chance.from_json(chance.to_json())
    assert again.shuffle(ITEMS) == chance.shuffle(ITEMS)


def test_from_json_defaults() -> None:
    assert Chance.from_json({"seed": 5}) == Chance(5, 0, [])


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([1, 2], "chance"),
        ("seed", "chance"),
        ({"seed": 1, "colour": 2}, "chance.colour"),
        ({}, "chance.seed"),
        ({"seed": "1"}, "chance.seed"),
        ({"seed": 1.5}, "chance.seed"),
        ({"seed": True}, "chance.seed"),
        ({"seed": 1, "events": -1}, "chance.events"),
        ({"seed": 1, "events": "3"}, "chance.events"),
        ({"seed": 1, "forced": ["die"]}, "chance.forced[0]"),
        ({"seed": 1, "forced": [{"kind": "die"}]}, "chance.forced[0]"),
        ({"seed": 1, "forced": [{"kind": "die", "value": 1, "x": 2}]}, "chance.forced[0]"),
        ({"seed": 1, "forced": [{"kind": "die", "value": "6"}]}, "chance.forced[0]"),
        ({"seed": 1, "forced": [{"kind": "order", "value": "abc"}]}, "chance.forced[0]"),
        (
            {"seed": 1, "forced": [{"kind": "die", "value": 2}, {"kind": "coin", "value": 1}]},
            "chance.forced[1]",
        ),
    ],
)
def test_from_json_refuses_malformed_fields(data: object, field: str) -> None:
    with pytest.raises(PositionError) as info:
        Chance.from_json(data)
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")


def test_from_json_names_fields_under_the_given_path() -> None:
    with pytest.raises(PositionError) as info:
        Chance.from_json({"seed": "x"}, "game.chance")
    assert info.value.field == "game.chance.seed"


@pytest.mark.parametrize("forced", [5, None])
def test_from_json_refuses_forced_that_is_not_a_list(forced: object) -> None:
    with pytest.raises(PositionError) as info:
        Chance.from_json({"seed": 1, "forced": forced})
    assert info.value.field == "chance.forced"


def test_from_json_refuses_boolean_events() -> None:
    with pytest.raises(PositionError) as info:
        Chance.from_json({"seed": 1, "events": True})
    assert info.value.field == "chance.events"


# ---------------------------------------------------------------- probing
def test_probe_names_the_die_it_needs() -> None:
    with pytest.raises(NeedChance) as raised:
        ProbeChance(0).roll(6)
    assert raised.value.request == ChanceRequest(DIE, low=1, high=6)
    with pytest.raises(NeedChance) as raised:
        ProbeChance(0).roll(4, low=0)
    assert raised.value.request == ChanceRequest(DIE, low=0, high=3)


def test_probe_names_the_pile_it_needs_in_the_engines_order() -> None:
    cards = {0: "10", 1: "3c", 2: "10"}
    with pytest.raises(NeedChance) as raised:
        ProbeChance(0).shuffle([2, 1, 0], lambda i: cards[i])
    assert raised.value.request == ChanceRequest(ORDER, names=("10", "3c", "10"))


def test_probe_takes_forced_outcomes_and_never_draws() -> None:
    chance = ProbeChance(0, forced=[Forced(ORDER, ["b", "a"]), Forced(DIE, 5)])
    assert chance.shuffle(["a", "b"]) == ["b", "a"]
    assert chance.roll(6) == 5
    assert chance.forced == [] and chance.events == 0
    with pytest.raises(NeedChance):
        chance.roll(6)
    with pytest.raises(NeedChance):  # a forced outcome of the other kind is not the one asked for
        ProbeChance(0, forced=[Forced(DIE, 2)]).shuffle(["a", "b"])


def test_probe_resolves_events_with_one_outcome() -> None:
    chance = ProbeChance(0)
    assert chance.roll(1, low=3) == 3
    assert chance.shuffle([7, 8, 9], lambda i: "same") == [7, 8, 9]
    assert chance.shuffle([]) == []
    assert chance.events == 0


def test_a_probes_copy_is_an_ordinary_chance() -> None:
    copy = ProbeChance(4, forced=[Forced(DIE, 2)]).copy()
    assert type(copy) is Chance
    assert copy.roll(6) == 2
    assert copy.roll(6) == Chance(4).roll(6)


@pytest.mark.parametrize("name", ["venture", "im-the-boss", "venus-needs-men"])
def test_a_game_starts_from_a_given_chance(name: str) -> None:
    from parlour.core.registry import load_game

    game = load_game(name)
    players = 4
    seeded = game.new_state(players, 3).to_position()
    assert game.new_state(players, 3, chance=Chance(3)).to_position() == seeded
    assert game.new_state(players, 0, chance=Chance(3)).to_position() == seeded  # the seed is not used
    assert game.new_state(players, 3, chance=Chance(4)).to_position() != seeded
    with pytest.raises(NeedChance) as raised:
        game.new_state(players, 3, chance=ProbeChance(3))
    assert raised.value.request.kind == ORDER


def test_each_event_draws_from_the_generator_its_text_seed_makes() -> None:
    """Event n of seed s draws exactly what ``random.Random(f"{s}:{n}")`` would (positions keep only the
    seed and the count; the generator reused for every event must not change a single draw)."""
    chance = Chance(2026)
    for n in range(40):
        reference = random.Random(f"2026:{n}")
        if n % 2:
            assert chance.roll(6 + n) == reference.randrange(1, 7 + n)
        else:
            expected = list(ITEMS)
            reference.shuffle(expected)
            assert chance.shuffle(ITEMS) == expected
    assert chance.events == 40
