"""Changing one's mind before the roll (rulebook: "as long as you haven't moved or built a spaceship,
rolled the dice, or picked up a chip yet, you can change your mind about your action, even if a card has
been played"; rulings A-21, B-12).

Four-player positions: seat 0 Venus, 1 Mars, 2 Ganymede, 3 Titan (turn order Titan, Venus, Mars,
Ganymede). Sabotage 9 22 32, Hyperspace Jump 4 17 27, Surprise Attack 5 18 28.
"""

from __future__ import annotations

import pytest

from parlour.core.errors import IllegalActionError
from parlour.games.venus_needs_men import VenusState
from parlour.games.venus_needs_men.views import summary

from .scenario import kinds, legal, load, play, top, window_seats


def sabotaged_declaration(mars_hand: list[int]) -> VenusState:
    """Mars's M1 declares an attack on V1 (both in Orbit); Venus answers with a Sabotage on M2."""
    state = load(
        ships={"V1": "orbit", "M1": "orbit", "M2": "orbit"},
        active="mars",
        hands={0: [9], 1: mars_hand},
        forced=[10, 10],
    )
    play(state, "attack M1 V1")
    if mars_hand:
        play(state, "1: pass")  # Mars is asked first (its own card), before any answer: no withdrawal
    play(state, "0: zap 9 M2")
    if mars_hand:
        play(state, "1: pass")  # M2's save window (B-3): Mars could have played its card
    assert state.ships["M2"] is None and state.discards[0] == [9]
    return state


@pytest.mark.parametrize("mars_hand", [[], [1]], ids=["empty hand", "holding a card"])
def test_after_a_card_answers_the_declaration_the_attacker_may_withdraw_and_choose_another_action(
    mars_hand: list[int],
) -> None:
    """The issue's case: Venus answers M1's declaration with a Sabotage; before the roll Mars is asked,
    whatever it holds, and may withdraw; the action's choice is then Mars's again (it builds instead),
    no die is rolled, and the Sabotage stays played."""
    state = sabotaged_declaration(mars_hand)
    assert top(state) == ("zap", "declare") and window_seats(state) == [1]
    assert legal(state, 1)[:2] == ["pass", "withdraw"]
    events = play_and_log(state, "1: withdraw")
    assert "Mars withdraws M1's attack on V1 before the roll." in events
    assert "Mars chooses its action again." in events
    assert top(state) == ("act", None) and state.action == "" and state.acted == []
    assert {"build", "move M1 lunar", "attack M1 V1"} <= set(legal(state))
    events = play_and_log(state, "1: build")
    assert "Mars builds M2 on Mars." in events and state.ships["V1"] == "orbit"
    assert [f.value for f in state.chance.forced] == [10, 10]  # no die rolled
    assert state.discards[0] == [9] and state.hands[0] == []


def test_a_withdrawn_attack_may_be_declared_again_on_another_target() -> None:
    """Withdrawing gives the whole choice back, the same ship's attack on another target included."""
    state = load(
        ships={"V1": "orbit", "V2": "orbit", "M1": "orbit", "M2": "orbit"},
        active="mars",
        hands={0: [9]},
        forced=[10, 10],
    )
    play(state, "attack M1 V1", "0: zap 9 M2", "1: withdraw", "attack M1 V2")
    assert state.ships["V2"] is None and state.ships["V1"] == "orbit"  # rolled 10 10 on V2


def test_passing_rolls_the_declared_attack() -> None:
    """Mars may also keep its declaration: a pass closes the window and the dice are rolled."""
    state = sabotaged_declaration([])
    play(state, "1: pass")
    assert state.ships["V1"] is None and state.chance.forced == []


def test_an_unanswered_declaration_offers_no_withdrawal() -> None:
    """Until a card answers the declaration nothing has changed since it was made: Mars, asked in the
    window for its own card, may pass or play, not withdraw (so declaring and withdrawing cannot loop)."""
    state = load(ships={"V1": "orbit", "M1": "orbit"}, active="mars", hands={0: [22], 1: [9]}, forced=[1, 1])
    play(state, "attack M1 V1")
    assert window_seats(state) == [1, 0]
    assert legal(state, 1) == ["pass", "zap 9 V1"]
    with pytest.raises(IllegalActionError):
        state.apply_notation("withdraw", 1)
    play(state, "1: pass", "0: pass")
    assert state.chance.forced == [] and state.ships["V1"] == "orbit"  # rolled 1 1: a miss


def test_a_later_attack_of_the_action_is_withdrawn_but_the_action_stands() -> None:
    """Once a die has been rolled in the action, withdrawing a further declaration only frees its ship:
    the action stays an attack (M2 may attack another ship, or the action end)."""
    state = load(
        ships={"V1": "orbit", "V2": "orbit", "M1": "orbit", "M2": "orbit"},
        active="mars",
        hands={0: [17]},
        forced=[1, 1],
    )
    play(state, "attack M1 V1", "0: pass", "0: pass")  # the declaration's window, the roll's (1 1)
    assert state.ships["V1"] == "orbit" and state.acted == ["M1"]
    play(state, "attack M2 V1", "0: zap 17", "0: move V2 lunar")
    assert legal(state, 1) == ["pass", "withdraw"]
    play(state, "1: withdraw")
    assert top(state) == ("attacking", None) and state.action == "attack" and state.acted == ["M1"]
    assert legal(state) == ["done", "attack M2 V1"]


def test_an_extension_s_attack_cannot_be_withdrawn() -> None:
    """Only the action's own declarations may be withdrawn: an extra attack bought with a discarded card
    is spent (ruling B-12), so Mars, asked again after Venus's answer, may pass or play, not withdraw."""
    state = load(
        ships={"V1": "orbit", "M1": "orbit", "M2": "orbit"},
        active="mars",
        hands={0: [9], 1: [1, 2]},
        forced=[1, 1, 1, 1],
    )
    play(state, "attack M1 V1", "1: pass", "0: pass", "1: pass", "0: pass", "done", "extend 1")
    play(state, "attack M1 V1", "1: pass")
    assert top(state) == ("zap", "declare") and kinds(state)[-2] == "extend"
    play(state, "0: zap 9 M2", "1: pass")  # M2's save window
    assert state.ships["M2"] is None
    assert top(state) == ("zap", "declare") and window_seats(state) == [1]
    assert "withdraw" not in legal(state, 1) and "pass" in legal(state, 1)
    with pytest.raises(IllegalActionError):
        state.apply_notation("withdraw", 1)


def play_and_log(state: VenusState, line: str) -> list[str]:
    """Plays one line in notation and returns the texts of the events it caused."""
    seat, text = line.split(": ", 1)
    return [e.text for e in state.apply_notation(text, int(seat))]


def test_the_banner_tells_the_attacker_it_may_withdraw() -> None:
    """The public one-line summary names the choice while the attacker is asked (views.summary)."""
    state = sabotaged_declaration([])
    assert summary(state) == (
        "Mars: play a Zap card, pass (roll) or withdraw the attack; M1 attacks V1 (turn 1, Mars's)"
    )
