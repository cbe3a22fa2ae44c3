"""Bots first, then the human: front ends let the bots among the deciders of an open window act before a
waiting human (docs/negotiation.md). The greedy bot must then answer at once, never repeat itself, and
pass when it has nothing new to say, so that every negotiation makes progress and ends.

Run as a script to print the figures: ``python tests/games/im_the_boss/test_bots_first.py``.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

import pytest

from parlour.bots.random_bot import RandomBot
from parlour.core.agents import Agent
from parlour.core.state import GameState
from parlour.games.im_the_boss import BossGameState
from parlour.games.im_the_boss.actions import Include
from parlour.games.im_the_boss.bots import GreedyBot

from ..typed import BOSS as GAME
from ..typed import choose
from .scenario import negotiation, play
from .test_people import determinised_states

LIMIT = int(str(GAME.options({})["negotiation_limit"]))


class Passer:
    """A scripted human: passes whenever it may, otherwise plays as the greedy bot would."""

    name = "passer"

    def __init__(self, seed: int = 0) -> None:
        self.greedy = GreedyBot(seed)

    def choose(self, state: GameState, seat: int) -> Any:
        """Returns ``pass`` when legal, else the greedy choice."""
        for action in state.legal_actions(seat):
            if state.format_action(action) == "pass":
                return action
        return self.greedy.choose(state, seat)


@dataclass
class Figures:
    """What a bots-first game showed: each negotiation's length, and the most one bot spent in one."""

    lengths: list[int] = field(default_factory=list)
    investor_counted: list[int] = field(default_factory=list)
    """For each negotiation and each bot that was never its Boss: the actions it used."""


def bots_first_game(players: int, seed: int, human: int, policy: str) -> tuple[BossGameState, Figures]:
    """Plays a whole game: greedy bots everywhere but ``human``; in an open window the first bot among
    the deciders acts, the human only when no bot is listed."""
    state = GAME.new_state(players, seed)
    agents: list[Agent] = [GreedyBot(seed * 8 + s) for s in range(players)]
    agents[human] = RandomBot(seed) if policy == "random" else Passer(seed)
    figures, length, bosses = Figures(), 0, set()
    while not state.is_over():
        deciders = state.deciders()
        bots = [s for s in deciders if s != human]
        seat = bots[0] if state.stack.top.concurrent and bots else deciders[0]
        nego = state.nego
        state.apply(choose(agents[seat], state, seat), seat)
        if nego is None:
            continue
        length += 1
        bosses.add(nego.boss)
        if state.nego is None:
            figures.lengths.append(length)
            figures.investor_counted += [
                c for s, c in enumerate(nego.counted) if s != human and s not in bosses
            ]
            length, bosses = 0, set()
        assert state.actions_applied < GAME.max_actions
    return state, figures


@pytest.mark.parametrize("policy", ["passer", "random"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_games_where_bots_act_first_end_with_short_negotiations(players: int, policy: str) -> None:
    """Bots first in every open window: every game ends, negotiations stay short, and no bot that is not
    the Boss ever uses up its actions (it does not repeat itself when asked again and again)."""
    lengths, spent = [], []
    for seed in range(4):
        state, figures = bots_first_game(players, seed, seed % players, policy)
        assert state.is_over() and state.end_reason()
        lengths += figures.lengths
        spent += figures.investor_counted
    assert lengths and statistics.mean(lengths) < (40 if policy == "passer" else 70)
    assert max(spent) < LIMIT


def test_a_bot_named_by_a_proposal_answers_at_once_out_of_order() -> None:
    """The human Boss (seat 0, listed first) proposes; the bot at seat 1, asked before the Boss, answers."""
    state = negotiation()
    play(state, "0: include O @1 2")
    assert state.deciders()[0] == 0
    assert str(GreedyBot().choose(state, 1)) in ("agree", "refuse")
    play(state, "0: include O @1 0")
    assert str(GreedyBot().choose(state, 1)) == "refuse"


def test_a_bot_asked_again_with_nothing_new_passes() -> None:
    """A bot that has offered its investor passes when asked again before anything changed."""
    state = negotiation()
    bot = GreedyBot()
    first = bot.choose(state, 1)
    assert first.verb == "offer"
    state.apply(first, 1)
    assert str(bot.choose(state, 1)) == "pass"
    assert str(bot.choose(state, 2)) == "pass"  # seat 2 holds nothing this deal needs


def test_a_bot_boss_takes_silence_for_a_no_and_offers_more() -> None:
    """The human named by the bot Boss's proposal passes instead of answering; once everyone has passed,
    the Boss proposes more (it does not fail the deal at once), then gives up after a few silences."""
    state = negotiation(boss=1)
    first = GreedyBot().choose(state, 1)
    assert isinstance(first, Include)
    assert (first.verb, first.colour, first.seat) == ("include", "R", 0)
    state.apply(first, 1)
    asked = [first.number]
    while True:
        play(state, "1: pass", "2: pass", "0: pass")
        assert state.deciders() == (1,)
        action = GreedyBot().choose(state, 1)  # a new bot each time, as the server makes: no memory
        if action.verb == "fail":
            break
        assert isinstance(action, Include)
        assert (action.verb, action.colour, action.seat) == ("include", "R", 0)
        state.apply(action, 1)
        asked.append(action.number)
    assert len(asked) >= 2 and asked == sorted(set(asked))


@pytest.mark.parametrize("seed", range(6))
def test_greedy_bots_made_afresh_for_every_move_end_the_game_as_soon(seed: int) -> None:
    """The server makes a bot for each move: the greedy bot reads how often it asked from the table, so
    three made afresh each move play as short a game as three kept (146 actions on average over 60 seeds;
    with the asks kept in the bot's memory, made afresh they averaged 746 and once reached 12,296)."""
    state = GAME.new_state(3, seed=seed)
    while not state.is_over():
        seat = state.deciders()[0]
        state.apply(choose(GreedyBot(state.actions_applied), state, seat), seat)
        assert state.actions_applied < 400, "a negotiation repeated itself"
    assert isinstance(state, BossGameState) and state.end_reason()


@pytest.mark.slow
def test_public_only_pass_is_sound_and_public() -> None:
    """A seat publicly seen to have only 'pass' has only 'pass' in every determinisation, and every seat's
    determinisations agree on it (it reads no hidden card); it does happen."""
    found = 0
    for state, copies in determinised_states(4, 3, seed=3):
        for seat in state.deciders():
            idle = state.public_only_pass(seat)
            for copy in copies:
                assert copy.public_only_pass(seat) == idle
                if idle:
                    assert [str(a) for a in copy.legal_actions(seat)] == ["pass"]
            found += idle
    assert found > 5


def figures() -> None:
    """Prints the mean and longest negotiation, bots first, for each player count and human policy."""
    for policy in ("passer", "random"):
        for players in range(3, 7):
            lengths: list[int] = []
            for seed in range(20):
                lengths += bots_first_game(players, seed, seed % players, policy)[1].lengths
            print(
                f"{policy:6} {players}p: {len(lengths)} negotiations, "
                f"mean {statistics.mean(lengths):.1f} actions, longest {max(lengths)}"
            )


if __name__ == "__main__":
    figures()
