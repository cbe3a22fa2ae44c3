"""I'm the Boss!'s action notation: every verb round-trips, forms are canonical, errors say what is wrong."""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalActionError, NotationError
from parlour.games.im_the_boss import GAME, format_action, parse_action
from parlour.games.im_the_boss.actions import (
    ACTIONS,
    Accept,
    Agree,
    BossCard,
    Call,
    Deal,
    Discard,
    Draw,
    Drop,
    Fail,
    Include,
    Lay,
    Marker,
    Offer,
    Pass,
    Recruit,
    Refuse,
    Roll,
    StopCard,
    Tip,
    Travel,
    Use,
    Withdraw,
)
from parlour.testing.kit import snapshot

from ..notation import canonical_test, round_trip_test, untouched_by_malformed_test
from .scenario import load, negotiation

EVERY_VERB = [
    ("marker 16", Marker(16)),
    ("deal", Deal()),
    ("roll", Roll()),
    ("draw", Draw()),
    ("discard clan:R", Discard("clan:R")),
    ("discard travel:any", Discard("travel:any")),
    ("discard travel:Y", Discard("travel:Y")),
    ("discard recruit", Discard("recruit")),
    ("discard boss", Discard("boss")),
    ("discard stop", Discard("stop")),
    ("recruit G", Recruit("G")),
    ("lay M", Lay("M")),
    ("offer O 3", Offer("O", 3)),
    ("offer O 0", Offer("O", 0)),
    ("withdraw O", Withdraw("O")),
    ("accept B @2", Accept("B", 2)),
    ("include Y @1 4", Include("Y", 1, 4)),
    ("use R", Use("R")),
    ("drop R", Drop("R")),
    ("tip @3 2", Tip(3, 2)),
    ("agree", Agree()),
    ("refuse", Refuse()),
    ("travel R", Travel("R")),
    ("travel R @0", Travel("R", 0)),
    ("boss", BossCard()),
    ("stop", StopCard()),
    ("pass", Pass()),
    ("call", Call()),
    ("fail", Fail()),
]


test_every_verb_round_trips = round_trip_test(parse_action, format_action, EVERY_VERB)


def test_the_table_covers_every_verb() -> None:
    """Each verb of the notation has a round-trip case above (a new verb needs one)."""
    assert {type(a) for _, a in EVERY_VERB} == set(ACTIONS)


LOOSE_FORMS = [
    ("Include r @2 5", "include R @2 5"),
    ("  OFFER   b   7 ", "offer B 7"),
    ("travel y @1", "travel Y @1"),
    ("Discard Clan:g", "discard clan:G"),
    ("discard TRAVEL:ANY", "discard travel:any"),
    ("discard Travel:o", "discard travel:O"),
    ("discard BOSS", "discard boss"),
    ("offer R 007", "offer R 7"),
    ("Pass", "pass"),
]
"""Loose forms and the canonical form each reads as."""
test_loose_forms_read_as_the_canonical_one = canonical_test(parse_action, format_action, LOOSE_FORMS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("   ", "empty action"),
        ("haggle R 3", "unknown verb 'haggle'"),
        ("offer R", "'offer' takes a colour, a number, not 1 argument"),
        ("offer R 3 4", "'offer' takes a colour, a number, not 3 argument"),
        ("deal now", "'deal' takes no arguments, not 1 argument"),
        ("accept R", "'accept' takes a colour, a seat @S, not 1 argument"),
        ("travel", "'travel' takes a colour, a seat @S (optional), not 0 argument"),
        ("travel R @1 @2", "'travel' takes a colour, a seat @S (optional), not 3 argument"),
        ("lay red", "'red' is not a colour letter"),
        ("lay 3", "'3' is not a colour letter"),
        ("lay é", "'é' is not a colour letter"),
        ("accept R 2", "'2' is not a seat: write @0, @1"),
        ("accept R @", "'@' is not a seat"),
        ("accept R @x", "'@x' is not a seat"),
        ("tip @1 -2", "'-2' is not a whole number"),
        ("offer R 2.5", "'2.5' is not a whole number"),
        ("offer R ３", "'３' is not a whole number"),
        ("offer R 1234567", "'1234567' is not a whole number"),
        ("marker five", "'five' is not a whole number"),
        ("include R 2 @1", "'2' is not a seat"),
        ("discard clan", "'clan' is not a card"),
        ("discard boss:R", "'boss:R' is not a card"),
        ("discard money", "'money' is not a card"),
        ("discard clan:red", "'red' is not a colour letter"),
        ("tip @100 1", "'@100' is not a seat"),
        # Past Python's 4,300-digit limit int() raises ValueError: long numbers are refused before.
        ("tip @" + "9" * 5000 + " 1", "is not a seat"),
        ("offer R " + "9" * 5000, "is not a whole number"),
    ],
)
def test_malformed_text_is_refused_with_a_helpful_message(text: str, message: str) -> None:
    """Malformed text raises NotationError whose message names what was wrong and what was expected."""
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert message in str(err.value)


def test_an_unknown_verb_lists_the_verbs() -> None:
    """The error for an unknown verb lists the verbs there are."""
    with pytest.raises(NotationError, match="verbs: marker, deal, roll, draw, discard"):
        parse_action("bribe")


def test_only_text_is_notation() -> None:
    """A value that is not text is refused with its type named."""
    with pytest.raises(NotationError, match="an action is written as text, not int"):
        parse_action(42)  # type: ignore[arg-type]


def test_the_state_speaks_the_same_notation() -> None:
    """The state's parse and format are the module's, and legal actions all round-trip through text."""
    state = negotiation(hands=[["clan:R", "travel:any", "boss"], ["stop", "clan:O"], ["recruit"] * 3])
    for seat in state.deciders():
        for action in state.legal_actions(seat):
            text = state.format_action(action)
            assert state.parse_action(text) == action
            assert text == str(action)


def test_a_well_formed_but_unknown_colour_is_refused_at_the_table() -> None:
    """'lay X' parses (the notation knows no content), but the table refuses it naming the colours."""
    state = negotiation(hands=[["clan:R"], [], []])
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="there is no colour X"):
        state.apply_notation("lay X", 0)
    assert snapshot(state) == before


test_malformed_text_at_the_table_leaves_the_state_unchanged = untouched_by_malformed_test(
    load, ["", "roll 3", "dael", "offer R x"]
)


def test_the_game_exports_the_notation() -> None:
    """GAME's states parse what parse_action parses."""
    state = GAME.new_state(3, 0)
    assert state.parse_action("marker 3") == parse_action("marker 3")
