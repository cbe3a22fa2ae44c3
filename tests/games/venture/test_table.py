"""What the table is told (people.py, board.py): the banner, the final scoring, the end, card texts,
industry colours, the board as SVG, and events that tell a whole turn."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from parlour.core.log import GameLog
from parlour.core.registry import load_game
from parlour.games.venture import VentureState
from parlour.games.venture.actions import VentureAction
from parlour.games.venture.scoring import holdings_profit
from parlour.testing import kit

from ..typed import VENTURE as GAME
from .scenario import load, play

SVG = "{http://www.w3.org/2000/svg}"


def _finished(players: int, seed: int) -> VentureState:
    """Returns a random game played to its end."""
    state = kit.playout(GAME, players, seed, {"max_turns": 150})
    assert isinstance(state, VentureState)
    return state


@pytest.mark.parametrize("seed", range(16))
def test_score_steps_add_up_to_the_scores_of_finished_games(seed: int) -> None:
    """Each seat's points in score_steps sum to its score; each earning stack is one line."""
    state = _finished(2 + seed % 5, seed)
    steps = state.score_steps()
    for seat, score in enumerate(state.scores()):
        mine = [s for s in steps if s.seat == seat]
        assert sum(s.points or 0 for s in mine) == score
        final = [s for s in mine if s.label.startswith("end of game: [")]
        assert sum(s.points or 0 for s in final) == holdings_profit(state, seat)
        assert mine[-1].points is None and mine[-1].label.startswith(f"grand total {int(score)}")
    assert steps[0].seat is None and state.end_reason() in steps[0].label


def test_score_steps_name_each_conglomerate_with_its_letters() -> None:
    """A four-card conglomerate with D and E in common earns 6 and is listed with both letters."""
    state = load(hands=[["10"], [], []], holdings={0: [["RE-DE", "OI-BCDEF", "RR-CDE", "ST-ABDE"]]})
    state.over, state.profits = True, [6, 0, 0]
    state.stock, state.center = [], []
    (line,) = [s for s in state.score_steps() if s.seat == 0 and s.label.startswith("end of game")]
    assert line.points == 6 and "4 corporations, common DE" in line.label
    assert state.end_reason().startswith("The stock is empty")


def test_the_end_reason_names_the_turn_limit() -> None:
    """A game stopped by max_turns says so; a game under way gives no reason."""
    state = GAME.new_state(3, 1, {"max_turns": 3})
    assert state.end_reason() == ""
    while not state.is_over():
        state.apply(_quiet(state))
    assert state.end_reason() == "The turn limit of 3 turns was reached (ruling A-12)."


def _quiet(state: VentureState) -> VentureAction:
    """Returns a discard (a turn without transactions) or the first action."""
    legal = state.legal_actions()
    return next((a for a in legal if str(a).startswith("discard")), legal[0])


def test_decision_summary_is_the_same_across_determinisations() -> None:
    """The banner reads public information only: re-dealing hidden cards never changes it."""
    rng = random.Random(3)
    for seed in range(3):
        for state in kit.states_along(GAME, 3, seed, every=11):
            line = state.decision_summary()
            assert line
            for seat in range(state.players):
                assert state.determinize(seat, rng).decision_summary() == line


def test_decision_summary_says_what_is_decided() -> None:
    """The turn, a placement, a reorganisation and a payment each read as themselves."""
    state = load(hands=[["20", "10"], [], []], holdings={0: [["OI-BCD"]]}, center=["ST-DF"])
    assert state.decision_summary() == "seat 0: take over, proxy fight, reorganise, or discard (turn 1)"
    play(state, "take ST-DF")
    assert state.decision_summary().startswith("seat 0 places ST-DF")
    play(state, "place on OI-BCD", "reorganise")
    assert state.decision_summary().startswith("seat 0 reorganises (0 moves so far, owing 14)")
    play(state, "done", "end")
    assert state.decision_summary() == "seat 0 pays the 14 owed (laid down: nothing yet) (turn 1)"
    assert state.turn_player() == 0


def test_decision_summary_counts_one_move_in_the_singular() -> None:
    """A reorganisation says "1 move so far", not "1 moves" (issue 31)."""
    state = load(hands=[["20", "10"], [], []], holdings={0: [["OI-BCD"]]}, center=["ST-DF"])
    play(state, "take ST-DF", "place on OI-BCD", "reorganise", "move ST-DF alone")
    assert state.decision_summary().startswith("seat 0 reorganises (1 move so far, owing 14)")


def test_card_texts_cover_every_card_of_the_deck() -> None:
    """Every corporation and every kind of resources card has a text from the deck file."""
    state = GAME.new_state(3, 0)
    texts = state.card_texts()
    names = {c.name for c in state.deck.corporations} | {r.name for r in state.deck.resources}
    assert set(texts) == names
    assert texts["ST-ABC"].startswith("Steel corporation, letters A, B, C, worth 16 million")
    assert "one-half its value" in texts["x1/2"] and "set worth 16, 32 or 64" in texts["3c"]
    assert "circle" in texts["3c"] and "square" in texts["8s"]
    assert all("gives no text" not in t for t in texts.values())


def test_a_deck_files_own_texts_take_precedence_and_a_missing_one_is_said() -> None:
    """A user's deck file may give texts; a kind no file gives says that it has none."""
    from parlour.games.venture import people
    from parlour.games.venture.content import parse_deck

    mine = parse_deck({**_house_data(), "texts": {"profit": "My copy's Profit card."}})
    texts = people.card_texts(mine)
    assert texts["profit"] == "My copy's Profit card."
    assert texts["ST-ABC"].startswith("Steel corporation")
    bare = people.card_texts(mine, house={})
    assert bare["profit"] == "My copy's Profit card."
    assert bare["10"].endswith("(this deck file gives no text for this card)")


def _house_data() -> dict[str, object]:
    """Returns the house deck file's data."""
    from parlour.games.venture.options import HOUSE_DECK

    data = HOUSE_DECK.load().data()
    assert isinstance(data, dict)
    return data


def test_text_colours_give_every_industry_a_distinct_colour() -> None:
    """Codes and names of the six industries, six different colours."""
    colours = load_game("venture").text_colours
    deck = GAME.deck(GAME.options())
    for code, name in deck.industries.items():
        assert colours[code] == colours[name]
    assert len({colours[c] for c in deck.industries}) == 6


@pytest.mark.parametrize("seed", range(3))
def test_the_board_svg_parses_and_shows_every_holding_and_no_hand(seed: int) -> None:
    """The SVG is XML; it draws each center card and each held corporation, never a hand's cards."""
    for state in kit.states_along(GAME, 2 + seed, seed, every=60):
        assert isinstance(state, VentureState)
        root = ET.fromstring(GAME.board_svg(state).split("\n", 1)[1])
        assert root.tag == f"{SVG}svg"
        drawn = [g.get("data-card", "") for g in root.iter(f"{SVG}g") if g.get("class") == "card"]
        held = [state.corp(c).name for h in state.holdings for s in h for c in s]
        assert sorted(drawn) == sorted(held)
        center = [g.get("data-card") for g in root.iter(f"{SVG}g") if g.get("class") == "center"]
        assert center == [state.corp(c).name for c in state.center]
        words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
        assert f"stock {len(state.stock)}" in words and f"deck {len(state.draw)}" in words
        for seat in range(state.players):
            assert f"score {state.profits[seat]}," in words
            assert f"{len(state.hands[seat])} cards in hand" in words


def test_the_board_is_the_same_whatever_the_hidden_cards() -> None:
    """Drawn from the public view: a determinisation draws the same board."""
    rng = random.Random(5)
    for state in kit.states_along(GAME, 3, 4, every=40):
        assert isinstance(state, VentureState)
        assert GAME.board_svg(state.determinize(0, rng)) == GAME.board_svg(state)


def test_a_log_of_events_tells_a_bots_whole_turn() -> None:
    """A greedy turn's events say what was taken, placed, paid and drawn; the cards drawn are secret."""
    from parlour.games.venture.bots import GreedyBot

    state = GAME.new_state(3, 8)
    log = GameLog()
    bot = GreedyBot(1)
    first = state.current
    while state.current == first and not state.is_over():
        action = bot.choose(state, first)
        log.apply(state, action, first)
    texts = [e.text for entry in log.entries for e in entry.events]
    assert any(t.startswith(f"seat {first} draws 2 cards") for t in texts)
    drawn = [e for entry in log.entries for e in entry.events if "draws 2 cards" in e.text]
    assert drawn[0].secret and drawn[0].seat == first and drawn[0].secret not in drawn[0].text
    if any(t.startswith(f"seat {first} takes over") for t in texts):
        assert any(f"seat {first} pays" in t for t in texts)
        assert any(f"seat {first} lays down" in t for t in texts)


def test_a_proxy_fight_and_a_profit_round_tell_the_table_what_happened() -> None:
    """The proxy fight names card, corporation, victim and cost; a scoring lists each earning stack."""
    state = load(
        hands=[["20", "10", "x1/2"], [], []],
        holdings={1: [["RR-CD", "AU-BD", "RE-D", "OI-BCD"]], 0: [["ST-DF"]]},
        draw=["profit", "10", "12"],
    )
    events = state.apply_notation("proxy x1/2 OI-BCD")
    assert events[0].text == "seat 0 plays proxy fight x1/2 and wins OI-BCD from seat 1 for 8 (owes 8)"
    play(state, "place on ST-DF")
    events = state.apply_notation("end") + state.apply_notation("pay 10") + state.apply_notation("done")
    texts = [e.text for e in events]
    assert "seat 0 draws a Profit card" in texts
    scoring = next(t for t in texts if t.startswith("profit scoring"))
    assert "seat 0 +0; seat 1 +1 from [RR-CD AU-BD RE-D] (3 corporations, common D) 1" in scoring
    assert scoring.endswith("(totals 0, 1, 0)")
