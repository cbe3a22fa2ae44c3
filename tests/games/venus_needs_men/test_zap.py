"""Zap cards (rulebook: 'Zap Cards'; rulings B-3 windows, B-4 priority, B-5 immediate actions, A-17, A-19).

The house deck by number: Natural Disaster 1 14, Alien Plague 2 15, Time Dilation 3 16, Hyperspace Jump
4 17 27, Surprise Attack 5 18 28, Rapid Deployment 6 19 29, Abduction Beam 7 20 30, Ion Storm 8 21 31,
Sabotage 9 22 32, Deflector Shield 10 23 33, Evasive Maneuvers 11 24 34, Targeting Computer 12 25 35,
Jamming 13 26 36.  Four-player positions: seat 0 Venus, 1 Mars, 2 Ganymede, 3 Titan (turn order Titan,
Venus, Mars, Ganymede).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from parlour.core.errors import IllegalActionError, PositionError
from parlour.games.venus_needs_men import VenusState, zapping
from parlour.testing import kit

from ..typed import VENUS as GAME
from .scenario import (
    ZAP,
    auto_pass,
    check,
    everyone_passes,
    kinds,
    legal,
    load,
    pass_turn,
    play,
    population_total,
    position,
    ships_at,
    top,
    window_seats,
)

EARTH_GAME = "venus,earth,mars"
"""Three players: seat 0 Venus, seat 1 Earth, seat 2 Mars; turn order Mars, Venus, Earth."""


def zaps(state: VenusState, seat: int) -> list[str]:
    """Returns the Zap plays a seat may make now."""
    return [a for a in legal(state, seat) if a.startswith("zap")]


def roll_window(dice: tuple[int, int], **hands: list[int]) -> VenusState:
    """Venus's V1 attacks Mars's M1 in Orbit with these dice; returns the state at the roll's Zap window.

    ``hands`` gives seats' hands as ``s0=[...]``, ``s1=[...]``.
    """
    state = load(
        ships={"V1": "orbit", "M1": "orbit", "V2": "sunward"},
        active="venus",
        hands={int(k[1:]): v for k, v in hands.items()},
        forced=dice,
    )
    play(state, "attack V1 M1")
    if top(state) == ("zap", "declare"):
        everyone_passes(state)  # The declaration's window (B-3): nobody answers before the roll.
        auto_pass(state)
    return state


# ------------------------------------------------------------------ the deck


def test_the_house_deck_has_the_documented_cards() -> None:
    """36 cards numbered 1–36 (the number is also the priority), each with a name, timing, effect and text."""
    assert sorted(ZAP.cards) == list(range(1, 37))
    names = {n: c.name for n, c in ZAP.cards.items()}
    assert names[1] == names[14] == "Natural Disaster" and names[2] == names[15] == "Alien Plague"
    assert names[3] == names[16] == "Time Dilation"
    assert all(c.text for c in ZAP.cards.values())


# ------------------------------------------------------------------ windows


def test_a_window_asks_every_seat_that_could_hold_a_playable_card() -> None:
    """B-3: the start window asks, from the active seat clockwise, every seat holding a Zap card (an
    unseen card would be playable by each), whatever it holds; a seat holding nothing playable may only
    pass, and a front end may pass for it."""
    state = load(
        ships={"V1": "orbit", "M1": "orbit"},
        active="mars",
        window="start",
        hands={0: [9], 1: [10, 11, 12], 2: [13, 23], 3: [6]},
    )
    assert top(state) == ("zap", "start")
    assert window_seats(state) == [1, 2, 3, 0]
    assert state.deciders() == (1,) and legal(state, 1) == ["pass"] and state.only_pass(1)
    with pytest.raises(IllegalActionError):
        state.apply_notation("pass", 0)
    assert auto_pass(state) == 2
    assert state.deciders() == (3,) and legal(state, 3) == ["pass", "zap 6"] and not state.only_pass(3)


def test_a_turns_start_window_asks_the_active_seat_alone_until_it_plays() -> None:
    """B-3: the end window of Venus's turn asks everyone; the start window of Mars's turn just after it
    asks only Mars (nothing public changed in between); once Mars plays a card, everyone may answer."""
    state = load(
        ships={"V1": "orbit", "M1": "orbit"},
        active="venus",
        turn=3,
        hands={0: [13], 1: [6, 11], 2: [9], 3: [24]},
    )
    play(state, "pass", "end")  # Venus (seat 0) holds only Jamming: passed for it.
    assert top(state) == ("zap", "end") and window_seats(state) == [1, 2, 3]
    everyone_passes(state)
    assert state.active == "mars" and top(state) == ("zap", "start") and window_seats(state) == [1]
    play(state, "1: zap 6", "1: build mars")  # Seat 1 then holds only Evasive Maneuvers: passed for it.
    assert top(state) == ("zap", "start") and window_seats(state) == [2, 3, 0]


def test_the_first_turns_start_window_asks_everyone() -> None:
    """B-3: no end window comes before the first turn, so its start window asks every seat."""
    state = GAME.new_state(4, 0)
    assert state.turn == 1 and top(state) == ("zap", "start") and window_seats(state) == [3, 0, 1, 2]


def test_who_is_asked_does_not_depend_on_the_cards_held() -> None:
    """Swapping hands between seats (hidden cards) never changes who is asked; hand sizes do: a seat
    with no Zap card is not asked."""
    hands = {0: [9], 1: [10, 11, 12], 2: [], 3: [6, 13]}
    swapped = {0: [13], 1: [6, 9, 10], 2: [], 3: [11, 12]}
    for held in (hands, swapped):
        state = load(ships={"V1": "orbit", "M1": "orbit"}, active="mars", window="start", hands=held)
        assert window_seats(state) == [1, 3, 0]


def test_no_window_opens_when_public_knowledge_says_nobody_can_play() -> None:
    """A window nobody could play in closes by itself: with every card playable at the start of a turn
    already in discard piles (face up), the turn goes straight to the action though all hold cards."""
    any_time = [n for n, card in sorted(ZAP.cards.items()) if card.timing == "any"]
    state = load(
        active="venus",
        window="start",
        hands={0: [10, 11], 1: [12, 13], 2: [3]},
        discards={3: any_time},
    )
    assert kinds(state) == ["finish", "zap", "extend", "act"] and top(state) == ("act", None)


def test_the_window_order_runs_clockwise_from_the_active_seat() -> None:
    """With the Ganymede seat (2) active, the seats are asked 2, 3, 0, 1."""
    state = load(
        ships={"V1": "orbit"}, active="ganymede", window="start", hands={0: [6], 1: [19], 2: [29], 3: [9]}
    )
    assert window_seats(state) == [2, 3, 0, 1]


def open_window(seats: list[int], hands: dict[int, list[int]], **kwargs: Any) -> dict[str, Any]:
    """Returns a position of Venus's turn with an open start window asking ``seats``."""
    data = position(ships={"V1": "orbit", "M1": "orbit"}, active="venus", hands=hands, **kwargs)
    data["decisions"].append(
        {"kind": "zap", "seats": seats, "data": {"moment": "start", "open": True}, "concurrent": False}
    )
    return data


def test_a_position_whose_window_asks_a_seat_that_cannot_play_is_refused() -> None:
    """Section 4 of issue 10: a window listing a seat that public knowledge says cannot play is refused
    (an empty hand; every card it could play already face up), as is one out of order or repeating a
    seat, or an open window under another decision; the tail of the seats to ask loads."""
    hands = {0: [9], 1: [10], 2: [], 3: [6]}
    assert GAME.load_position(json.dumps(open_window([0, 1, 3], hands))).deciders() == (0,)
    assert GAME.load_position(json.dumps(open_window([1, 3], hands))).deciders() == (1,)
    any_time = [n for n, card in sorted(ZAP.cards.items()) if card.timing == "any"]
    shown = {"hands": {0: [10], 1: [11], 2: [], 3: [12]}, "discards": {2: any_time}}
    for seats, extra in (([0, 1, 2, 3], {}), ([2], {}), ([0, 1, 3], shown), ([3, 1], {}), ([1, 1, 3], {})):
        data = open_window(seats, **{"hands": hands, **extra})
        with pytest.raises(PositionError, match=r"decisions\[4\]\.seats"):
            GAME.load_position(json.dumps(data))
    data = open_window([0, 1, 3], hands)
    data["decisions"][1] = {**data["decisions"][1], "seats": [0], "data": {"moment": "end", "open": True}}
    with pytest.raises(PositionError, match="a Zap window under another decision is closed"):
        GAME.load_position(json.dumps(data))
    for window in ({"moment": "save", "ship": "Z9"}, {"moment": "save", "ship": 5}, {"moment": "roll"}):
        data = open_window([0], hands)
        data["decisions"][-1]["data"] = {**window, "open": True}
        with pytest.raises(PositionError, match=r"^decisions"):
            GAME.load_position(json.dumps(data))


def test_the_secrecy_check_catches_windows_asked_only_of_holders(monkeypatch: pytest.MonkeyPatch) -> None:
    """The conformance kit's secrecy check fails on the rule before issue 10 (a window asked only the
    seats holding a playable card: the next seat asked told others what a seat held) and passes now."""

    def holders(state: VenusState, window: zapping.ZapWindow) -> list[int]:
        return [
            s
            for s in zapping.order_from(state, state.active_seat)
            if any(
                window.playable(state, s, state.card(c)) and zapping.targets(state, s, state.card(c))
                for c in state.hands[s]
            )
        ]

    kit.check_secrecy_along(GAME, 4, [0], 3, GAME.quick_options)
    monkeypatch.setattr(zapping, "asked", holders)
    with pytest.raises(AssertionError, match="the seats asked depend on hidden information"):
        kit.check_secrecy_along(GAME, 4, [0], 3, GAME.quick_options)


def test_a_card_without_a_target_is_not_playable() -> None:
    """Surprise Attack with nothing in range, Abduction Beam with no ship on a populated area, Sabotage with
    no enemy ship on the board, Natural Disaster with Earth empty: none is offered (the seat is asked,
    as it could hold another card, and may only pass)."""
    state = load(ships={"V1": "sunward", "M1": "lunar"}, active="venus", window="start", hands={0: [5, 7]})
    assert window_seats(state) == [0] and legal(state, 0) == ["pass"]
    state = load(ships={"G1": "orbit"}, active="venus", window="start", hands={2: [9]})
    assert window_seats(state) == [2] and legal(state, 2) == ["pass"]
    empty = {
        a: 0 for a in ("china", "india", "europe", "africa", "namerica", "australia", "russia", "samerica")
    }
    state = load(ships={"V1": "orbit"}, active="venus", window="start", hands={1: [1, 9]}, population=empty)
    assert window_seats(state) == [1] and zaps(state, 1) == ["zap 9 V1"]


def test_a_play_restarts_the_window() -> None:
    """After a card is played every seat that could play is asked again from the active seat, including
    those who passed."""
    state = load(
        ships={"V1": "orbit", "M1": "orbit", "G1": "orbit"},
        active="venus",
        window="start",
        hands={0: [8], 1: [21], 2: [31]},
    )
    assert window_seats(state) == [0, 1, 2]
    play(state, "0: pass", "1: zap 21 ganymede")
    assert window_seats(state) == [0, 2]
    play(state, "0: pass", "2: pass")
    assert top(state) == ("act", None) and state.skips == {"ganymede": 1}


def test_played_cards_go_to_their_players_discard_pile() -> None:
    """'follow the instructions on the card, and then put it on your discard pile face up'."""
    state = load(ships={"V1": "orbit", "M1": "orbit"}, active="venus", window="start", hands={1: [8, 9]})
    play(state, "1: zap 8 titan", "1: zap 9 V1")
    assert state.discards[1] == [8, 9] and state.hands[1] == []
    assert state.ships["V1"] is None
    check(state)


def test_the_end_window_follows_the_action_and_its_extensions() -> None:
    """The end Zap window comes after the action and its extensions, before the next turn."""
    state = load(ships={"V1": "china", "M1": "orbit"}, active="venus", hands={0: [11], 1: [9]})
    assert top(state) == ("act", None)
    play(state, "collect V1")  # its only ship has collected: the action ends by itself
    assert top(state) == ("extend", None)
    play(state, "end")
    assert top(state) == ("zap", "end") and window_seats(state) == [1]
    play(state, "1: pass")
    assert state.active == "mars"


def test_cards_can_be_played_in_other_players_turns() -> None:
    """'You can play a Zap card at any time, even if it is not your turn': asked in others' turns."""
    state = load(ships={"V1": "orbit", "M1": "orbit"}, active="titan", window="start", hands={0: [9]})
    assert window_seats(state) == [0]
    play(state, "0: zap 9 M1")
    assert state.ships["M1"] is None and state.active == "titan"


# ------------------------------------------------------------------ each card's effect


def test_natural_disaster_gives_each_player_one_unit_while_it_lasts() -> None:
    """Natural Disaster: from the chosen populated area each player in turn, the card's player first, receives
    one unit while it lasts."""
    state = load(
        ships={"V1": "orbit"}, active="titan", window="start", hands={1: [14]}, population={"africa": 2}
    )
    assert "zap 14 africa" in zaps(state, 1) and "zap 14 atlantic" not in zaps(state, 1)
    before = population_total(state)
    play(state, "1: zap 14 africa")
    assert state.population["africa"] == 0
    assert state.collected == {"titan": 0, "venus": 0, "mars": 1, "ganymede": 1}
    assert population_total(state) == before


def test_alien_plague_gives_each_player_one_unit_from_the_most_populous_area() -> None:
    """Alien Plague: every player receives one unit from the land area with the most population."""
    state = load(
        ships={"V1": "orbit"}, active="titan", window="start", hands={2: [2]}, population={"china": 3}
    )
    play(state, "2: zap 2")
    assert state.population["india"] == 17 and state.population["china"] == 3
    assert set(state.collected.values()) == {1}


def test_alien_plague_breaks_a_tie_by_map_order() -> None:
    """Alien Plague on a tie takes from the first of the most populous areas in map order."""
    state = load(
        ships={"V1": "orbit"},
        active="titan",
        window="start",
        hands={2: [15]},
        population={"china": 9, "india": 9, "europe": 9},
    )
    play(state, "2: zap 15")
    assert state.population == {**state.population, "china": 5, "india": 9, "europe": 9}


def test_population_cards_may_give_earth_units_before_its_collection_opens() -> None:
    """A-06: receiving from a card is not collecting: Earth receives, and its collection stays shut."""
    state = load(3, planets=EARTH_GAME, ships={"V1": "orbit"}, active="venus", window="start", hands={0: [1]})
    play(state, "0: zap 1 europe")
    assert state.collected == {"mars": 1, "venus": 1, "earth": 1}
    assert not state.earth_open


def test_time_dilation_is_played_only_at_the_end_of_ones_own_turn() -> None:
    """Time Dilation is offered in the end window of the holder's own turn only."""
    state = load(ships={"V1": "orbit"}, active="venus", window="start", hands={0: [3], 1: [16]})
    assert window_seats(state) == [0, 1] and legal(state, 0) == ["pass"] and auto_pass(state) == 2
    assert top(state) == ("act", None)
    play(state, "pass")
    assert top(state) == ("extend", None)
    play(state, "end")
    assert window_seats(state) == [0, 1] and zaps(state, 0) == ["zap 3"]
    play(state, "0: pass")
    assert state.active == "mars" and top(state) == ("act", None)
    play(state, "pass")
    assert window_seats(state) == [1, 0]
    play(state, "1: zap 16")
    assert state.active == "mars" and state.turn == 3 and state.extra_turns["mars"] == 0


def test_hyperspace_jump_moves_one_ship_one_area() -> None:
    """Hyperspace Jump: one of the player's ships moves one area by the movement table."""
    state = load(
        ships={"V1": "orbit", "M1": "lunar", "M2": "mars"}, active="venus", window="start", hands={1: [4]}
    )
    play(state, "1: zap 4")
    assert top(state) == ("immediate", None) and state.deciders() == (1,)
    assert set(legal(state)) == {
        "pass",
        "move M1 orbit",
        "move M1 sunward",
        "move M1 belt",
        "move M2 lunar",
        "move M2 belt",
    }
    play(state, "move M1 orbit")
    assert state.ships["M1"] == "orbit"


def _finish_steps(state: Any, phase: str) -> None:
    """Ends the action's steps with ``done`` if the engine still asks for it."""
    if top(state)[0] == phase:
        play(state, "done")


def test_hyperspace_jump_is_offered_to_the_active_player_after_its_ships_have_acted() -> None:
    """Venus, having collected with both ships, may still play Hyperspace Jump at the end of its turn."""
    state = load(ships={"V1": "china", "V2": "india"}, hands={0: [4]}, active="venus")
    play(state, "collect V1", "collect V2")
    _finish_steps(state, "collecting")
    play(state, "end")
    assert top(state) == ("zap", "end") and 0 in window_seats(state)


def test_surprise_attack_attacks_once_with_the_usual_dice() -> None:
    """Surprise Attack: one of the player's ships attacks once by the attack table and the Basic dice."""
    state = load(
        ships={"V1": "orbit", "M1": "china"}, active="venus", window="start", hands={1: [18]}, forced=[3, 8]
    )
    play(state, "1: zap 18")
    assert legal(state) == ["pass", "attack M1 V1"]
    play(state, "attack M1 V1")
    assert state.ships["V1"] is None


def test_rapid_deployment_builds_one_ship_even_for_titan() -> None:
    """Rapid Deployment builds one ship on the home world, even for Titan (who builds two as an action)."""
    state = load(ships={"T1": "orbit"}, active="venus", window="start", hands={3: [29]})
    play(state, "3: zap 29", "3: build titan")
    assert ships_at(state, "titan") == ["T2"]


def abduction_beams() -> VenusState:
    """Returns Earth's start window (Venus, Earth, Mars): Venus's V1 in China and Earth's E1 in India, Venus
    holding Abduction Beam 30 and Earth Abduction Beam 20 (Earth's collection not yet open)."""
    return load(
        3,
        planets=EARTH_GAME,
        ships={"V1": "china", "E1": "india"},
        active="earth",
        window="start",
        hands={0: [30], 1: [20]},
    )


def test_abduction_beam_collects_one_unit() -> None:
    """Abduction Beam: one ship collects one unit home; an alien doing so opens Earth's collection."""
    state = abduction_beams()
    assert window_seats(state) == [1, 0] and legal(state, 1) == ["pass"]
    auto_pass(state)
    play(state, "0: zap 30", "0: collect V1")
    assert state.collected["venus"] == 1 and state.population["china"] == 26
    assert state.earth_open


def test_an_immediate_collection_can_win_in_another_players_turn() -> None:
    """An Abduction Beam that brings its player to the target wins at once, in someone else's turn."""
    state = load(
        ships={"M1": "india"}, active="venus", window="start", collected={"mars": 25}, hands={1: [7]}
    )
    play(state, "1: zap 7", "1: collect M1")
    assert state.is_over() and state.winners() == [1] and state.deciders() == ()


def test_the_team_game_gives_each_player_one_unit() -> None:
    """Team game: Natural Disaster gives one unit to each player (seat), not one to each planet."""
    state = load(2, ships={"T1": "orbit"}, active="titan", window="start", hands={1: [1]})
    play(state, "1: zap 1 china")
    assert state.population["china"] == 25 and state.scores() == [1.0, 1.0]


def test_a_restarted_window_asks_whoever_can_play_after_the_card() -> None:
    """Once Venus's Abduction Beam has opened Earth's collection, Earth's own Abduction Beam is offered."""
    state = abduction_beams()
    auto_pass(state)
    play(state, "0: zap 30", "0: collect V1")
    assert top(state) == ("zap", "start") and window_seats(state) == [1]
    play(state, "1: zap 20", "1: collect E1")
    assert state.collected["earth"] == 1


def test_a_restarted_window_skips_whoever_can_no_longer_play() -> None:
    """When a Sabotage kills the only Mars ship, Mars's Surprise Attack is unplayable: Mars is not asked
    (in the save window before M1 goes, Mars may still play it: B-3; it passes)."""
    state = load(
        ships={"V1": "orbit", "M1": "china"}, active="venus", window="start", hands={0: [9], 1: [18]}
    )
    assert window_seats(state) == [0, 1]
    play(state, "0: zap 9 M1")
    assert top(state) == ("zap", "save") and legal(state, 1) == ["pass", "zap 18"]
    play(state, "1: pass")
    assert state.ships["M1"] is None
    assert 1 not in state.deciders()
    assert top(state) == ("act", None)


def test_ion_storm_makes_another_player_skip_its_next_turn() -> None:
    """Ion Storm names another player (never oneself), who skips its next turn."""
    state = load(ships={"V1": "orbit"}, active="venus", window="start", hands={0: [31]})
    assert zaps(state, 0) == ["zap 31 titan", "zap 31 mars", "zap 31 ganymede"]
    play(state, "0: zap 31 mars")
    pass_turn(state)
    assert state.active == "ganymede"


def test_sabotage_destroys_an_enemy_ship_anywhere() -> None:
    """Sabotage: any enemy ship on the board, wherever it is, but never one's own."""
    state = load(
        ships={"V1": "orbit", "M1": "pluto", "G1": "kuiper", "T1": "china"},
        active="venus",
        window="start",
        hands={0: [22]},
    )
    assert zaps(state, 0) == ["zap 22 G1", "zap 22 M1", "zap 22 T1"]
    play(state, "0: zap 22 G1")
    assert state.ships["G1"] is None and state.supply("ganymede")[0] == "G1"


@pytest.mark.parametrize(
    ("roll", "card", "moment"),
    [
        pytest.param((9, 9), 10, "save", id="deflector shield: before the hit ship is destroyed"),
        pytest.param((10, 10), 11, "roll", id="evasive maneuvers: after the roll, a hit made a miss"),
    ],
)
def test_the_target_s_owner_saves_it_with_a_defence_card_in_its_window(
    roll: tuple[int, int], card: int, moment: str
) -> None:
    """Against an ordinary hit a Deflector Shield always saves, whatever its number; Evasive Maneuvers,
    played by the target's owner after the roll, makes the attack miss."""
    state = roll_window(roll, s1=[card])
    assert top(state) == ("zap", moment) and window_seats(state) == [1]
    play(state, f"1: zap {card}")
    assert state.ships["M1"] == "orbit"


def test_the_save_window_opens_only_for_a_hit_and_only_for_the_owner() -> None:
    """A miss opens no save window; a hit asks only the owner of the ship about to be destroyed."""
    state = roll_window((1, 1), s1=[10], s2=[23])
    assert top(state) != ("zap", "save") and state.ships["M1"] is not None
    state = roll_window((8, 1), s1=[], s2=[23])
    assert top(state) != ("zap", "save") and state.ships["M1"] is None


def test_targeting_computer_turns_a_miss_into_a_hit() -> None:
    """Targeting Computer, played by the attacker after the roll, makes the attack hit."""
    state = roll_window((1, 2), s0=[12])
    assert window_seats(state) == [0]
    play(state, "0: zap 12")
    assert state.ships["M1"] is None


@pytest.mark.parametrize(
    ("dice", "jams", "survives"),
    [((9, 3), 1, True), ((10, 1), 1, False), ((10, 9), 2, True), ((7, 7), 1, True)],
)
def test_jamming_takes_two_from_each_die(dice: tuple[int, int], jams: int, survives: bool) -> None:
    """Jamming, played by the target's owner, subtracts 2 from each die (two Jammings 4)."""
    state = roll_window(dice, s1=[13, 26][:jams])
    for card in (13, 26)[:jams]:
        play(state, f"1: zap {card}")
    assert (state.ships["M1"] is not None) is survives


def test_jamming_does_not_stop_a_targeting_computer() -> None:
    """A Targeting Computer still makes a jammed attack hit."""
    state = roll_window((9, 9), s0=[12], s1=[36])
    play(state, "0: pass", "1: zap 36")
    assert window_seats(state) == [0]
    play(state, "0: zap 12")
    assert state.ships["M1"] is None


def test_roll_cards_go_to_the_right_side() -> None:
    """Evasive and Jamming go to the target's owner, Targeting Computer to the attacker's; a third seat
    is not asked after the roll (B-3: only the roll cards matter there)."""
    state = roll_window((5, 5), s0=[11, 13, 12], s1=[24, 26, 25], s2=[34, 35, 36])
    assert window_seats(state) == [0, 1]
    assert zaps(state, 0) == ["zap 12"]
    play(state, "0: pass")
    assert zaps(state, 1) == ["zap 24", "zap 26"]
    state.apply_notation("pass", 1)
    assert top(state) != ("zap", "roll") and state.hands[2] == [34, 35, 36]


def test_any_time_cards_answer_an_attack_when_it_is_declared() -> None:
    """B-3, moment 'declare': after "attack V1 M1" and before the roll a third player may Sabotage the
    attacker; the attack is then called off and no die is rolled. After the roll nobody else is asked."""
    state = load(ships={"V1": "orbit", "M1": "orbit", "V2": "sunward"}, active="venus", hands={2: [9]})
    play(state, "attack V1 M1")
    assert top(state) == ("zap", "declare") and window_seats(state) == [2]
    events = state.apply_notation("zap 9 V1", 2)
    auto_pass(state)
    assert state.ships["V1"] is None and state.ships["M1"] == "orbit"
    assert state.chance.events == 0 or not any("rolls" in e.text for e in events)
    state = roll_window((1, 1), s2=[9])
    assert top(state) == ("zap", "end") and state.hands[2] == [9]  # asked before the roll, not after


def test_a_target_that_moves_away_calls_the_attack_off_and_the_ship_may_attack_again() -> None:
    """A Hyperspace Jump answering the declaration takes M1 out of V2's reach: the attack is called off,
    and V2 may declare another (A-21: the target may be changed until the dice are rolled)."""
    state = load(ships={"V2": "sunward", "M1": "sunward", "M2": "sunward"}, active="venus", hands={1: [4]})
    play(state, "attack V2 M1", "1: zap 4", "1: move M1 orbit", "0: pass")
    assert state.ships["M1"] == "orbit"
    assert "attack V2 M2" in legal(state) and "attack V2 M1" not in legal(state)


# ------------------------------------------------------------------ "at any time" after the roll


def mars_hits_v1(venus: list[int], **others: list[int]) -> VenusState:
    """Mars's M1 attacks V1 (both in Orbit) and rolls 9 9; Venus holds ``venus``; returns the state at
    the roll's window (the declaration's window passed)."""
    hands = {0: venus, **{int(k[1:]): v for k, v in others.items()}}
    state = load(ships={"V1": "orbit", "M1": "orbit"}, active="mars", hands=hands, forced=[9, 9])
    state.apply_notation("attack M1 V1")
    everyone_passes(state)
    return state


def test_a_hyperspace_jump_is_offered_after_the_roll_and_before_the_ship_is_destroyed() -> None:
    """The issue's case: Mars attacks V1 and rolls 9 9; Venus holds Hyperspace Jump 4 and Evasive
    Maneuvers 11 and 24. "You can play a Zap card at any time": after the roll she may play all three,
    and in the save window the Jump too; moving V1 out of M1's reach there, it escapes (ruling B-11)."""
    state = mars_hits_v1([4, 11, 24])
    assert top(state) == ("zap", "roll") and window_seats(state) == [0]
    assert legal(state, 0) == ["pass", "zap 4", "zap 11", "zap 24"]
    play(state, "0: pass")
    assert top(state) == ("zap", "save") and window_seats(state) == [0]
    assert legal(state, 0) == ["pass", "zap 4"]
    play(state, "0: zap 4")
    state.apply_notation("move V1 lunar", 0)
    assert top(state) == ("zap", "save") and legal(state, 0) == ["pass"]  # the window, restarted
    events = [e.text for e in state.apply_notation("pass", 0)]
    assert "V1 escapes: M1 can no longer reach it." in events
    assert state.ships["V1"] == "lunar" and state.discards[0] == [4]


def test_a_hyperspace_jump_after_the_roll_takes_the_target_out_of_the_attack() -> None:
    """Played in the roll window, the Jump moves V1 before the result: the roll has no effect."""
    state = mars_hits_v1([4])
    play(state, "0: zap 4")
    events = [e.text for e in state.apply_notation("move V1 lunar", 0)]
    assert "M1's roll against V1 has no effect: the attack is gone." in events
    assert state.ships["V1"] == "lunar" and state.ships["M1"] == "orbit"


def test_a_jump_that_stays_in_reach_does_not_save_the_ship() -> None:
    """A ship moved within the attacker's reach is still destroyed (M1 in Orbit reaches China)."""
    state = mars_hits_v1([4])
    play(state, "0: pass", "0: zap 4", "0: move V1 china")
    assert state.ships["V1"] is None


def test_sabotaging_the_attacker_after_the_roll_voids_its_hit() -> None:
    """A Sabotage on the attacker after its roll leaves the hit without a ship to make it (B-11)."""
    state = mars_hits_v1([9])
    assert legal(state, 0) == ["pass", "zap 9 M1"]
    play(state, "0: zap 9 M1")
    assert state.ships["M1"] is None and state.ships["V1"] == "orbit"


def test_only_the_two_sides_may_play_any_time_cards_after_the_roll() -> None:
    """Ganymede, holding a Sabotage, is asked neither after the roll nor in the save window: those windows
    ask only the seats they concern, whatever anyone holds (B-3, issue 10)."""
    state = mars_hits_v1([11], s2=[22])
    assert top(state) == ("zap", "roll") and window_seats(state) == [0]
    state.apply_notation("pass", 0)
    assert top(state) == ("zap", "save") and window_seats(state) == [0]
    state.apply_notation("pass", 0)
    assert state.ships["V1"] is None and state.hands[2] == [22]


@pytest.mark.parametrize("venus", [[4], [11], [10], [1]], ids=["jump", "evasive", "deflector", "disaster"])
def test_who_is_asked_after_the_roll_does_not_depend_on_the_cards_held(venus: list[int]) -> None:
    """Venus is asked in the roll and save windows whichever card she holds (any-time cards included)."""
    state = mars_hits_v1(venus)
    assert top(state) == ("zap", "roll") and window_seats(state) == [0]
    state.apply_notation("pass", 0)
    assert top(state) == ("zap", "save") and window_seats(state) == [0]


# ------------------------------------------------------------------ priority


@pytest.mark.parametrize(("attacker", "target"), [(12, 24), (35, 24), (25, 11), (12, 34), (25, 34), (35, 11)])
def test_targeting_computer_against_evasive_maneuvers_the_higher_number_wins(
    attacker: int, target: int
) -> None:
    """Targeting Computer and Evasive Maneuvers on one roll: the higher number decides, in either order
    (Targeting Computer higher: a hit whatever the dice; Evasive Maneuvers higher: a miss)."""
    hit = attacker > target
    for dice in ((9, 9), (1, 1)):
        for first in ("attacker", "target"):
            state = roll_window(dice, s0=[attacker], s1=[target])
            plays = [f"0: zap {attacker}", f"1: zap {target}"]
            if first == "target":
                play(state, "0: pass", plays[1], plays[0])
            else:
                play(state, plays[0], plays[1])
            if top(state)[0] == "zap":
                everyone_passes(state)
            assert (state.ships["M1"] is None) is hit, (dice, first)


@pytest.mark.parametrize(
    ("sabotage", "deflector"), [(9, 10), (22, 10), (22, 23), (32, 23), (32, 33), (9, 33)]
)
def test_deflector_shield_against_sabotage_the_higher_number_wins(sabotage: int, deflector: int) -> None:
    """A Deflector Shield saves a ship from a Sabotage only when its number is higher."""
    saved = deflector > sabotage
    state = load(
        ships={"V1": "orbit", "M1": "china"},
        active="venus",
        window="start",
        hands={0: [sabotage], 1: [deflector]},
    )
    play(state, f"0: zap {sabotage} M1")
    assert top(state) == ("zap", "save") and window_seats(state) == [1]
    play(state, f"1: zap {deflector}")
    assert (state.ships["M1"] is not None) is saved


def test_a_sabotage_without_an_answer_destroys() -> None:
    """A Sabotage whose target's owner holds no Deflector Shield destroys the ship at once."""
    state = load(
        ships={"V1": "orbit", "M1": "china"}, active="venus", window="start", hands={0: [32], 1: [11, 12, 13]}
    )
    play(state, "0: zap 32 M1")
    assert state.ships["M1"] is None and top(state) == ("act", None)


def test_a_lower_second_deflector_does_not_undo_a_higher_one() -> None:
    """Deflector 33 beats Sabotage 22; a further Deflector 10 from the same player does not lose the ship."""
    state = load(
        ships={"V1": "orbit", "M1": "china"}, active="venus", window="start", hands={0: [22], 1: [33, 10]}
    )
    play(state, "0: zap 22 M1", "1: zap 33")
    assert window_seats(state) == [1]
    play(state, "1: zap 10")
    assert state.ships["M1"] == "china"


# ------------------------------------------------------------------ immediate actions


def test_an_immediate_action_resumes_the_interrupted_turn() -> None:
    """After another player's immediate action the interrupted turn goes on: same side and turn, no refill."""
    state = load(
        ships={"V1": "sunward", "M1": "lunar"},
        active="venus",
        window="start",
        hands={1: [17]},
        decks={1: [10, 11, 12]},
    )
    play(state, "1: zap 17", "1: move M1 orbit")
    assert top(state) == ("act", None) and state.active == "venus" and state.turn == 1
    assert state.hands[1] == [] and state.decks[1] == [10, 11, 12]
    play(state, "move V1 orbit")  # its only ship has moved: the action ends by itself
    assert state.active == "mars" and state.hands[1] == [10, 11, 12]


def test_an_immediate_action_during_an_attack_resumes_the_attack() -> None:
    """A Surprise Attack answering a declaration is resolved first (M2 destroys V1), then the declared
    attack (called off: V1 is gone); Venus has rolled no die yet, so it chooses its action afresh (A-21)."""
    state = load(
        ships={"V1": "orbit", "V2": "orbit", "M1": "orbit", "M2": "orbit"},
        active="venus",
        hands={1: [28]},
        forced=[9, 1, 10, 1],
    )
    play(state, "attack V1 M1")
    assert top(state) == ("zap", "declare") and window_seats(state) == [1]
    play(state, "1: zap 28", "1: attack M2 V1")
    assert state.ships["V1"] is None and state.ships["M1"] == "orbit"
    # The declaration was answered: Venus is asked whatever it holds, and may withdraw it.
    assert top(state) == ("zap", "declare") and legal(state) == ["pass", "withdraw"]
    play(state, "0: pass")
    assert top(state) == ("act", None) and state.active == "venus" and state.action == ""
    assert {"attack V2 M1", "attack V2 M2", "build"} <= set(legal(state))


def test_an_immediate_action_may_be_declined() -> None:
    """The card's player may pass the immediate step; the card is spent and the turn goes on."""
    state = load(ships={"V1": "sunward", "M1": "lunar"}, active="venus", window="start", hands={1: [4]})
    play(state, "1: zap 4", "1: pass")
    assert state.ships["M1"] == "lunar" and state.discards[1] == [4] and top(state) == ("act", None)


def test_the_active_player_may_take_an_immediate_action_before_its_own() -> None:
    """An immediate action in one's own start window does not use up the turn's action."""
    state = load(ships={"V1": "sunward"}, active="venus", window="start", hands={0: [6]})
    play(state, "0: zap 6", "0: build venus")
    assert top(state) == ("act", None) and len(state.fleet("venus")) == 2
    play(state, "build")
    assert len(state.fleet("venus")) == 3


def test_a_team_player_chooses_which_planet_an_immediate_build_is_for() -> None:
    """B-5/A-17: in the team game the immediate step may use either of the player's planets."""
    state = load(2, ships={"T1": "orbit", "M1": "orbit"}, active="mars", window="start", hands={0: [19]})
    play(state, "0: zap 19")
    options = state.legal_actions(0)
    assert len(options) == len(set(options))
    built = set()
    for action in options:
        if action.verb == "build":
            trial = state.clone()
            trial.apply(action, 0)
            built |= {p for p in ("titan", "ganymede") if len(trial.fleet(p)) > len(state.fleet(p))}
    assert built == {"titan", "ganymede"}


# ------------------------------------------------------------------ the team game


def test_team_cards_spare_the_partner() -> None:
    """A-17: Sabotage never targets a partner's ship; Ion Storm names only the other player's planets."""
    state = load(
        2,
        ships={"T1": "orbit", "G1": "orbit", "M1": "orbit", "V1": "china"},
        active="titan",
        window="start",
        hands={0: [9, 8]},
    )
    assert zaps(state, 0) == ["zap 8 mars", "zap 8 venus", "zap 9 M1", "zap 9 V1"]


def test_a_team_card_played_in_ones_own_turn_is_for_the_active_planet() -> None:
    """B-8: Time Dilation played at the end of Ganymede's turn gives Ganymede (not Titan) the extra turn."""
    state = load(2, ships={"G1": "orbit"}, active="ganymede", hands={0: [3]})
    play(state, "pass", "end", "0: zap 3")
    assert state.active == "ganymede" and state.turn == 2


def test_a_declare_window_asks_nobody_once_every_any_time_card_is_face_up() -> None:
    """B-3: when every card playable 'at any time' is in a discard pile, no hand can hold one, so the
    declaration's window asks nobody and the roll follows at once (its window asks the two sides)."""
    any_time = [n for n in sorted(ZAP.cards) if ZAP.cards[n].timing == "any"]
    state = load(
        ships={"V1": "orbit", "M1": "orbit"},
        active="venus",
        hands={0: [12], 1: [11], 2: [13]},
        discards={3: any_time},
        forced=[3, 3],
    )
    play(state, "attack V1 M1")
    assert top(state) == ("zap", "roll") and window_seats(state) == [0, 1]
