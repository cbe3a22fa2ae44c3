"""Records for the analysis tests: bots' games, staged Embers endings, a record from a position."""

from __future__ import annotations

import random

from parlour.bots.registry import make_bot
from parlour.core.game import Game
from parlour.core.match import play_match
from parlour.core.positions import JSONObject
from parlour.core.record import GameRecord
from parlour.core.registry import load_game
from parlour.core.state import GameState


def bots_record(name: str, seats: list[str], seed: int, options: JSONObject | None = None) -> GameRecord:
    """Returns the record of a game between bots (seat names as given: ``human`` plays as random)."""
    game = load_game(name)
    agents = [make_bot(game, "random" if s == "human" else s, seed * 8 + i) for i, s in enumerate(seats)]
    record = play_match(game, agents, seed, options).record
    record.seats = list(seats)
    return record


def record_from(game: Game, state: GameState, moves: list[str], seed: int = 0) -> GameRecord:
    """Returns a finished record starting at ``state``: ``moves`` (in notation, each by the seat asked
    first) while they are legal, then random play to the end."""
    record = GameRecord(game.name, len(state.scores()), 0, dict(state.to_position()["options"]))
    record.start = state.to_position()
    record.seats = ["human"] * record.players
    current = state.clone()
    rng = random.Random(seed)
    pending = list(moves)
    while not current.is_over():
        seat = current.deciders()[0]
        action = None
        if pending:
            try:
                action = current.parse_action(pending[0])
            except Exception:
                action = None
            if action is not None and current.is_legal(action, seat):
                pending.pop(0)
            else:
                pending, action = [], None
        if action is None:
            action = rng.choice(current.legal_actions(seat))
        record.add(seat, current.format_action(action))
        current.apply(action, seat)
    record.scores = current.scores()
    return record


DECK = {"1": 3, "2": 3, "3": 3, "4": 3, "5": 3, "6": 3, "7": 3, "8": 3, "douse": 6}


def embers_ending(hands: list[list[str]], fire: list[str], taken: list[list[str]]) -> GameState:
    """Returns a two-player Embers position, seat 0 to play with the draw pile empty, every card not
    placed in the discard pile (face up: nothing is hidden from seat 0 but seat 1's hand)."""
    left = dict(DECK)
    for card in [*hands[0], *hands[1], *fire, *taken[0], *taken[1]]:
        left[card] -= 1
    discard = [card for card, count in left.items() for _ in range(count)]
    position: JSONObject = {
        "format": "parlour-embers-position/1",
        "game": "embers",
        "players": 2,
        "options": {"chain": "on"},
        "chance": {"seed": 1, "events": 1, "forced": []},
        "decisions": [{"kind": "turn", "seats": [0], "data": {"step": "play"}, "concurrent": False}],
        "hands": hands,
        "draw": [],
        "taken": taken,
        "fire": fire,
        "discard": discard,
        "play": None,
        "dousers": [],
        "active": 0,
        "turn": 20,
        "over": False,
    }
    return load_game("embers").state_from_position(position)
