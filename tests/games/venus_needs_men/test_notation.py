"""Venus Needs Men!'s action notation (docs/notation.md): round trips, loose forms, malformed text."""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalActionError, NotationError
from parlour.games.venus_needs_men import NOTATION, VenusAction, format_action, parse_action
from parlour.games.venus_needs_men.actions import (
    Attack,
    Build,
    Collect,
    Control,
    Cycle,
    Done,
    End,
    Extend,
    Infect,
    Move,
    Pass,
    Purge,
    Release,
    Research,
    Withdraw,
    Zap,
)
from parlour.testing.kit import snapshot

from ..notation import canonical_test, round_trip_test, untouched_by_malformed_test
from ..typed import VENUS as GAME
from .scenario import force_dice, legal, load, play, top

EVERY_VERB: list[tuple[str, VenusAction]] = [
    ("build", Build()),
    ("build china", Build("china")),
    ("move V1 orbit", Move("V1", "orbit")),
    ("move G6 belt", Move("G6", "belt")),
    ("attack V2 M1", Attack("V2", "M1")),
    ("attack V2 M1 gatling", Attack("V2", "M1", "gatling")),
    ("attack M3 refuge", Attack("M3", "refuge")),
    ("control M1 V2", Control("M1", "V2")),
    ("infect T1", Infect("T1")),
    ("purge P2", Purge("P2")),
    ("research yttrium", Research("yttrium")),
    ("cycle gatling", Cycle("gatling")),
    ("collect P3", Collect("P3")),
    ("collect G1 india", Collect("G1", "india")),
    ("collect M1 infected", Collect("M1", infected=True)),
    ("collect G1 india infected", Collect("G1", "india", infected=True)),
    ("release V2", Release("V2")),
    ("withdraw", Withdraw()),
    ("pass", Pass()),
    ("done", Done()),
    ("extend 9", Extend(9)),
    ("end", End()),
    ("zap 6", Zap(6)),
    ("zap 1 china", Zap(1, "china")),
    ("zap 21 pluto", Zap(21, "pluto")),
    ("zap 22 E4", Zap(22, "E4")),
]


test_every_verb_round_trips = round_trip_test(parse_action, format_action, EVERY_VERB)


def test_the_table_covers_every_verb() -> None:
    """Each verb of the notation has a round-trip case above (a new verb needs one)."""
    assert {a.verb for _, a in EVERY_VERB} == set(NOTATION.verbs())


LOOSE_FORMS = [
    ("Attack v1 m2", "attack V1 M2"),
    ("  MOVE   g6   Orbit ", "move G6 orbit"),
    ("Build CHINA", "build china"),
    ("zap 007", "zap 7"),
    ("zap 9 m2", "zap 9 M2"),
    ("zap 8 Mars", "zap 8 mars"),
    ("EXTEND 12", "extend 12"),
    ("Pass", "pass"),
]
"""Loose forms and the canonical form each reads as."""
test_loose_forms_read_as_the_canonical_one = canonical_test(parse_action, format_action, LOOSE_FORMS)


def test_a_zap_target_is_a_ship_when_it_looks_like_one() -> None:
    """'zap N WORD' reads a letter-and-number word as a target ship and any other word as an area/planet."""
    assert parse_action("zap 32 t5") == Zap(32, "T5")
    assert parse_action("zap 31 titan") == Zap(31, "titan")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("   ", "empty action"),
        ("fly V1 orbit", "unknown verb 'fly'"),
        ("V1 orbit", "unknown verb 'V1'"),
        ("move V1", "'move' takes a spaceship (V1), an area, not 1 argument"),
        ("move V1 orbit china", "'move' takes a spaceship (V1), an area, not 3 argument"),
        ("attack V1", "'attack' takes a spaceship (V1), a target spaceship"),
        (
            "collect",
            "'collect' takes a spaceship (V1), an area (optional), 'infected' (optional), not 0 argument",
        ),
        ("pass now", "'pass' takes no arguments, not 1 argument"),
        ("end 3", "'end' takes no arguments, not 1 argument"),
        ("extend", "'extend' takes a card number, not 0 argument"),
        ("build china india", "'build' takes an area (optional), not 2 argument"),
        ("move orbit V1", "'orbit' is not a spaceship"),
        ("move 1V orbit", "'1V' is not a spaceship"),
        ("attack V1 M", "'M' is not a spaceship"),
        ("collect Vé", "'Vé' is not a spaceship"),
        ("move V1 V2", "'V2' is not an area"),
        ("build 12", "'12' is not an area"),
        ("move V1 orbit9", "'orbit9' is not an area"),
        ("extend x", "'x' is not a card number"),
        ("extend -1", "'-1' is not a card number"),
        ("extend 1234", "'1234' is not a card number"),
        ("zap ３", "'３' is not a card number"),
        ("zap 9 china!", "'china!' is not a target"),
        ("zap 9 china M1", "'zap' takes a card number, a target (area, planet or spaceship) (optional)"),
    ],
)
def test_malformed_text_is_refused_with_a_helpful_message(text: str, message: str) -> None:
    """Malformed text raises NotationError whose message names what was wrong and what was expected."""
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert message in str(err.value)


def test_an_unknown_verb_lists_the_verbs() -> None:
    """The error for an unknown verb lists the verbs there are."""
    with pytest.raises(NotationError) as err:
        parse_action("abduct V1")
    assert "unknown verb 'abduct' (verbs: build, move, attack, " in str(err.value)
    for verb in ("collect", "pass", "done", "extend", "end", "zap"):
        assert verb in str(err.value)


def test_only_text_is_notation() -> None:
    """A value that is not text is refused with its type named."""
    with pytest.raises(NotationError, match="an action is written as text, not int"):
        parse_action(42)  # type: ignore[arg-type]


def test_every_legal_action_round_trips_through_text() -> None:
    """In positions covering each decision kind, every legal action's text parses back to it."""
    state = load(
        ships={"V1": "orbit", "V2": "china", "M1": "china", "M2": "india", "T1": "orbit"},
        hands={0: [9, 12, 3], 1: [11, 10, 1], 2: [8], 3: [4]},
        active="venus",
        window="start",
    )
    seen = set()
    for line in ["0: pass", "1: pass", "2: pass", "3: pass", "attack V1 M1"]:
        for seat in state.deciders():
            seen.add(top(state))
            for action in state.legal_actions(seat):
                text = state.format_action(action)
                assert state.parse_action(text) == action
                assert text == str(action)
        force_dice(state, 9, 1)
        play(state, line)
    assert ("zap", "start") in seen and ("act", None) in seen


def test_a_second_target_ship_is_refused() -> None:
    """'attack V1 M1 M2' names two targets: it is malformed, not read as an attack on M2."""
    with pytest.raises(NotationError):
        parse_action("attack V1 M1 M2")


def test_well_formed_but_unknown_names_are_refused_at_the_table() -> None:
    """'move V9 orbit' and 'move V1 atlantis' parse, but the table refuses them and says why."""
    state = load(ships={"V1": "sunward"}, active="venus")
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="there is no spaceship V9"):
        state.apply_notation("move V9 orbit", 0)
    with pytest.raises(IllegalActionError, match="V1 cannot move to atlantis now; it may move to: orbit"):
        state.apply_notation("move V1 atlantis", 0)
    with pytest.raises(IllegalActionError, match="V1 cannot move to china now"):
        state.apply_notation("move V1 china", 0)
    with pytest.raises(IllegalActionError, match="Venus may: build, move, pass"):
        state.apply_notation("extend 3", 0)
    assert snapshot(state) == before


test_malformed_text_at_the_table_leaves_the_state_unchanged = untouched_by_malformed_test(
    lambda: load(active="venus"), ["", "move V1", "atack V1 M1", "zap x", "extend"]
)


def test_the_game_exports_the_notation() -> None:
    """GAME's states parse and format what the module parses and formats."""
    state = GAME.new_state(4, 0)
    assert state.parse_action("move V1 sunward") == parse_action("move V1 sunward")
    assert state.format_action(parse_action("zap 1 china")) == "zap 1 china"
    assert "pass" in legal(state, state.deciders()[0])


def test_refusals_of_a_ship_step_say_why() -> None:
    """why_illegal names the reason a ship's step is refused: where it may move, whose it is, acted."""
    state = load(ships={"V1": "sunward", "V2": "sunward", "M1": "sunward"}, active="venus")

    def why(text: str) -> str:
        return state.why_illegal(state.parse_action(text), 0)

    assert why("move V1 china") == "V1 cannot move to china now; it may move to: orbit, lunar, comet"
    assert why("move M1 orbit") == "M1 is commanded by Mars"
    assert why("move V3 orbit") == "V3 is not on the board"
    play(state, "move V1 orbit")
    assert why("move V1 china") == "V1 has already taken its step in this action"


def test_the_learning_catalogue_lists_the_newer_verbs() -> None:
    """The environments' action catalogue (ids) holds infected collections and releases, at its end."""
    from parlour.games.venus_needs_men.board import load_board
    from parlour.games.venus_needs_men.catalogue import action_catalogue
    from parlour.games.venus_needs_men.factions import load_factions
    from parlour.games.venus_needs_men.tech import load_tech

    ids = action_catalogue(load_board(), load_factions(), GAME.zap({}), load_tech())
    assert len(set(ids)) == len(ids)
    for text in ("collect M1 infected", "collect G1 india infected", "release V2", "release G6"):
        assert text in ids
    assert ids.index("release V2") > ids.index("zap 36 E4")
    assert {text.split()[0] for text, _ in EVERY_VERB} <= {text.split()[0] for text in ids}
