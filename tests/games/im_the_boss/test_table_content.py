"""What the browser's drawn table is given: table_content (the board's public layout from the content
data) and the negotiation view's facts for the live panel (who can supply, what is still needed, who is
still to answer). All public: the same for every seed and every determinisation, and JSON-ready."""

from __future__ import annotations

import json
import random
from typing import Any

from parlour.games.im_the_boss import GAME, BossGameState
from parlour.games.im_the_boss.content import load_content
from parlour.games.im_the_boss.supply import suppliers
from parlour.games.im_the_boss.views import still_needed

from .scenario import load, negotiation, play
from .test_negotiation import closing_space_4
from .test_properties import dealmaking_playout


def nego_view(state: BossGameState) -> Any:
    """Returns the public view of the negotiation (JSON values)."""
    return state.public_observation()["negotiation"]


def test_table_content_is_the_same_for_every_seed_player_count_and_determinisation() -> None:
    first = GAME.new_state(3, 0).table_content()
    for players, seed in ((3, 1), (4, 7), (6, 42)):
        state = GAME.new_state(players, seed, {"length": "short"})
        assert state.table_content() == first
        for viewer in range(players):
            assert state.determinize(viewer, random.Random(seed)).table_content() == first
    assert json.loads(json.dumps(first)) == first  # JSON-ready, nothing lost on the wire


def test_table_content_gives_every_space_as_the_content_data_prints_it() -> None:
    content = load_content()
    spaces = GAME.new_state(3, 0).table_content()["spaces"]
    assert [s["number"] for s in spaces] == list(range(1, 17))
    for drawn, space in zip(spaces, content.spaces, strict=True):
        assert drawn["text"] == space.text()
        assert drawn["required"] == space.required and drawn["dividends"] == space.dividends
        groups = [(g.colours, g.count) for g in space.groups]
        assert [(g["colours"], g["count"]) for g in drawn["groups"]] == groups
        assert drawn["needed"] == space.investors_needed()


def test_table_content_gives_the_deal_cards_values_and_end_numbers() -> None:
    content = load_content()
    cards = GAME.new_state(3, 0).table_content()["deal_cards"]
    assert [(c["number"], c["value"], c["ends"]) for c in cards] == [
        (c.number, c.value, list(c.ends)) for c in content.deal_cards
    ]
    texts = GAME.new_state(3, 0).card_texts()
    assert all(c["name"] in texts for c in cards)  # the hover text of each deal card exists


def test_every_card_and_investor_has_a_label_and_a_colour_with_readable_ink() -> None:
    table = GAME.new_state(3, 0).table_content()
    content = load_content()
    assert set(table["cards"]) == set(content.cards)
    assert sum(c["count"] for c in table["cards"].values()) == len(content.cards)
    assert table["cards"]["clan:R"]["label"] == "Clan R (Red)"
    assert table["cards"]["travel:any"]["label"] == "Travel (any investor)"
    assert [i["colour"] for i in table["investors"]] == list(content.colours)
    for item in [*table["investors"], *table["cards"].values()]:
        assert item["fill"].startswith("#") and item["ink"] in ("#1a1a1a", "#ffffff")
    yellow = next(i for i in table["investors"] if i["colour"] == "Y")
    assert yellow["ink"] == "#1a1a1a"  # dark letters on the light yellow


def test_the_negotiation_view_says_who_can_supply_and_what_the_agreed_lines_still_lack() -> None:
    state = negotiation(space=4, boss=0)  # R O; seat 0 holds R, seat 1 holds O
    view = nego_view(state)
    assert view["suppliers"] == {c: suppliers(state, c) for c in "RO"}
    assert view["still_needs"] == still_needed(state.space(3), {"R"}) == "O"
    assert view["stands"] is False and view["keeps"] == view["proceeds"]
    assert view["window"] == "bargain" and view["asking"] == []
    play(state, "1: offer O 2", "0: accept O @1")
    view = nego_view(state)
    assert view["stands"] is True and view["still_needs"] == "nothing"
    assert view["keeps"] == view["proceeds"] - 2


def test_the_closing_round_lists_who_is_still_to_answer_in_order() -> None:
    state = negotiation(space=4, boss=0)
    closing_space_4(state)
    view = nego_view(state)
    assert view["window"] == "closing" and view["called"]
    assert view["asking"] == [1, 2]  # from the Boss's left: "going once, going twice"
    play(state, "1: pass")
    assert nego_view(state)["asking"] == [2]


def test_the_panel_facts_are_public_in_every_determinisation() -> None:
    """Every seat's negotiation view (with the new facts) reads the same after a re-deal of what the seat
    cannot see, at every step of deal-making games."""
    checked = 0

    def same(state: BossGameState, step: int) -> None:
        nonlocal checked
        if state.nego is None or step % 3:
            return
        for seat in range(state.players):
            view = state.observation(seat)["negotiation"]
            other = state.determinize(seat, random.Random(step)).observation(seat)["negotiation"]
            assert other == view
        checked += 1

    for seed in range(3):
        dealmaking_playout(3 + seed, seed, same)
    assert checked > 20


def test_the_marker_proceeds_are_what_the_deal_would_bring_and_the_terms_say_what_each_seat_gets() -> None:
    """Before the deal, the marker's space offers its dividends times the top deal card (space 4: R O,
    6 million, as the banner reads); once made, the negotiation's proceeds are the same and ``gets``
    is what the terms pay each seat."""
    before = load(marker=4, current=0)
    assert before.public_observation()["marker_proceeds"] == 6
    state = negotiation(space=4, boss=0)
    assert nego_view(state)["proceeds"] == 6
    play(state, "1: offer O 2", "0: accept O @1")
    assert nego_view(state)["gets"] == [0, 2, 0]
