"""What people see: the banner, why the game ended, the money step by step, card texts, colours, the board.

Every text here is public: the banner and the board must read the same in every determinisation.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from parlour.bots.registry import make_bot
from parlour.core.log import GameLog
from parlour.core.match import play_match
from parlour.core.state import Event
from parlour.games.im_the_boss import BossGameState
from parlour.games.im_the_boss.catalogue import action_catalogue
from parlour.games.im_the_boss.content import parse_content
from parlour.games.im_the_boss.people import card_texts

from ..typed import BOSS as GAME
from ..typed import playout
from .scenario import (
    CONTENT,
    everyone_passes,
    force_die,
    load,
    nego,
    negotiation,
    play,
)
from .test_negotiation import TEN_DONE, closing_space_4
from .test_properties import dealmaking_playout

SVG = "{http://www.w3.org/2000/svg}"


def greedy_game(players: int, seed: int) -> BossGameState:
    """Returns the end of a game among greedy bots."""
    agents = [make_bot(GAME, "greedy", seed * 8 + s) for s in range(players)]
    state = play_match(GAME, agents, seed).state
    assert isinstance(state, BossGameState)
    return state


def finished_games() -> list[BossGameState]:
    """Returns finished games of every kind: greedy (deal cards and end rolls), deal-making, random."""
    games = [greedy_game(3 + seed % 4, seed) for seed in range(8)]
    games += [dealmaking_playout(3 + seed % 4, seed, lambda s, i: None) for seed in range(6)]
    games += [playout(GAME, 3 + seed % 4, seed, GAME.quick_options) for seed in range(4)]
    return games


# ------------------------------------------------------------------ the final money, the end


def test_score_steps_add_up_to_the_scores_of_finished_games() -> None:
    """Each seat's steps (its share of each recorded deal) add up to its score, in every finished game."""
    games = finished_games()
    assert sum(len(g.deals) for g in games) > 20
    for state in games:
        steps = state.score_steps()
        for seat in range(state.players):
            assert sum(s.points or 0 for s in steps if s.seat == seat) == state.scores()[seat]
        assert all(s.label and "[" not in s.label for s in steps)


def test_score_steps_show_the_boss_share_and_each_payment() -> None:
    """The Boss's line is the proceeds less what it paid out; the payee's line names the Boss."""
    state = negotiation()
    closing_space_4(state)
    everyone_passes(state)
    lines = [(s.seat, s.label, s.points) for s in state.score_steps() if s.seat is not None]
    assert (0, "Boss of deal 1 (space 4, deal card 1): proceeds 6, paid out 2", 4) in lines
    assert (1, "paid by seat 0 in deal 1 (space 4, deal card 1)", 2) in lines
    assert (2, "no deal paid it", 0) in lines


def test_money_the_record_does_not_explain_gets_its_own_step() -> None:
    """A loaded position's money beyond the record of deals still adds up, on a line of its own."""
    state = load(money=[5, 0, 0])
    assert [(s.label, s.points) for s in state.score_steps() if s.seat == 0] == [
        ("money not from a recorded deal", 5)
    ]


def test_the_end_reason_names_the_roll() -> None:
    """The end roll's number and the deal card's numbers; the record keeps the roll."""
    state = negotiation(covered=TEN_DONE)
    assert state.end_reason() == ""
    closing_space_4(state)
    force_die(state, 1)
    everyone_passes(state)
    assert state.deals[-1]["roll"] == 1
    assert state.end_reason() == "Seat 0 rolled 1 after deal 10: deal card 10 ends the game on 1."
    assert state.decision_summary() == "The game is over. " + state.end_reason()
    assert GAME.state_from_position(state.to_position()).end_reason() == state.end_reason()


def test_a_roll_that_misses_stays_in_the_record() -> None:
    """A missed end roll is recorded too, and the game goes on (no end reason)."""
    state = negotiation(covered=TEN_DONE)
    closing_space_4(state)
    force_die(state, 4)
    everyone_passes(state)
    assert state.deals[-1]["roll"] == 4 and state.end_reason() == ""


def test_the_end_reason_names_the_last_deal_card() -> None:
    """The fifteenth deal ends the game: the reason says the last deal card was placed."""
    covered = {n: n for n in range(1, 15) if n != 4}
    covered[16] = 4
    state = negotiation(covered=covered)
    closing_space_4(state)
    everyone_passes(state)
    assert state.end_reason() == "The last deal card (15) was placed: the game ends after it."


def test_the_end_reason_names_the_turn_limit() -> None:
    """Ruling B-3: at the turn limit the reason names it."""
    state = load(options={"max_turns": 1})
    play(state, "0: roll", "0: draw")
    assert state.is_over()
    assert state.end_reason() == "The turn limit (1 turns) was reached (ruling B-3)."


# ------------------------------------------------------------------ the banner and the turn


def test_the_banner_of_a_negotiation_says_who_may_bargain_and_call() -> None:
    """The negotiation's banner: the deal, who may bargain, whether the Boss may call."""
    state = negotiation()
    deal = "negotiation for the space 4 deal (R O, 6 million)"
    assert state.decision_summary() == (
        f"{deal}: everyone may bargain; the Boss, seat 0, may call once agreed terms cover the space"
    )
    play(state, "1: offer O 2", "0: accept O @1")
    assert state.decision_summary() == f"{deal}: everyone may bargain; the Boss, seat 0, may call"
    play(state, "0: pass")
    assert state.decision_summary() == f"{deal}: seats 1, 2 may bargain; the Boss, seat 0, has passed"
    everyone_passes(state)
    assert state.decision_summary() == (
        f"{deal}: everyone has passed; the Boss, seat 0, may call, fail or bargain on"
    )


def test_the_quiet_bosss_choices_are_told_as_they_are() -> None:
    """A quiet Boss out of actions with terms that do not stand may only fail: banner and event say so."""
    state = negotiation(options={"negotiation_limit": 1})
    play(state, "0: tip @1 1")
    told = story(state, "0: pass", "1: pass", "2: pass")
    assert told == ["Everyone has passed: only the Boss, seat 0, is asked (fail)."]
    assert state.decision_summary().endswith("everyone has passed; the Boss, seat 0, may fail")


def test_the_banner_of_a_stop_window_names_the_play() -> None:
    """'Stop window: seats 2, 0 may stop seat 1's Travel on the R placard'."""
    state = negotiation(hands=[[], ["travel:R"], []])
    play(state, "1: travel R")
    assert state.decision_summary() == "Stop window: seats 2, 0 may stop seat 1's Travel on the R placard"


def test_the_banner_of_turns_and_the_closing_round() -> None:
    """The turn's choice names the deal under the marker; the closing round names the seat asked."""
    state = load(marker=4)
    assert state.decision_summary() == (
        "seat 0's turn: try the space 4 deal (R O, 6 million) where the marker stands, or roll"
    )
    assert state.turn_player() == 0
    state = negotiation()
    closing_space_4(state)
    assert state.decision_summary() == (
        '"going once, going twice": closing round of the space 4 deal (R O, 6 million), called by the Boss, '
        "seat 0: seat 1 may play a card or pass (then seat 2)"
    )
    fresh = GAME.new_state(4, 1)
    assert fresh.turn_player() is None
    assert fresh.decision_summary().startswith(f"seat {fresh.deciders()[0]} places the marker")


def public_texts(state: BossGameState) -> tuple[str, str]:
    """Returns the banner and the board drawing."""
    return state.decision_summary(), GAME.board_svg(state)


def determinised_states(games: int, every: int, seed: int) -> list[tuple[BossGameState, list[BossGameState]]]:
    """Returns states of deal-making games (3, 4... players), every ``every`` actions, each with one
    determinisation per seat (seat order)."""
    rng = random.Random(seed)
    found: list[tuple[BossGameState, list[BossGameState]]] = []

    def keep(state: BossGameState, step: int) -> None:
        if step % every == 0:
            found.append((state.clone(), [state.determinize(seat, rng) for seat in range(state.players)]))

    for game in range(games):
        dealmaking_playout(3 + game, game, keep)
    return found


@pytest.mark.slow
def test_the_banner_and_board_are_equal_across_determinisations() -> None:
    """Neither the banner nor the board depends on a hidden card: each seat's determinisations agree."""
    checked = 0
    for state, copies in determinised_states(3, 5, seed=5):
        seen = public_texts(state)
        assert all(public_texts(copy) == seen for copy in copies)
        checked += 1
    assert checked > 30


# ------------------------------------------------------------------ cards, colours, the board


def test_card_texts_cover_every_card_and_deal_card_from_the_content() -> None:
    """Every card kind in the deck and every deal card has a text, filled in and counted."""
    texts = GAME.new_state(3, 0).card_texts()
    assert set(CONTENT.cards) | {f"deal card {n}" for n in range(1, 16)} == set(texts)
    assert not [name for name, text in texts.items() if "{" in text or "[" in text]
    assert "Clan card of the Red clan (Cashman, R)" in texts["clan:R"] and "4 in the deck" in texts["clan:R"]
    assert "play it" not in texts["travel:any"] and "3 in the deck" in texts["travel:any"]
    assert "STOP card cannot be played to cancel another STOP card" in texts["stop"]
    assert "4 million a dividend" in texts["deal card 10"] and "On its back: 1;" in texts["deal card 10"]
    assert "House values" in texts["deal card 1"]
    assert "the game ends after its deal" in texts["deal card 15"]


def test_a_content_set_may_give_its_own_texts_and_none_is_ever_invented() -> None:
    """A set's own card_texts win over the house ones; where neither has a text, the text says so."""
    data = GAME.content_set("content", GAME.options({})).data()
    assert isinstance(data, dict)
    data["card_texts"] = {"kinds": {"boss": "My edition's Boss card."}, "deal_card": "Card {number}: {value}"}
    own = card_texts(parse_content(data))
    assert own["boss"] == "My edition's Boss card. 10 in the deck."
    assert own["deal card 3"].startswith("Card 3: 2") and "Stop card" in own["stop"]
    bare = card_texts(parse_content(GAME.content_set("content", GAME.options({})).data()), ({}, ""))
    assert bare["boss"] == "boss: this content set gives no text for this card (10 in the deck)."
    assert "this content set gives no text" in bare["deal card 3"]


def test_the_house_texts_leave_the_house_content_digest_alone() -> None:
    """Texts live in their own file: records naming the house content set by digest keep loading."""
    data = GAME.content_set("content", GAME.options({})).data()
    assert isinstance(data, dict) and "card_texts" not in data


def test_text_colours_give_each_clan_a_distinct_colour() -> None:
    """Each clan's letter, colour name and surname has its colour; six distinct colours."""
    colours = GAME.text_colours
    for investor in CONTENT.investors:
        assert colours[investor.colour] == colours[investor.name] == colours[investor.investor]
        assert re.fullmatch(r"#[0-9A-F]{6}", colours[investor.colour])
    assert len({colours[c] for c in CONTENT.colours}) == 6


def test_the_board_svg_parses_and_shows_every_space_the_marker_and_the_placards() -> None:
    """The board: 16 spaces, covered deals, the marker, who holds each placard, the open deal."""
    state = negotiation(space=8, covered={1: 1, 2: 2})
    play(state, "1: offer G 2")
    root = ET.fromstring(GAME.board_svg(state))
    ids = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert {f"space-{n}" for n in range(1, 17)} <= ids
    assert {f"placard-{c}" for c in CONTENT.colours} <= ids and "negotiation" in ids
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "covered by deal card 1" in words and "covered by deal card 2" in words
    assert "Open deal: space 8" in words and "needs M G + 1 of B Y" in words
    assert "Red: seat 0" in words and "Blue: seat 2" in words
    marker = [g for g in root.iter(f"{SVG}g") if g.find(f"{SVG}circle") is not None]
    assert [g.get("id") for g in marker] == ["space-8"]
    bare = ET.fromstring(GAME.board_svg())
    words = " ".join(t.text or "" for t in bare.iter(f"{SVG}text"))
    assert "Red: Cashman" in words and "seat" not in words and "Space 16" in words


@pytest.mark.parametrize("players", [3, 6])
def test_the_board_never_shows_a_hand(players: int) -> None:
    """The drawing holds no card of any hand (only public information)."""
    state = GAME.new_state(players, 2)
    svg = GAME.board_svg(state)
    assert "clan:" not in svg and "travel:" not in svg and "recruit" not in svg.lower()


def test_the_board_rows_keep_the_dividends_in_one_column() -> None:
    """Every board row of the rendered table puts 'div' at the same column."""
    rows = [line for line in load().render(0).splitlines() if re.match(r" [ >]\[", line)]
    assert len(rows) == 16
    assert len({row.index(" div") for row in rows}) == 1


def test_the_rules_summary_names_every_verb_and_reads_as_plain_text() -> None:
    """'help' shows every verb of the notation, with no bracket a markup reader could take for a tag."""
    summary = GAME.rules_summary
    verbs = {text.split()[0] for text in action_catalogue(CONTENT, 3)}
    assert not [v for v in sorted(verbs) if f"'{v}" not in summary and f"  {v}" not in summary]
    assert "[" not in summary and "travel C @S" in summary
    assert all(len(line) <= 78 for line in summary.splitlines())


# ------------------------------------------------------------------ the story the events tell


def story(state: BossGameState, *lines: str, viewer: int | None = None) -> list[str]:
    """Applies actions in notation through a GameLog; returns every event line as ``viewer`` sees it."""
    log = GameLog()
    for line in lines:
        seat, _, text = line.partition(":")
        log.apply(state, state.parse_action(text.strip()), int(seat))
    return [text for entry in log for text in entry.lines(viewer)]


def test_the_events_tell_the_whole_negotiation() -> None:
    """Offers, proposals, refusals, a Travel and its Stop, the quiet Boss, the call with its terms, the
    closing with the investors used, the payments and who moves next: all in the events."""
    state = negotiation(hands=[[], ["stop", "clan:O"], ["travel:O"]])
    told = story(
        state,
        "1: lay O",
        "1: offer O 3",
        "0: include O @1 1",
        "1: refuse",
        "2: travel O",
        "0: pass",
        "1: stop",
        "0: pass",
        "1: pass",
        "2: pass",
        "0: include O @1 2",
        "1: agree",
        "0: call",
        "1: pass",
        "2: pass",
    )
    expected = [
        "Seat 1 lays an O Clan card.",
        "Seat 1 offers O for 3 million.",
        "The Boss proposes 1 million to seat 1 for O.",
        "Seat 1 refuses the terms offered to it: O struck.",
        "Seat 2 plays a Travel on the O placard.",
        "Seat 1 plays STOP: seat 2's Travel on the O placard is cancelled.",
        "Everyone has passed: only the Boss, seat 0, is asked (fail or bargain on).",
        "The Boss proposes 2 million to seat 1 for O.",
        "Seat 1 agrees to the terms (2 million).",
        "Seat 0, the Boss, calls the deal on these terms: O from seat 1 for 2 million, R from seat 0 (the "
        'Boss\'s own); the Boss keeps 4 million. "Going once, going twice..."',
        "The deal on space 4 is closed! Investors: O: seat 1's placard; R: seat 0's placard. The bank pays "
        "seat 0 6 million; the Boss pays seat 1 2 million. Deal card 1 covers the space.",
        "Unused Clan cards go back to their hands: seat 1 O.",
        "The marker moves on to space 5.",
        "Seat 1, left of the final Boss, moves next.",
    ]
    assert told == expected


def test_a_call_tells_which_lines_it_strikes_and_a_stop_window_that_nobody_uses() -> None:
    """Ruling B-4's struck lines are told; a play nobody stops is told before its effect."""
    state = negotiation(hands=[[], [], ["travel:any"]])
    told = story(state, "1: offer O 2", "0: accept O @1", "0: tip @2 1", "0: call")
    assert "Lines not agreed are struck (ruling B-4): the payment to seat 2." in told
    state = negotiation(hands=[[], [], ["travel:any"]])
    told = story(state, "2: travel R", "0: pass", "1: pass")
    assert told[-3:] == [
        "Nobody stops seat 2's Travel on the R placard.",
        "The R placard goes travelling.",
        "The R investor drops out of the terms.",
    ]


def test_the_closing_event_names_the_unit_of_each_payment() -> None:
    """'The Boss pays seat 1 2 million', not 'seat 1 2'."""
    state = negotiation(space=4, boss=0)
    play(state, "1: offer O 2", "0: accept O @1", "0: call", "1: pass")
    events = state.apply_notation("pass", 2)
    text = next(e.text for e in events if "is closed" in e.text)
    paid = text.split("the Boss pays ")[1].split(". Deal card")[0]
    assert all(re.fullmatch(r"seat \d+ \d+ million", part) for part in paid.split(", ")), text


def test_drawn_cards_are_told_only_to_their_seat_and_no_text_holds_a_python_list() -> None:
    """A draw's cards are its seat's secret; across whole games no event has brackets or braces."""
    state = load(marker=4, draw=["boss", "stop", "clan:R"])
    assert story(state, "0: roll", "0: draw", viewer=1)[-1] == "Seat 0 draws 3 cards."
    state = load(marker=4, draw=["boss", "stop", "clan:R"])
    mine = story(state, "0: roll", "0: draw", viewer=0)[-1]
    assert mine == "Seat 0 draws 3 cards. (you drew boss, stop, clan:R)"
    texts: list[str] = []

    def collect(state: object, events: list[Event]) -> None:
        texts.extend(e.for_seat(0) for e in events)

    for seed in range(6):
        agents = [make_bot(GAME, "greedy", seed * 8 + s) for s in range(3 + seed % 4)]
        texts.clear()
        play_match(GAME, agents, seed, on_events=collect)
        assert texts and not [t for t in texts if re.search(r"[\[\]{}]", t)]


def test_the_bosss_hint_says_what_the_agreed_lines_still_lack() -> None:
    """Space 9 (M O G + 2 of R B Y): with M O Y agreed the Boss still needs G and one of R B."""
    state = negotiation(space=9, placards={"R": 2, "M": 2, "O": 0, "G": 1, "B": 1, "Y": 0})
    play(state, "2: offer M 3", "0: accept M @2")
    assert state.hints(0)[-1] == "Not covered yet; still needed (agreed lines): G + 1 of R B."
    play(state, "1: offer G 2", "0: accept G @1", "1: offer B 1", "0: accept B @1")
    assert state.hints(0)[-1] == "The agreed terms cover the space: you may 'call'."


def test_the_hint_counts_a_laid_clan_card() -> None:
    """After laying its O Clan card on space 15 (M O), seat 2 is told it can bring O."""
    state = negotiation(space=15, boss=0, hands={2: ["clan:O"]})
    play(state, "2: lay O")
    assert "you can bring O yourself" in state.hints(2)[0]


def test_the_hint_does_not_count_a_travelling_placard() -> None:
    """Seat 1's O placard is sent travelling: the hint no longer says seat 1 can bring O."""
    state = negotiation(space=4, boss=0, hands={2: ["travel:O"]})
    play(state, "2: travel O")
    everyone_passes(state)
    assert "O" in nego(state).travelling
    assert "you can bring none of them yourself" in state.hints(1)[0]


def test_the_table_says_what_the_deal_still_needs() -> None:
    """The table shows everyone what the agreed lines still lack (the Boss's O and Y are in)."""
    state = negotiation(space=9, placards={"R": 2, "M": 2, "O": 0, "G": 1, "B": 1, "Y": 0})
    assert "  still needs M G + 1 of R B (in agreed lines)" in state.render(None).splitlines()
