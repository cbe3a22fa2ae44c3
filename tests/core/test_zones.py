"""A state described once: copies, redeals, positions and the unseen places derived from its layout."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from parlour.core.chance import Chance
from parlour.core.errors import PositionError
from parlour.core.zones import CardNames, CardReader, Form, Layout, Part, position_header

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


DUPLICATES = CardNames(["ten", "ten", "jack"], what="resources card")


def test_cards_sharing_a_name_are_read_each_number_once() -> None:
    reader = DUPLICATES.reader()
    assert [reader.number("ten", "a"), reader.number("ten", "b")] == [0, 1]
    assert reader.missing() == ["jack"]
    with pytest.raises(PositionError, match=r"c: more 'ten' cards than the 2 there are"):
        reader.number("ten", "c")
    with pytest.raises(PositionError, match=r"d: there is no resources card 'queen'"):
        reader.number("queen", "d")


def test_a_single_card_read_twice_names_where_it_was() -> None:
    reader = DUPLICATES.reader()
    reader.number("jack", "hands[0][0]")
    with pytest.raises(PositionError, match=r"draw\[1\]: jack is also at hands\[0\]\[0\]"):
        reader.number("jack", "draw[1]")


class TwoDecks:
    """A state with two kinds of card, each re-dealt only among its own places."""

    hands: list[list[int]]
    draw: list[int]
    stock: list[int]
    aside: list[int]

    def __init__(self) -> None:
        self.hands, self.draw = [[0], [1], [2]], [3]
        self.stock, self.aside = [0, 1], [2]


CORPS = CardNames(["alpha", "beta", "gamma"], what="corporation")
TWO_DECKS = Layout(
    Part("hands", "owner", cards=True),
    Part("draw", "secret", cards=True),
    Part("stock", "secret", cards=CORPS, pool="corporations"),
    Part("aside", "secret", cards=CORPS, pool="corporations"),
    cards=CardNames(["w", "x", "y", "z"]),
)


def test_a_redeal_keeps_each_pool_to_its_own_places() -> None:
    for seed in range(20):
        state = TwoDecks()
        TWO_DECKS.redeal(state, 0, random.Random(seed))
        assert state.hands[0] == [0]
        assert sorted(state.hands[1] + state.hands[2] + state.draw) == [1, 2, 3]
        assert sorted(state.stock + state.aside) == [0, 1, 2] and len(state.aside) == 1


def test_each_kind_of_card_has_its_own_names_and_its_own_allocation() -> None:
    body = TWO_DECKS.write(TwoDecks())
    assert body["stock"] == ["alpha", "beta"] and body["hands"] == [["w"], ["x"], ["y"]]
    readers = TWO_DECKS.readers()
    assert TWO_DECKS.read(TwoDecks, body, readers=readers)["aside"] == [2]
    assert all(not reader.missing() for reader in readers.values())
    with pytest.raises(PositionError, match=r"aside\[0\]: alpha is also at stock\[0\]"):
        TWO_DECKS.read(TwoDecks, {**body, "aside": ["alpha"]})


class Tableau:
    """A state with cards nested deeper than a hand: stacks of cards per seat (Venture's holdings)."""

    stacks: list[list[list[int]]]
    pile: list[int]
    notes: list[dict[str, int]]
    turn: int

    def __init__(self) -> None:
        self.stacks = [[[0, 1], [2]], []]
        self.pile = [3]
        self.notes = [{"a": 1}]
        self.turn = 4


TABLEAU = Layout(
    Part("stacks", cards=True), Part("pile", cards=True), Part("notes"), Part("turn"), cards=CardNames("wxyz")
)


def test_cards_nested_as_deep_as_the_type_hint_says_are_written_and_read_by_name() -> None:
    body = TABLEAU.write(Tableau())
    assert body["stacks"] == [[["w", "x"], ["y"]], []]
    assert TABLEAU.read(Tableau, body)["stacks"] == [[[0, 1], [2]], []]
    with pytest.raises(PositionError, match=r"stacks\[0\]\[1\]: must be a list"):
        TABLEAU.read(Tableau, {**body, "stacks": [[["w", "x"], "y"], []]})


def test_cards_kept_by_name_are_written_as_they_are() -> None:
    """A part holding names (strings, as a game that keeps names may) is not gone into letter by letter."""
    table = Tableau()
    table.stacks = [[["w", 1], ["y"]], []]  # type: ignore[list-item]
    assert TABLEAU.write(table)["stacks"] == [[["w", "x"], ["y"]], []]
    table.stacks = [[[None]], []]  # type: ignore[list-item]
    with pytest.raises(TypeError, match="holds NoneType, not a card"):
        TABLEAU.write(table)


def test_a_copy_goes_as_deep_as_each_part_holds_lists() -> None:
    table, other = Tableau(), Tableau.__new__(Tableau)
    TABLEAU.copy_into(table, other)
    other.stacks[0][0].append(3)
    other.stacks[1].append([3])
    other.pile.clear()
    other.notes[0]["a"] = 2
    assert table.stacks == [[[0, 1], [2]], []] and table.pile == [3] and table.notes == [{"a": 1}]
    assert other.turn == 4


def test_a_part_must_name_an_attribute() -> None:
    with pytest.raises(ValueError, match=r"a part is an attribute of the state, not 'hands\.left'"):
        Layout(Part("hands.left"))


def test_names_may_be_read_in_any_case_when_folded() -> None:
    names = CardNames(["ST-A", "OI-B"], what="corporation", fold=str.upper)
    reader = names.reader()
    assert [reader.number("oi-b", "a"), names.number("st-a", "b")] == [1, 0]
    with pytest.raises(PositionError, match=r"c: OI-B is also at a"):
        reader.number("Oi-B", "c")
    with pytest.raises(PositionError, match=r"d: there is no corporation 7"):
        reader.number(7, "d")


class Space(Form):
    """A space index kept from 0 and written from 1 (a part whose form is not its type hint's)."""

    def write(self, value: object, names: CardNames | None) -> object:
        """Returns the space's number."""
        return None if not isinstance(value, int) else value + 1

    def read(self, raw: object, path: str, reader: CardReader | None, context: object) -> object:
        """Returns the space's index, refusing a number out of the board given as context."""
        if not isinstance(raw, int) or not isinstance(context, int) or not 1 <= raw <= context:
            raise PositionError(path, f"must be a space 1–{context}")
        return raw - 1


class Log:
    """A record copied by its own ``copy`` (it keeps a count only copies may reset)."""

    def __init__(self, entries: list[str]) -> None:
        self.entries = entries

    def copy(self) -> Log:
        """Returns an independent copy."""
        return Log(list(self.entries))


class Board:
    """A state with a space written in its own form, a record with its own copy, a count no position keeps."""

    marker: int | None
    log: Log
    seen: int
    piles: list[list[int]]
    scores: dict[str, int]

    def __init__(self) -> None:
        self.marker, self.log, self.seen = 3, Log(["start"]), 7
        self.piles, self.scores = [[1, 2], [3]], {"a": 1}


BOARD = Layout(
    Part("marker", form=Space()),
    Part("log", copy=Log.copy, body=False),
    Part("seen", body=False),
    Part("piles"),
    Part("scores"),
)


def test_a_part_with_its_own_form_is_written_and_read_through_it() -> None:
    body = BOARD.write(Board())
    assert body == {"marker": 4, "piles": [[1, 2], [3]], "scores": {"a": 1}}
    assert BOARD.keys() == ["marker", "piles", "scores"]
    assert BOARD.read(Board, body, context=16)["marker"] == 3
    with pytest.raises(PositionError, match=r"marker: must be a space 1–2"):
        BOARD.read(Board, body, context=2)


def test_a_copy_uses_a_part_s_own_copy_and_copies_nested_lists_deeply() -> None:
    board, other = Board(), Board.__new__(Board)
    BOARD.copy_into(board, other)
    other.log.entries.append("more")
    other.piles[0].append(9)
    other.scores["a"] = 5
    assert board.log.entries == ["start"] and board.piles == [[1, 2], [3]] and board.scores == {"a": 1}
    assert (other.marker, other.seen) == (3, 7)


def test_the_position_header_names_the_game() -> None:
    state = SimpleNamespace(game_name="toy", players=2, options={"chain": "on"}, chance=Chance(7))
    header = position_header(state, "parlour-toy-position/1")
    assert list(header) == ["format", "game", "players", "options", "chance"]
    assert header["game"] == "toy" and header["chance"] == Chance(7).to_json()


class FaceDown:
    """A state whose seats each keep a face-down deck nobody sees, beside their own hands."""

    hands: list[list[int]]
    decks: list[list[int]]

    def __init__(self) -> None:
        self.hands, self.decks = [[0], [1]], [[2, 3], [4]]


FACE_DOWN = Layout(Part("hands", "owner", cards=True), Part("decks", "secret", cards=True), cards=NAMES)


def test_a_secret_pile_per_seat_is_unseen_and_re_dealt_pile_by_pile() -> None:
    state = FaceDown()
    assert [name for name, _ in FACE_DOWN.unseen(state, 0)] == ["hands[1]", "decks[0]", "decks[1]"]
    dealt = set()
    for seed in range(30):
        state = FaceDown()
        FACE_DOWN.redeal(state, 0, random.Random(seed))
        assert state.hands[0] == [0] and [len(d) for d in state.decks] == [2, 1]
        assert sorted(state.hands[1] + state.decks[0] + state.decks[1]) == [1, 2, 3, 4]
        dealt.add(state.hands[1][0])
    assert dealt == {1, 2, 3, 4}


def test_a_redeal_deals_the_hands_first_wherever_they_are_listed() -> None:
    decks_first = Layout(Part("decks", "secret", cards=True), Part("hands", "owner", cards=True), cards=NAMES)
    for seed in range(10):
        one, two = FaceDown(), FaceDown()
        FACE_DOWN.redeal(one, 1, random.Random(seed))
        decks_first.redeal(two, 1, random.Random(seed))
        assert (one.hands, one.decks) == (two.hands, two.decks)


class Named(Form):
    """A card written as a one-entry record, by the names the layout gives its part."""

    def write(self, value: object, names: CardNames | None) -> object:
        """Returns ``{"card": NAME}``."""
        assert isinstance(value, int) and names is not None
        return {"card": names.name(value)}

    def read(self, raw: object, path: str, reader: CardReader | None, context: object) -> object:
        """Returns the card's number, through the position's allocation of the part's names."""
        assert isinstance(raw, dict) and reader is not None
        return reader.number(raw.get("card"), f"{path}.card")


class Leader:
    """A state whose leading corporation is written in a form of its own, beside a hand of cards."""

    hand: list[int]
    leader: int

    def __init__(self) -> None:
        self.hand, self.leader = [0], 1


def test_a_form_writes_and_reads_its_cards_by_its_own_part_s_names() -> None:
    layout = Layout(Part("hand", cards=True), Part("leader", cards=CORPS, form=Named()), cards=NAMES)
    body = layout.write(Leader())
    assert body == {"hand": ["ace"], "leader": {"card": "beta"}}
    assert layout.read(Leader, body)["leader"] == 1
    with pytest.raises(PositionError, match=r"leader\.card: there is no corporation 'two'"):
        layout.read(Leader, {**body, "leader": {"card": "two"}})
