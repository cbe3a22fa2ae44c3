"""What the table is told (docs/core.md, "For people"): seat names, banners, the final scoring, why the
game ended, card texts, colours, the text board and the events of a whole turn."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from parlour.bots.registry import make_bot
from parlour.games.venus_needs_men import VenusState
from parlour.games.venus_needs_men.drawing import PLANET_COLOURS

from ..typed import VENUS as GAME
from ..typed import choose
from .scenario import load, load_enhanced, play

OPTIONS = [{"max_turns": 60}, {"game": "enhanced", "max_turns": 60}]


def random_game(players: int, seed: int, options: dict[str, object]) -> list[VenusState]:
    """Returns the states of one random game (every tenth, and the last)."""
    state = GAME.new_state(players, seed, options)
    rng = random.Random(seed)
    states = [state.clone()]
    steps = 0
    while not state.is_over():
        seat = state.deciders()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        steps += 1
        if steps % 10 == 0:
            states.append(state.clone())
    states.append(state)
    return states


def test_seats_are_named_by_their_planets() -> None:
    """seat_name: the planet (team game: both planets); turn_player: the active planet's seat."""
    state = GAME.new_state(4, 0)
    assert [state.seat_name(s) for s in range(4)] == ["Venus", "Mars", "Ganymede", "Titan"]
    assert state.turn_player() == state.active_seat == 3
    team = GAME.new_state(2, 0)
    assert [team.seat_name(s) for s in range(2)] == ["Titan & Ganymede", "Mars & Venus"]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("seed", range(12))
def test_score_steps_add_up_to_the_scores(options: dict[str, object], seed: int) -> None:
    """score_steps: each planet's population, per seat, adds up to scores(); the last line says why."""
    players = 2 + seed % 5
    end = random_game(players, seed, options)[-1]
    assert end.is_over()
    steps = end.score_steps()
    for seat in range(players):
        assert sum(s.points or 0 for s in steps if s.seat == seat) == end.scores()[seat]
        assert any(s.seat == seat and s.label.startswith(end.seat_name(seat)) for s in steps)
    assert steps[-1].seat is None and steps[-1].label == end.end_reason() != ""
    assert not re.search(r"\[|\]", " ".join(s.label for s in steps))


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("seed", range(4))
def test_the_banner_is_the_same_in_every_deal_the_seats_cannot_tell_apart(
    options: dict[str, object], seed: int
) -> None:
    """decision_summary is public: identical across every seat's determinisations, all game long."""
    rng = random.Random(seed)
    for state in random_game(4, seed, options):
        line = state.decision_summary()
        assert line and "seat " not in line
        for seat in range(4):
            assert state.determinize(seat, rng).decision_summary() == line


def test_the_end_reason_names_the_winner_and_why() -> None:
    """end_reason: the winning total reached, by planet name ('' while the game goes on)."""
    state = load(ships={"V1": "china"}, active="venus", collected={"venus": 25})
    assert state.end_reason() == ""
    play(state, "collect V1")
    assert state.end_reason() == "Venus reached 26 population, the number needed to win."
    assert state.render(None).startswith("The game is over: Venus reached 26")


def test_card_texts_cover_every_card_of_the_content() -> None:
    """card_texts: every Zap card name, every Technology, Upgrade and Special card, each saying
    where its text comes from (house texts are marked as such, never passed off as printed)."""
    state = GAME.new_state(4, 0, {"game": "enhanced"})
    texts = state.card_texts()
    names = {c.name for c in state.zap.cards.values()}
    names |= {c.name for slots in state.tech.technology.values() for c in slots.values()}
    names |= {c.name for c in state.tech.upgrades.values()} | {s.name for s in state.tech.specials.values()}
    assert set(texts) == names
    assert texts["Natural Disaster"].startswith("Zap cards 1, 14 (house text")
    assert "revised card sheet" in texts["Mind Control"] and "house text" in texts["Parasites"]
    assert all(text.strip() for text in texts.values())


def test_text_colours_name_every_planet() -> None:
    """Game.text_colours: each planet's name has a colour (distinct ones)."""
    names = [GAME.new_state(6, 0).planet(p).name for p in PLANET_COLOURS]
    assert set(names) <= set(GAME.text_colours)
    assert len({GAME.text_colours[n] for n in names}) == len(names)


@pytest.mark.parametrize("options", OPTIONS)
def test_the_text_board_fits_one_screen(options: dict[str, object]) -> None:
    """render_text: at most 30 lines of at most 100 characters for four players; no Python lists."""
    for seed in range(3):
        for state in random_game(4, seed, options):
            for seat in (None, 0, 2):
                text = state.render(seat)
                lines = text.splitlines()
                assert len(lines) <= 30 and max(map(len, lines)) <= 100, text
                assert not re.search(r"\[\d|\['", text)
                assert "seat " not in text


def test_controlled_ships_are_shown_as_controlled() -> None:
    """Mind Control in the views: V1(Mars) on the board, the observation's controlled map."""
    state = load_enhanced(ships={"M1": "china", "V1": "china"}, controlled={"V1": "mars"}, active="venus")
    assert "china: M1 V1(Mars)" in state.render(0)
    enhanced: Any = state.observation(0)["enhanced"]
    assert enhanced["controlled"] == {"V1": "mars"}


def test_events_name_players_by_planet() -> None:
    """Events of greedy games name players by planet, never 'seat N', and hold no Python list."""
    for players, options in ((4, {}), (3, {"game": "enhanced", "planets": "venus,earth,mars"})):
        state = GAME.new_state(players, 1, options)
        bots = [make_bot(GAME, "greedy", s) for s in range(players)]
        while not state.is_over():
            seat = state.deciders()[0]
            for event in state.apply(choose(bots[seat], state, seat), seat):
                assert not re.search(r"\bseat \d|\[\d|\['", event.text), event.text


STORY_VERBS = {"build", "move", "attack", "control", "collect", "infect", "purge", "research", "cycle"}
STORY_VERBS |= {"release", "zap", "extend"}


@pytest.mark.parametrize("options", [{}, {"game": "enhanced", "planets": "venus,earth,mars,titan,pluto"}])
def test_every_step_tells_the_table_what_happened(options: dict[str, str]) -> None:
    """The whole story: every step that changes the table (build, move, attack, collect, a Zap card,
    an extension, a release...) has a public event, so a log shows a bot's whole turn; the cards a
    seat draws are only in its own Event.secret."""
    players = 5 if options else 4
    for seed in range(3):
        state = GAME.new_state(players, seed, options)
        bots = [make_bot(GAME, "greedy", seed * 8 + s) for s in range(players)]
        while not state.is_over():
            seat = state.deciders()[0]
            action = choose(bots[seat], state, seat)
            events = state.apply(action, seat)
            if action.verb in STORY_VERBS:
                assert events and all(e.text for e in events), action
            for event in events:
                if "draws" in event.text:
                    assert event.seat is not None and event.secret and event.secret.startswith("drew ")
                    assert "drew" not in event.for_seat(None)
