"""A state described once: copies, redeals, positions and the unseen places derived from its layout."""

from __future__ import annotations

import random

import pytest

from parlour.core.errors import PositionError
from parlour.core.zones import CardNames, Layout, Part

NAMES = CardNames(["ace", "two", "three", "four", "five", "six"])


class Table:
    """A small state: hands per seat, a secret draw pile, a public discard, money and the content."""

    hands: list[list[int]]
    draw: list[int]
    discard: list[int]
    money: list[int]
    content: object

    def __init__(self) -> None:
        self.hands = [[0, 1], [2], [3]]
        self.draw = [4]
        self.discard = [5]
        self.money = [10, 20, 30]
        self.content = object()


LAYOUT = Layout(
    Part("hands", "owner", cards=True),
    Part("draw", "secret", cards=True),
    Part("discard", cards=True),
    Part("money"),
    Part("content", shared=True),
    cards=NAMES,
)


def test_a_copy_shares_the_content_and_nothing_else() -> None:
    table, other = Table(), Table.__new__(Table)
    LAYOUT.copy_into(table, other)
    other.hands[0].append(5)
    other.money[1] = 0
    assert table.hands == [[0, 1], [2], [3]] and table.money == [10, 20, 30]
    assert other.content is table.content


def test_a_redeal_changes_only_what_the_seat_cannot_see_and_keeps_every_size() -> None:
    seen = set()
    for seed in range(40):
        table = Table()
        LAYOUT.redeal(table, 0, random.Random(seed))
        assert table.hands[0] == [0, 1] and table.discard == [5]
        assert [len(h) for h in table.hands] == [2, 1, 1] and len(table.draw) == 1
        assert sorted(table.hands[1] + table.hands[2] + table.draw) == [2, 3, 4]
        seen.add((table.hands[1][0], table.hands[2][0], table.draw[0]))
    assert len(seen) == 6  # every arrangement of the three unseen cards turns up


def test_a_redeal_depends_only_on_what_the_seat_knows() -> None:
    one, two = Table(), Table()
    two.hands[1], two.draw = [4], [2]  # the same to seat 0: the unseen cards swapped
    LAYOUT.redeal(one, 0, random.Random(7))
    LAYOUT.redeal(two, 0, random.Random(7))
    assert (one.hands, one.draw) == (two.hands, two.draw)


def test_the_unseen_places_of_a_seat_and_of_a_spectator() -> None:
    table = Table()
    assert [name for name, _ in LAYOUT.unseen(table, 1)] == ["hands[0]", "hands[2]", "draw"]
    assert [name for name, _ in LAYOUT.unseen(table, None)] == ["hands[0]", "hands[1]", "hands[2]", "draw"]


def test_positions_write_cards_by_name_and_read_back() -> None:
    body = LAYOUT.write(Table())
    assert body == {
        "hands": [["ace", "two"], ["three"], ["four"]],
        "draw": ["five"],
        "discard": ["six"],
        "money": [10, 20, 30],
    }
    assert LAYOUT.read(Table, body) == {
        "hands": [[0, 1], [2], [3]],
        "draw": [4],
        "discard": [5],
        "money": [10, 20, 30],
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"draw": ["joker"]}, r"draw\[0\]: there is no card 'joker'"),
        ({"money": [10, "20", 30]}, r"money\[1\]: must be an integer"),
        ({"hands": "ace"}, r"hands: must be a list"),
    ],
)
def test_a_bad_position_body_is_refused_naming_the_field(change: dict[str, object], message: str) -> None:
    body = {**LAYOUT.write(Table()), **change}
    with pytest.raises(PositionError, match=message):
        LAYOUT.read(Table, body)
