"""Every tutorial shipped walks through: staged positions legal, intended actions legal, quotes verbatim,
highlights drawn, and the text naming only what is on the learner's table."""

from __future__ import annotations

import random

import pytest

from parlour.core.errors import ParlourError
from parlour.core.registry import load_game
from parlour.tutorials.engine import Outcome, Tutorial
from parlour.tutorials.files import split_name, tutorial_games, tutorial_names
from parlour.tutorials.format import Step
from tutorials.walker import (
    content_names,
    drawing,
    highlight_problem,
    named_in,
    quote_problem,
    rulebook,
    seen_names,
)

GAMES = tutorial_names()
"""Every shipped tutorial: each game's (``venture``) and each add-on (``venus-needs-men/enhanced``)."""
STEPS = {"": (15, 30), "add-on": (5, 10)}
"""How many steps a game's tutorial has, and an add-on (a variant taught after it)."""


def test_venture_has_a_tutorial() -> None:
    assert "venture" in tutorial_games() and "venture" in GAMES


def test_venus_needs_men_has_its_basic_tutorial_and_the_enhanced_add_on() -> None:
    assert {"venus-needs-men", "venus-needs-men/enhanced"} <= set(GAMES)
    assert Tutorial.load("venus-needs-men/enhanced").script.options.get("game") == "enhanced"


@pytest.mark.parametrize("name", GAMES)
def test_tutorial_walks_through(name: str) -> None:
    tutorial = Tutorial.load(name)
    game_name, part = split_name(name)
    low, high = STEPS["add-on" if part else ""]
    assert low <= len(tutorial.script.steps) <= high
    game = load_game(game_name)
    book = rulebook(game_name)
    source = drawing(game_name)
    problems: list[str] = []
    step: Step | None = tutorial.start()
    while (step := tutorial.step) is not None:
        state = tutorial.current()
        seat = tutorial.learner
        label = step.label()
        assert seat in state.deciders(), label
        # The staged position is a legal position: it is written and read back unchanged.
        assert game.state_from_position(state.to_position()).to_position() == state.to_position(), label
        for text in step.intended:
            assert state.is_legal(state.parse_action(text), seat), f"{label}: {text}"
        visible = seen_names(state, seat)
        names = content_names(state)
        for name_said in named_in(step.text, names):
            if name_said not in visible:
                problems.append(f"{label}: the text names {name_said}, which the learner cannot see")
        for selector in step.highlight:
            if problem := highlight_problem(source, selector, visible):
                problems.append(f"{label}: highlight {problem}")
        if book is not None and (problem := quote_problem(book, step.quote.section, step.quote.text)):
            problems.append(f"{label}: quote {problem}")
        answer = tutorial.try_action(step.intended[0])
        assert answer.outcome is Outcome.MOVED, f"{label}: {answer.message}"
    assert tutorial.in_final and not tutorial.current().is_over()
    final_quote = tutorial.script.final.quote
    if book is not None and final_quote is not None:
        problem = quote_problem(book, final_quote.section, final_quote.text)
        problems += [f"final: quote {problem}"] if problem else []
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", GAMES)
def test_every_acceptable_action_moves_on(name: str) -> None:
    """Each alternative of a step is legal and moves on; the next step's intended action stays legal."""
    reference = Tutorial.load(name)
    for index, step in enumerate(reference.script.steps):
        for text in step.intended[1:]:
            tutorial = Tutorial(reference.game, reference.script)
            tutorial.start()
            for earlier in reference.script.steps[:index]:
                tutorial.try_action(earlier.intended[0])
            assert tutorial.try_action(text).outcome is Outcome.MOVED, f"{step.label()}: {text}"
            following = tutorial.step
            if following is not None and following.setup is None:
                state = tutorial.current()
                action = state.parse_action(following.intended[0])
                assert state.is_legal(action, tutorial.learner), f"{following.label()} after {text}"


@pytest.mark.parametrize("name", GAMES)
def test_view_shows_only_the_learners_knowledge(name: str) -> None:
    """The table shown at each staged step is the same whatever the cards hidden from the learner are."""
    tutorial = Tutorial.load(name)
    tutorial.start()
    rng = random.Random(5)
    while (step := tutorial.step) is not None:
        state = tutorial.current()
        assert tutorial.view() == state.render(tutorial.learner)
        other = state.determinize(tutorial.learner, rng)
        assert other.render(tutorial.learner) == tutorial.view(), step.label()
        tutorial.try_action(step.intended[0])


@pytest.mark.parametrize("name", GAMES)
def test_every_other_legal_action_is_wanted_another_and_changes_nothing(name: str) -> None:
    tutorial = Tutorial.load(name)
    tutorial.start()
    while (step := tutorial.step) is not None:
        state = tutorial.current()
        before = state.to_position()
        wanted = {state.format_action(state.parse_action(text)) for text in step.intended}
        for action in state.legal_actions(tutorial.learner):
            text = state.format_action(action)
            if text not in wanted:
                answer = tutorial.try_action(text)
                assert answer.outcome is Outcome.WANTED, f"{step.label()}: {text}"
                assert tutorial.current().to_position() == before and tutorial.step is step
        tutorial.try_action(step.intended[0])


@pytest.mark.parametrize("name", GAMES)
def test_actions_illegal_at_a_step_get_the_engines_reason(name: str) -> None:
    """The other steps' actions, where illegal, are refused with the engine's own reason."""
    tutorial = Tutorial.load(name)
    texts = sorted({text for step in tutorial.script.steps for text in step.intended})
    tutorial.start()
    refused = 0
    while (step := tutorial.step) is not None:
        state = tutorial.current()
        before = state.to_position()
        for text in texts:
            try:
                action = state.parse_action(text)
            except ParlourError:
                continue  # a text another step's position reads, this one does not
            if not state.is_legal(action, tutorial.learner):
                answer = tutorial.try_action(text)
                assert answer.outcome is Outcome.ILLEGAL, f"{step.label()}: {text}"
                assert state.why_illegal(action, tutorial.learner) in answer.message
                assert tutorial.current().to_position() == before
                refused += 1
        tutorial.try_action(step.intended[0])
    assert refused
