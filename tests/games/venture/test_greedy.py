"""The greedy bot (parlour.games.venture.bots): its choices in small hand-made positions, and legality."""

from __future__ import annotations

import itertools
import random

import pytest

from parlour.bots.random_bot import RandomBot
from parlour.core.agents import Agent
from parlour.core.match import play_match
from parlour.core.state import GameState
from parlour.games.venture import GAME, VentureState
from parlour.games.venture.actions import Pay, VentureAction, format_action
from parlour.games.venture.bots import GreedyBot, QuickBot, next_move
from parlour.games.venture.content import Corporation
from parlour.games.venture.optimiser import Arrangement, OptimiserCard, best_arrangement
from parlour.games.venture.payment import cheapest_payment, payment_value
from parlour.games.venture.scoring import holdings_profit

from .scenario import hand, legal, load, names, play, stacks

FIVE_LETTERS = ["ST-ABCDE", "OI-BCDEF", "RR-ACDEF", "RE-ABDEF", "AU-ABCEF"]
"""Center corporations worth 24 each: out of reach of a hand worth less."""
DECK = GAME.deck(GAME.options())
BY_NAME = {r.name: r for r in DECK.resources}


def corp_named(name: str) -> Corporation:
    """Returns the deck's corporation written ``name`` (the tests name only real ones)."""
    corp = DECK.corporation(name)
    assert corp is not None, name
    return corp


def optimum(state: VentureState, seat: int) -> Arrangement:
    """Returns the best arrangement of the seat's corporations."""
    corps = [state.corp(c) for s in state.holdings[seat] for c in s]
    return best_arrangement([OptimiserCard(c.name, c.industry, c.letters) for c in corps])


def choose(state: VentureState, seat: int = 0) -> VentureAction:
    """Returns the greedy bot's choice, checking that it is legal."""
    action = GreedyBot(0).choose(state, seat)
    assert action in state.legal_actions(seat), f"{action} is not legal: {legal(state)}"
    return action


def said(state: VentureState, seat: int = 0) -> str:
    """Returns the greedy bot's choice in notation (legal: ``choose``)."""
    return format_action(choose(state, seat))


def owing(corp: str, cards: list[str]) -> VentureState:
    """Returns seat 0 paying for ``corp``, taken with ``cards`` in hand, at the start of the payment."""
    center = [corp, *(c for c in FIVE_LETTERS if c[:2] != corp[:2])][:5]
    state = load(hands=[cards, [], []], center=center)
    play(state, f"take {corp}")
    if state.stack.top.kind == "place":
        play(state, "place alone")
    play(state, "end")
    assert state.stack.top.kind == "pay"
    return state


# ------------------------------------------------------------------ taking over
def test_takes_the_corporation_that_extends_a_conglomerate() -> None:
    """AU-AC and AU-BD cost 12 each; only AU-BD fits ST-AB/OI-BC/RR-BF (new industry, letter B)."""
    state = load(
        hands=[["20", "10"], [], []],
        holdings=[[["ST-AB", "OI-BC", "RR-BF"]], [], []],
        center=["AU-AC", "SH-CE", "AU-BD", "RE-DEF", "SH-ACE"],
    )
    assert {"take AU-AC", "take AU-BD"} <= set(legal(state))
    assert said(state) == "take AU-BD"
    play(state, "take AU-BD")
    assert said(state) == "place on RR-BF"
    play(state, "place on RR-BF")
    assert stacks(state, 0) == [["ST-AB", "OI-BC", "RR-BF", "AU-BD"]]
    assert holdings_profit(state, 0) == 3


def test_takes_the_corporation_that_grows_a_pair_into_a_scoring_conglomerate() -> None:
    """AU-BD (12) makes ST-AB/OI-BC a 3-stack scoring 1 at once; AU-AEF (16) fits nothing."""
    state = load(
        hands=[["20"], [], []],
        holdings=[[["ST-AB", "OI-BC"]], [], []],
        center=["AU-BD", "AU-AEF", "ST-ABCDE", "RR-ACDEF", "RE-ABDEF"],
    )
    assert legal(state)[:2] == ["take AU-BD", "take AU-AEF"]
    assert said(state) == "take AU-BD"


# ------------------------------------------------------------------ placing
def test_places_a_won_corporation_on_the_pair_rather_than_alone() -> None:
    """AU-BD fits the pair ST-AB/OI-BC (making three) and the lone RE-BF; it goes on the pair."""
    state = load(
        hands=[["20", "10"], [], []],
        holdings=[[["ST-AB", "OI-BC"], ["RE-BF"]], [], []],
        center=["AU-BD", *FIVE_LETTERS[:4]],
    )
    play(state, "take AU-BD")
    assert set(legal(state)) == {"place on OI-BC", "place on RE-BF", "place alone"}
    assert said(state) == "place on OI-BC"
    play(state, "place on OI-BC")
    assert stacks(state, 0) == [["ST-AB", "OI-BC", "AU-BD"], ["RE-BF"]]


def test_places_a_won_corporation_where_it_adds_most() -> None:
    """SH-BD fits a 3-stack with common B (-> 4 cards) and a pair with common D (-> 3 cards)."""
    state = load(
        hands=[["20", "10"], [], []],
        holdings=[[["RE-DE", "OI-DF"], ["ST-AB", "OI-BC", "RR-BF"]], [], []],
        center=["SH-BD", *FIVE_LETTERS[:4]],
    )
    play(state, "take SH-BD")
    assert set(legal(state)) == {"place on OI-DF", "place on RR-BF", "place alone"}
    assert said(state) == "place on RR-BF"


# ------------------------------------------------------------------ proxy fights
LEADER_STACK = ["ST-ABC", "RE-ABDE", "AU-ABCEF", "SH-ABF"]
"""A 4-stack with common letters A and B: 6 million a scoring."""
DEAR_CENTER = ["ST-A", "OI-BCDEF", "RR-ACDEF", "RE-ABDEF", "SH-ABCDF"]


def test_fights_a_cheap_proxy_battle_for_the_top_of_the_leaders_conglomerate() -> None:
    """x1/2 on SH-ABF costs 8 and breaks the leader's 4-stack; ST-A (8) is the only other option."""
    state = load(hands=[["x1/2", "10", "12"], [], []], holdings=[[], [LEADER_STACK], []], center=DEAR_CENTER)
    assert holdings_profit(state, 1) == 6
    assert "take ST-A" in legal(state)
    assert said(state) == "proxy x1/2 SH-ABF"
    play(state, "proxy x1/2 SH-ABF")
    assert stacks(state, 0) == [["SH-ABF"]]
    assert stacks(state, 1) == [LEADER_STACK[:3]]
    assert holdings_profit(state, 1) == 2
    assert state.owed == 8


def test_does_not_fight_a_proxy_battle_it_cannot_pay() -> None:
    """x3/2 on SH-ABF would cost 24 with 10 in hand: the bot takes ST-A instead, legally."""
    state = load(hands=[["x3/2", "10"], [], []], holdings=[[], [LEADER_STACK], []], center=DEAR_CENTER)
    assert not any(a.startswith("proxy") for a in legal(state))
    assert said(state) == "take ST-A"


# ------------------------------------------------------------------ reorganising
def test_reorganises_to_the_optimal_arrangement_then_done() -> None:
    """Six corporations sharing B, in four stacks scoring 0, can form one 6-stack scoring 20."""
    state = load(
        hands=[["10", "12"], [], []],
        holdings=[[["ST-AB"], ["OI-BC", "RR-BF"], ["AU-BD"], ["RE-ABDE", "SH-ABF"]], [], []],
        center=FIVE_LETTERS,
    )
    target = optimum(state, 0)
    assert holdings_profit(state, 0) == 0 < target.profit == 20
    assert said(state) == "reorganise"
    play(state, "reorganise")
    moves = 0
    while True:
        action = choose(state)
        if format_action(action) == "done":
            break
        assert format_action(action).startswith("move ")
        state.apply(action, 0)
        moves += 1
        assert moves <= 6
    assert holdings_profit(state, 0) == target.profit
    assert {tuple(s) for s in stacks(state, 0)} == set(target.stacks)
    play(state, "done")
    assert state.stack.kinds() == ["turn"]
    assert said(state) == "end"


def test_the_quick_bot_does_not_reorganise_by_choice_but_follows_the_greedy_otherwise() -> None:
    """The search's playout bot skips the optimiser on its turn: the worthwhile reorganisation is not made."""
    state = load(
        hands=[["10", "12"], [], []],
        holdings=[[["ST-AB"], ["OI-BC", "RR-BF"], ["AU-BD"], ["RE-ABDE", "SH-ABF"]], [], []],
        center=FIVE_LETTERS,
    )
    assert "reorganise" in legal(state)
    action = QuickBot(0).choose(state, 0)
    assert action in state.legal_actions(0) and format_action(action) != "reorganise"
    play(state, "reorganise")
    assert QuickBot(0).choose(state, 0) == GreedyBot(0).choose(state, 0)


def test_does_not_reorganise_holdings_already_optimal() -> None:
    """ST-AB/OI-BC/RR-BF already score their best; reorganising would only cost 3."""
    state = load(
        hands=[["x1", "1c", "3c", "3t"], [], []],
        holdings=[[["ST-AB", "OI-BC", "RR-BF"]], [], []],
        center=FIVE_LETTERS,
    )
    assert holdings_profit(state, 0) == optimum(state, 0).profit
    assert "reorganise" in legal(state)
    assert said(state) != "reorganise"


def test_next_move_is_none_at_the_target() -> None:
    """A seat whose stacks already are the target has no move to make."""
    state = load(hands=[["20"], [], []], holdings=[[["ST-AB", "OI-BC", "RR-BF"], ["AU-EF"]], [], []])
    assert next_move(state, 0, (("ST-AB", "OI-BC", "RR-BF"), ("AU-EF",))) is None
    assert next_move(state, 0, (("AU-EF",), ("ST-AB", "OI-BC", "RR-BF"))) is None


def _random_holding(rng: random.Random) -> list[list[str]]:
    """Returns random stacks (each sharing a letter, industries possibly repeated) of 2 to 14 cards."""
    corps = rng.sample(DECK.corporations, rng.randint(2, 14))
    groups: list[list[str]] = []
    for corp in corps:
        fitting = [g for g in groups if corp.letters.intersection(*(corp_named(n).letters for n in g))]
        if fitting and rng.random() < 0.7:
            group = rng.choice(fitting)
            group.insert(rng.randrange(len(group) + 1), corp.name)
        else:
            groups.append([corp.name])
    return groups


def test_next_move_reaches_the_optimal_arrangement_from_random_holdings() -> None:
    """Applying next_move (each a legal move) ends within 3 moves a card, exactly at the target."""
    for case in range(150):
        rng = random.Random(case)
        holding = _random_holding(rng)
        cards = sum(len(s) for s in holding)
        clash = any(len({name[:2] for name in stack}) < len(stack) for stack in holding)
        duty = {"must_reorganise": True} if clash else None
        state = load(hands=[["20", "20", "18"], [], []], holdings=[holding, [], []], turn_data=duty)
        play(state, "reorganise")
        target = optimum(state, 0).stacks
        for _ in range(3 * cards):
            move = next_move(state, 0, target)
            if move is None:
                break
            state.apply(move, 0)
        else:
            pytest.fail(f"case {case}: no end after {3 * cards} moves from {holding}")
        assert {tuple(s) for s in stacks(state, 0)} == set(target), f"case {case}: {holding}"
        assert "done" in legal(state)


# ------------------------------------------------------------------ paying
def test_cheapest_payment_pays_with_a_whole_set_to_keep_the_tens() -> None:
    """Owing 16 with 1c 3c 10 10: the set 1c+3c pays 16 exactly and keeps 20 (10 10 would keep 16)."""
    state = owing("ST-ABC", ["1c", "3c", "10", "10"])
    assert state.owed == 16
    assert sorted(cheapest_payment(state, 0)) == ["1c", "3c"]


def test_cheapest_payment_keeps_a_set_together() -> None:
    """Owing 8 with 1c 3c 5c 12: paying 12 keeps the 3-set worth 32; 3c+5c would keep only 13."""
    state = owing("ST-A", ["1c", "3c", "5c", "12"])
    assert state.owed == 8
    assert cheapest_payment(state, 0) == ["12"]


def test_the_bot_lays_down_its_cheapest_payment_then_done() -> None:
    """While paying, the bot lays the planned cards one by one, then says done."""
    state = owing("ST-ABC", ["1c", "3c", "10", "10"])
    laid = []
    while format_action(action := choose(state)) != "done":
        assert isinstance(action, Pay)
        laid.append(action.card)
        state.apply(action, 0)
    assert sorted(laid) == sorted(names(state, "payment")) == ["1c", "3c"]
    assert hand(state, 0) == ["10", "10"]
    play(state, "done")
    assert state.current == 1


def test_cheapest_payment_always_covers_the_debt() -> None:
    """For random hands and debts the plan, with what is laid down, covers what is owed."""
    capital = [r.name for r in DECK.resources if r.kind == "capital"]
    corps = ["ST-A", "ST-AB", "ST-ABC", "ST-ABDE", "ST-ABCDE"]
    for case in range(60):
        rng = random.Random(case)
        cards = rng.sample(capital, rng.randint(2, 7))
        wealth = payment_value([BY_NAME[n] for n in cards], DECK.set_values)
        affordable = [c for c in corps if corp_named(c).value <= wealth]
        if not affordable:
            continue
        state = owing(rng.choice(affordable), cards)
        plan = cheapest_payment(state, 0)
        assert payment_value([BY_NAME[n] for n in plan], DECK.set_values) >= state.owed, (case, cards, plan)


def _best_kept(state: VentureState) -> int:
    """Returns the most buying power a payment covering the debt can leave in hand (exhaustive)."""
    hand_cards = [state.card(r) for r in state.hands[0]]
    best = -1
    for size in range(1, len(hand_cards) + 1):
        for combo in itertools.combinations(range(len(hand_cards)), size):
            paid = [hand_cards[i] for i in combo]
            if payment_value(paid, DECK.set_values) >= state.owed:
                rest = [c for i, c in enumerate(hand_cards) if i not in combo]
                best = max(best, payment_value(rest, DECK.set_values))
    return best


def test_cheapest_payment_keeps_the_most_value_even_with_four_small_cards() -> None:
    """Owing 8: four small cards pay it and keep 1s 1s 12 (14); paying 12 keeps only 10."""
    state = owing("ST-A", ["1t", "1t", "1s", "1s", "3c", "3c", "12"])
    assert _best_kept(state) == 14
    rest = hand(state, 0)
    for name in cheapest_payment(state, 0):
        rest.remove(name)
    assert payment_value([BY_NAME[n] for n in rest], DECK.set_values) == 14


# ------------------------------------------------------------------ discarding
def test_discards_the_card_that_loses_least_buying_power_keeping_the_proxy() -> None:
    """No affordable corporation and only a poor proxy fight: discard 3t (the 1c+3c set stays, 16)."""
    state = load(
        hands=[["x3/2", "1c", "3c", "3t"], [], []],
        holdings=[[], [["ST-A"]], []],
        profits=[0, 10, 0],
        center=FIVE_LETTERS,
    )
    assert legal(state) == ["proxy x3/2 ST-A", "discard 1c", "discard 3c", "discard 3t", "discard x3/2"]
    assert said(state) == "discard 3t"


def test_discards_capital_rather_than_a_proxy() -> None:
    """With x1 10 12 and nothing to transact, the bot keeps x1 and discards the 10."""
    state = load(hands=[["x1", "10", "12"], [], []], center=FIVE_LETTERS)
    assert legal(state) == ["discard 10", "discard 12", "discard x1"]
    assert said(state) == "discard 10"


# ------------------------------------------------------------------ whole games
class CheckedBot:
    """Wraps a bot and checks that every choice is among the legal actions."""

    def __init__(self, bot: Agent) -> None:
        self.bot = bot
        self.name = bot.name
        self.choices = 0

    def choose(self, state: GameState, seat: int) -> object:
        action = self.bot.choose(state, seat)
        assert action in state.legal_actions(seat), f"{self.name} chose illegal {action}"
        self.choices += 1
        return action


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 5])
def test_greedy_plays_whole_games_legally_and_beats_random(players: int) -> None:
    """Ten seeded games per table size, greedy in the even seats, random in the odd ones."""
    greedy_wins = 0
    for seed in range(10):
        agents = [
            CheckedBot(GreedyBot(seed * 10 + s) if s % 2 == 0 else RandomBot(seed * 10 + s))
            for s in range(players)
        ]
        result = play_match(GAME, agents, seed)
        state = result.state
        assert state.is_over()
        assert state.invariant_errors() == []
        assert sum(a.choices for a in agents) == result.actions
        assert all(a.choices > 0 for a in agents if a.name == "greedy")
        greedy_wins += any(s % 2 == 0 for s in state.winners())
    assert greedy_wins >= 9


@pytest.mark.parametrize("options", [{"payment": "each"}, {"proxy_placement": "alone", "last_draw": "yes"}])
def test_greedy_plays_legally_under_the_options(options: dict[str, str]) -> None:
    """Greedy against greedy with the other rulings: every choice legal, the game ends."""
    for seed in range(2):
        agents = [CheckedBot(GreedyBot(seed * 10 + s)) for s in range(4)]
        result = play_match(GAME, agents, seed, options)
        assert result.state.is_over()
        assert result.state.invariant_errors() == []


def test_quick_plays_whole_games_legally_and_beats_random() -> None:
    """The playout bot plays whole four-player games legally and wins most against random seats."""
    wins = 0
    for seed in range(6):
        agents = [CheckedBot(QuickBot(seed) if s == 0 else RandomBot(seed * 10 + s)) for s in range(4)]
        result = play_match(GAME, agents, seed)
        assert result.state.is_over() and result.state.invariant_errors() == []
        wins += 0 in result.state.winners()
    assert wins >= 5
