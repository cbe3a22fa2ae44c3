"""The tutorial engine: answers to the learner's actions, the closing game, and hostile tutorial files."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from parlour.core.registry import load_game
from parlour.tutorials.engine import Outcome, Tutorial
from parlour.tutorials.files import TUTORIAL, read_data
from parlour.tutorials.format import MAX_BYTES, TutorialError

GAME = load_game("venture")
DATA: Any = read_data(GAME, TUTORIAL)


def fresh() -> Tutorial:
    """Returns Venture's tutorial, started."""
    tutorial = Tutorial.from_data(GAME, copy.deepcopy(DATA))
    tutorial.start()
    return tutorial


def refused(data: Any) -> str:
    """Returns the one-line refusal of a tutorial file's JSON."""
    with pytest.raises(TutorialError) as caught:
        Tutorial.from_bytes(GAME, json.dumps(data).encode())
    message = str(caught.value)
    assert "\n" not in message and len(message) < 400
    return message


def test_the_intended_action_moves_on() -> None:
    tutorial = fresh()
    first = tutorial.step
    assert first is not None and first.number == 1
    answer = tutorial.try_action("  TAKE rr-cd ")
    assert answer.outcome is Outcome.MOVED
    assert "seat 0 takes over RR-CD for 12 (owes 12)" in answer.events
    assert tutorial.step is not None and tutorial.step.number == 2


def test_another_legal_action_is_answered_with_the_wanted_one_and_changes_nothing() -> None:
    tutorial = fresh()
    before = tutorial.current().to_position()
    answer = tutorial.try_action("take OI-E")
    assert answer.outcome is Outcome.WANTED
    assert answer.message.startswith("The tutorial wanted 'take RR-CD' here: ")
    assert tutorial.current().to_position() == before
    assert tutorial.step is not None and tutorial.step.number == 1


def test_an_illegal_action_gets_the_engines_reason() -> None:
    tutorial = fresh()
    state = tutorial.current()
    before = state.to_position()
    answer = tutorial.try_action("take SH-AF")
    assert answer.outcome is Outcome.ILLEGAL
    reason = state.why_illegal(state.parse_action("take SH-AF"), 0)
    assert reason and reason in answer.message
    assert tutorial.current().to_position() == before


def test_text_that_is_no_action_is_refused_with_the_notation_error() -> None:
    tutorial = fresh()
    answer = tutorial.try_action("take ZZ-Q")
    assert answer.outcome is Outcome.UNREADABLE and "no corporation ZZ-Q" in answer.message


def test_hints_name_the_wanted_action_then_the_bots_choice_in_the_game() -> None:
    tutorial = fresh()
    assert tutorial.hints()[-1] == "Type: take RR-CD"
    for step in tutorial.script.steps:
        tutorial.try_action(step.intended[0])
    assert tutorial.in_final and tutorial.step is None
    assert tutorial.hints()[-1].startswith("The greedy bot would play: ")


def test_the_closing_game_plays_to_its_end_against_the_bot() -> None:
    tutorial = fresh()
    for step in tutorial.script.steps:
        tutorial.try_action(step.intended[0])
    state = tutorial.current()
    answer = tutorial.try_action("fly away")
    assert answer.outcome is Outcome.UNREADABLE
    for _ in range(2000):
        if state.is_over():
            break
        legal = [state.format_action(a) for a in state.legal_actions(tutorial.learner)]
        # Discarding keeps the game short and always legal at a turn's start.
        text = next((t for t in legal if t.startswith("discard")), legal[0])
        answer = tutorial.try_action(text)
        assert answer.outcome in (Outcome.PLAYED, Outcome.OVER)
    assert state.is_over() and answer.outcome is Outcome.OVER
    assert tutorial.try_action("end").outcome is Outcome.OVER


# ------------------------------------------------------------------ hostile files
def test_an_unknown_key_is_refused_naming_the_step() -> None:
    data = copy.deepcopy(DATA)
    data["steps"][2]["colour"] = "red"
    assert refused(data) == "step 3 (conglomerate): unknown key 'colour' in the step"


def test_a_step_without_text_is_refused() -> None:
    data = copy.deepcopy(DATA)
    del data["steps"][4]["text"]
    assert refused(data) == "step 5 (pay-with-a-set): the step lacks 'text'"


def test_an_illegal_intended_action_is_refused_with_the_reason() -> None:
    data = copy.deepcopy(DATA)
    data["steps"][1]["intended"] = ["take SH-AF"]
    message = refused(data)
    assert message.startswith("step 2 (second-corporation): intended action 'take SH-AF' is not legal: ")
    assert "not in the center" in message


def test_an_illegal_setup_action_is_refused() -> None:
    data = copy.deepcopy(DATA)
    data["steps"][13]["setup"]["actions"][0] = "discard 20"
    message = refused(data)
    assert message.startswith("step 14 (proxy-half): setup action 1 'discard 20': ")


def test_a_forced_order_naming_a_card_not_in_the_pile_is_refused() -> None:
    data = copy.deepcopy(DATA)
    data["steps"][0]["setup"]["chance"][1]["value"][:3] = ["profit", "profit", "profit"]
    assert "the pile does not hold" in refused(data)


def test_a_step_that_does_not_ask_the_learner_is_refused() -> None:
    data = copy.deepcopy(DATA)
    data["steps"][5]["after"] = ["take SH-F"]
    assert refused(data) == "step 7 (draw-and-grow): the learner's seat is not asked to act"


def test_an_illegal_action_after_the_intended_one_is_refused() -> None:
    data = copy.deepcopy(DATA)
    data["steps"][5]["after"][0] = "take RR-CD"
    message = refused(data)
    assert message.startswith("step 6 (no-change): after action 1 'take RR-CD': ")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.update(format="other/1"), "the tutorial's format must be 'parlour-tutorial/1'"),
        (lambda d: d.update(players=True), "players: must be a whole number from 1 to 16"),
        (lambda d: d.update(steps=[]), "steps must be a list of 1 to 60 steps"),
        (
            lambda d: d["steps"][0].update(title="a\x1bb"),
            "step 1 (take-over): title: holds a control character",
        ),
        (lambda d: d["steps"][0].pop("setup"), "step 1 (take-over): the first step must have a setup"),
        (
            lambda d: d["steps"][3].update(id="take-over"),
            "step 4 (take-over): the id is used by another step",
        ),
        (
            lambda d: d["final"].update(bots={}),
            "final: bots: must name a bot for every seat but the learner's",
        ),
        (lambda d: d["final"].update(bots={"1": "nobody"}), "final: no bot 'nobody' for venture"),
        (lambda d: d["final"]["options"].update(max_turns="lots"), "final: "),
        (lambda d: d["final"].update(hint_bot="ismcts:3600s"), "final: 'ismcts:3600s': a tutorial's bots"),
    ],
)
def test_malformed_files_are_refused_in_one_line(change: Any, expected: str) -> None:
    data = copy.deepcopy(DATA)
    change(data)
    assert refused(data).startswith(expected)


def test_a_file_too_large_or_not_json_is_refused() -> None:
    with pytest.raises(TutorialError, match="larger than 256 KiB"):
        Tutorial.from_bytes(GAME, b" " * (MAX_BYTES + 1))
    with pytest.raises(TutorialError, match="not valid JSON"):
        Tutorial.from_bytes(GAME, b"{")
    with pytest.raises(TutorialError, match="not UTF-8"):
        Tutorial.from_bytes(GAME, b"\xff")
    with pytest.raises(TutorialError, match="usable JSON"):
        Tutorial.from_bytes(GAME, b"[" * 100_000 + b"]" * 100_000)


def test_a_tutorial_for_another_game_is_refused() -> None:
    data = copy.deepcopy(DATA)
    data["game"] = "embers"
    assert refused(data) == "the tutorial is for 'embers', not 'venture'"


def test_the_step_as_a_front_end_shows_it() -> None:
    tutorial = fresh()
    shown = tutorial.step_json()
    assert shown["number"] == 1 and shown["total"] == len(tutorial.script.steps)
    assert shown["highlight"] == [".vt-center", '[data-corp="RR-CD"]'] and "intended" not in shown
    assert json.loads(json.dumps(shown)) == shown
    for step in tutorial.script.steps:
        tutorial.try_action(step.intended[0])
    assert tutorial.step_json()["final"] is True


BOSS = load_game("im-the-boss")
BOSS_DATA: Any = read_data(BOSS, TUTORIAL)


def test_an_action_may_name_its_seat_in_an_open_window() -> None:
    """In a negotiation every seat may act, the Boss listed first: 'seat S: ACTION' plays it for S."""
    data = copy.deepcopy(BOSS_DATA)
    step = next(s for s in data["steps"] if s["id"] == "use-clan")
    assert step["after"] == ["seat 1: offer M 5"]
    tutorial = Tutorial.from_data(BOSS, data)
    tutorial.start()
    while tutorial.step is not None and tutorial.step.id != "use-clan":
        tutorial.try_action(tutorial.step.intended[0])
    answer = tutorial.try_action("use G")
    assert "Seat 1 offers M for 5 million." in answer.events
    step["after"] = ["offer M 5"]  # unnamed, the first seat listed (the Boss, the learner) would play it
    with pytest.raises(TutorialError, match=r"^step 9 \(use-clan\): after action 1 'offer M 5': "):
        Tutorial.from_data(BOSS, copy.deepcopy(data))
    step["after"] = ["seat 5: offer M 5"]
    with pytest.raises(TutorialError, match="seat 5 is not asked to act now"):
        Tutorial.from_data(BOSS, copy.deepcopy(data))
