"""Conformance checks run over many seeds for every registered game.

Each check raises ``AssertionError`` with a message naming the seed and the
step, so a failure reads as a reproducible game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence

from parlour.bots.random_bot import RandomBot
from parlour.bots.registry import make_bot
from parlour.core.agents import Agent
from parlour.core.errors import IllegalActionError, NotationError
from parlour.core.game import Game
from parlour.core.match import play_match
from parlour.core.record import GameRecord, replay
from parlour.core.state import GameState

MALFORMED = (
    "",
    "   ",
    "\t\n",
    "xyzzy",
    "xyzzy plugh 7",
    "42 42 42",
    "-1",
    "\x00",
    "\u202e",
    "é" * 3,
    "🂡",
    "()",
    "{}",
    '"quoted"',
    "a" * 201,
)
"""Text no game's notation reads: empty, blank, control and odd characters, numbers alone, brackets,
unknown words, over-long text. :func:`malformed` adds text shaped by the state's own verbs."""


def snapshot(state: GameState) -> str:
    """Returns the state's position as canonical JSON text (for before/after comparisons)."""
    return json.dumps(state.to_position(), sort_keys=True)


def playout(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    each: Callable[[GameState, int], None] | None = None,
    max_actions: int = 100_000,
) -> GameState:
    """Plays random legal actions through ``apply`` (checked) to the end; calls ``each`` per step."""
    state = game.new_state(players, seed, options)
    rng = random.Random(seed)
    step = 0
    while not state.is_over():
        assert step < max_actions, f"seed {seed}: no end after {max_actions} actions"
        deciders = state.deciders()
        assert deciders, f"seed {seed} step {step}: nobody may act but the game is not over"
        seat = rng.choice(deciders)
        legal = state.legal_actions(seat)
        assert legal, f"seed {seed} step {step}: seat {seat} may act but has no legal action"
        state.apply(rng.choice(legal), seat)
        step += 1
        if each is not None:
            each(state, step)
    return state


def states_along(
    game: Game, players: int, seed: int, every: int = 7, options: Mapping[str, object] | None = None
) -> Iterator[GameState]:
    """Yields copies of states met along a random playout, one in ``every`` steps; each copy must count
    the actions applied so far, as the state does (a ``clone`` that drops the count fails here)."""
    found: list[GameState] = []

    def keep(state: GameState, step: int) -> None:
        if step % every == 0:
            copy = state.clone()
            assert copy.actions_applied == state.actions_applied == step, (
                f"seed {seed} step {step}: a clone counts {copy.actions_applied} actions applied, "
                f"the state {state.actions_applied}"
            )
            found.append(copy)

    found.append(game.new_state(players, seed, options))
    playout(game, players, seed, options, keep)
    yield from found


def check_every_legal_action_applies(state: GameState) -> None:
    """Applies each legal action of each decider to a copy; none may be refused or raise."""
    for seat in state.deciders():
        for action in state.legal_actions(seat):
            copy = state.clone()
            copy.apply(action, seat)


def malformed(state: GameState) -> list[str]:
    """Returns :data:`MALFORMED` and, for each decider's first legal action, its text with junk after it
    and its verb followed by a control character (game-neutral: the verbs are the state's own)."""
    found = list(MALFORMED)
    for seat in state.deciders():
        legal = state.legal_actions(seat)
        if legal:
            text = state.format_action(legal[0])
            found += [f"{text} xyzzy", f"{text.split(' ')[0]} \x00"]
    return found


def check_refusals(state: GameState, other: GameState | None = None) -> None:
    """Malformed text, wrong seats and actions legal elsewhere are refused; the state is unchanged."""
    before = snapshot(state)
    for text in malformed(state):
        try:
            state.apply_notation(text)
        except (NotationError, IllegalActionError):
            pass
        else:
            raise AssertionError(f"malformed {text!r} was accepted")
        assert snapshot(state) == before, f"refusing {text!r} changed the state"
    deciders = state.deciders()
    for seat in range(state.players):
        if seat in deciders or not deciders:
            continue
        action = state.legal_actions(deciders[0])[0]
        _expect_refusal(state, action, seat, before)
    if other is not None:
        for seat in other.deciders():
            for action in other.legal_actions(seat):
                if deciders and action not in state.legal_actions(seat):
                    _expect_refusal(state, action, seat, before)


def _expect_refusal(state: GameState, action: object, seat: int, before: str) -> None:
    """Applies an action that must be refused and checks nothing changed."""
    try:
        state.apply(action, seat)
    except IllegalActionError as err:
        assert str(err), "a refusal must say why"
    else:
        raise AssertionError(f"illegal {action} by seat {seat} was accepted")
    assert snapshot(state) == before, f"refusing {action} changed the state"


def check_position_round_trip(game: Game, state: GameState) -> None:
    """Writes and reloads the position: same JSON, same legal actions."""
    text = json.dumps(state.to_position())
    loaded = game.load_position(text)
    assert snapshot(loaded) == snapshot(state), "position did not round-trip"
    for seat in state.deciders():
        assert loaded.legal_actions(seat) == state.legal_actions(seat), "legal actions differ after reload"


def check_position_is_copied(game: Game, state: GameState) -> None:
    """A state loaded from position data never shares it: playing on the state leaves the data as it was."""
    data = state.to_position()
    before = json.dumps(data, sort_keys=True)
    loaded = game.state_from_position(data)
    if not loaded.is_over():
        seat = loaded.deciders()[0]
        loaded.apply(loaded.legal_actions(seat)[-1], seat)
    assert json.dumps(data, sort_keys=True) == before, "a loaded state shares objects with its position"


def check_notation_round_trip(state: GameState) -> None:
    """Every legal action's text parses back to the same action."""
    for seat in state.deciders():
        for action in state.legal_actions(seat):
            text = state.format_action(action)
            assert state.parse_action(text) == action, f"{text!r} did not round-trip"


def check_views_hide_secrets(state: GameState, rng: random.Random) -> None:
    """A seat's view is the same in every state it cannot tell apart (its determinisations).

    If a view carried another seat's hidden cards, re-dealing them would change it.  A determinisation
    keeps the count of actions applied too (it is public).
    """
    for seat in range(state.players):
        mine = state.observation(seat)
        for _ in range(3):
            other = state.determinize(seat, rng)
            assert other.observation(seat) == mine, f"seat {seat}'s view depends on hidden cards"
            assert other.actions_applied == state.actions_applied, (
                f"seat {seat}'s determinisation counts {other.actions_applied} actions applied, "
                f"not {state.actions_applied}"
            )
            assert other.public_observation() == state.public_observation(), "public view leaks"
            json.dumps(mine)


def check_secrecy(state: GameState, rng: random.Random) -> None:
    """Who is asked to act, and what the table is told, depend only on public information.

    For each seat ``v``, ``other = state.determinize(v, rng)`` differs from ``state`` only in what
    ``v`` cannot see (others' hands, face-down piles, the generator).  Both must ask the same seats.
    Then a decider (``v`` if it may act, else one at random) plays the same action in both (one legal
    in both, by notation; ``v``'s legal actions must be the same in both, as its own cards are).
    Unless a chance event was drawn in either copy (a roll or a shuffle: the resampled future may
    differ), the seats asked next must be the same; and unless the action turned a hidden card face
    up (the public views, decisions aside, differ: a drawn Profit card, a new face-up Upgrade), so
    must the public events.  (In these games a card turned face up never changes who is asked next;
    a game where it may would compare the seats asked only when the public views agree.)

    The seats asked before the action agree by construction (a determinisation copies the decision
    stack); a leak shows when the engine works out whom to ask next.  A game that asked only the
    holders of a playable card (Venus Needs Men!'s Zap windows before issue 10) fails here: after a
    pass or a card, the next seat asked differs between the copies.
    """
    deciders = state.deciders()
    for viewer in range(state.players):
        other = state.determinize(viewer, rng)
        assert other.deciders() == deciders, f"seat {viewer}: deciders depend on hidden information"
        if not deciders:
            continue
        # The viewer acts if it may (its own cards are the same in both); else some other decider does.
        seat = viewer if viewer in deciders else rng.choice(deciders)
        mine = {state.format_action(a): a for a in state.legal_actions(seat)}
        theirs = {other.format_action(a): a for a in other.legal_actions(seat)}
        if seat == viewer:
            assert list(mine) == list(theirs), f"seat {seat}'s legal actions depend on others' secrets"
        common = [text for text in mine if text in theirs]
        if common:
            text = rng.choice(common)
            _same_public_outcome(state, other, seat, (mine[text], theirs[text]), text)


def _same_public_outcome(
    state: GameState, other: GameState, seat: int, actions: tuple[object, object], text: str
) -> None:
    """Applies the same action to copies of two states told apart only by secrets; compares the outcomes."""
    first, second = state.clone(), other.clone()
    before = [(s.chance.events, len(s.chance.forced)) for s in (first, second)]
    told = [
        [event.for_seat(None) for event in copy.apply(action, seat)]
        for copy, action in zip((first, second), actions, strict=True)
    ]
    if [(s.chance.events, len(s.chance.forced)) for s in (first, second)] != before:
        return  # a die or a shuffle: the future of the copies differs on purpose
    where = f"after seat {seat}'s {text!r}"
    assert first.deciders() == second.deciders(), (
        f"{where}: the seats asked depend on hidden information ({first.deciders()} or {second.deciders()})"
    )
    if _public_apart_from_decisions(first, first) == _public_apart_from_decisions(second, first):
        assert told[0] == told[1], f"{where}: public events depend on hidden information {told}"


def _public_apart_from_decisions(state: GameState, decisions: GameState) -> Mapping[str, object]:
    """Returns ``state``'s public view as if its decision stack were that of ``decisions``."""
    probe = state.clone()
    probe.stack = decisions.stack.copy()
    return probe.public_observation()


def check_secrecy_along(
    game: Game, players: int, seeds: Sequence[int], every: int, options: Mapping[str, object] | None = None
) -> None:
    """Runs :func:`check_secrecy` on every ``every``-th state of random playouts of these seeds."""
    rng = random.Random(players)
    for seed in seeds:
        for state in states_along(game, players, seed, every, options):
            if not state.is_over():
                try:
                    check_secrecy(state, rng)
                except AssertionError as err:
                    raise AssertionError(f"{game.name}, {players} players, seed {seed}: {err}") from None


def check_bot_sees_only_its_seat(
    state: GameState, make: Callable[[], Agent], rng: random.Random, tries: int = 3
) -> None:
    """A bot's choice for a seat is the same in every determinisation of what that seat cannot see.

    ``make`` returns a fresh bot, seeded the same each time (so neither its seed nor its memory of
    earlier calls differs); for each decider ``seat``, the state is replaced by
    ``state.determinize(seat, rng)`` several times and the bot must choose the same action (by
    notation) in each.  A bot that read another seat's hand, a face-down pile or the state's future
    chance would choose differently in some re-deal.
    """
    for seat in state.deciders():
        chosen = state.format_action(make().choose(state, seat))
        for _ in range(tries):
            other = state.determinize(seat, rng)
            again = other.format_action(make().choose(other, seat))
            assert again == chosen, (
                f"seat {seat}: the bot chose {chosen!r}, but {again!r} in a re-deal of what it cannot see"
            )


def check_bot_sees_only_its_seat_along(
    game: Game,
    bot: str,
    players: int,
    seeds: Sequence[int],
    every: int,
    options: Mapping[str, object] | None = None,
) -> None:
    """Runs :func:`check_bot_sees_only_its_seat` for the bot named ``bot`` (seeded 0) on every
    ``every``-th state of random playouts and of games the bot plays against itself, for each seed."""
    rng = random.Random(players)
    for seed in seeds:
        agents = [make_bot(game, bot, seed * 8 + s) for s in range(players)]
        states = [*states_along(game, players, seed, every, options)]
        states += states_of_match(game, agents, seed, every, options)
        for state in states:
            if state.is_over():
                continue
            try:
                check_bot_sees_only_its_seat(state, lambda: make_bot(game, bot, 0), rng)
            except AssertionError as err:
                where = f"step {state.actions_applied}"
                raise AssertionError(
                    f"{game.name} {bot}, {players} players, seed {seed}, {where}: {err}"
                ) from None


def without_chance(state: GameState) -> str:
    """Returns the state's position as canonical JSON text, leaving out its ``chance`` (the generator a
    determinisation replaces): what a re-deal must change."""
    position = {k: v for k, v in state.to_position().items() if k != "chance"}
    return json.dumps(position, sort_keys=True)


def holds_private(state: GameState, seat: int) -> bool:
    """Returns whether ``seat``'s view shows something the public view does not: a field that differs
    from the public one, is not empty (an empty hand hides nothing) and is not the seat's own number
    (the view naming its viewer). Then the other seats have not seen everything."""
    mine, public = state.observation(seat), state.public_observation()
    return any(
        value != public.get(key)
        and (type(value) is not int or value != seat)
        and value not in (None, "", [], {})
        for key, value in mine.items()
    )


def check_determinize_redeals(states: Sequence[GameState], rng: random.Random, tries: int = 4) -> None:
    """Determinisations re-deal what the seat has not seen.

    For each seat, over the states given (those met along several games, say), some determinisation
    of a state where another seat's view shows private information (:func:`holds_private`) must
    differ from its state in more than the generator (:func:`without_chance`): a ``determinize`` that
    returns the state unchanged, or with only a fresh generator, fails.  A state whose hidden cards
    the seat can work out (an empty draw pile and one other hand, say), or one without private
    information, may legitimately re-deal nothing, so the check asks it of some state, not of each.
    """
    live = [state for state in states if not state.is_over()]
    for seat in range(max((state.players for state in live), default=0)):
        hidden = [s for s in live if any(holds_private(s, v) for v in range(s.players) if v != seat)]
        if not hidden or any(
            without_chance(s.determinize(seat, rng)) != without_chance(s)
            for s in hidden
            for _ in range(tries)
        ):
            continue
        raise AssertionError(
            f"seat {seat}: no determinisation re-dealt anything in {len(hidden)} states where other "
            "seats hold private information"
        )


def check_clone_is_exact(state: GameState) -> None:
    """A copy is the same state: the same position, count of actions applied, seats asked, legal
    actions and views."""
    copy = state.clone()
    assert snapshot(copy) == snapshot(state), "a clone's position differs from the original's"
    assert copy.actions_applied == state.actions_applied, (
        f"a clone counts {copy.actions_applied} actions applied, the original {state.actions_applied}"
    )
    assert copy.deciders() == state.deciders(), "a clone asks other seats"
    for seat in state.deciders():
        assert copy.legal_actions(seat) == state.legal_actions(seat), (
            f"a clone's legal actions differ ({seat})"
        )
    for seat in range(state.players):
        assert copy.observation(seat) == state.observation(seat), f"a clone's view differs (seat {seat})"


def check_clone_is_deep(state: GameState, rng: random.Random) -> None:
    """Playing on a copy never changes the original."""
    before = snapshot(state)
    copy = state.clone()
    for _ in range(20):
        if copy.is_over():
            break
        seat = copy.deciders()[0]
        copy.apply(rng.choice(copy.legal_actions(seat)), seat)
    assert snapshot(state) == before, "playing on a clone changed the original"


def check_replay(game: Game, players: int, seed: int, options: Mapping[str, object] | None = None) -> None:
    """A match's record, written and read back, replays to the identical final state."""
    agents = [RandomBot(seed * 8 + s) for s in range(players)]
    result = play_match(game, agents, seed, options)
    record = GameRecord.loads(result.record.dumps())
    final = replay(game, record)
    assert snapshot(final) == snapshot(result.state), f"seed {seed}: replay diverged"
    assert final.scores() == result.state.scores()


def check_invariants(state: GameState) -> None:
    """Raises if the game's own conservation invariants fail."""
    problems = state.invariant_errors()
    assert not problems, "; ".join(problems)


def check_states(game: Game, states: Sequence[GameState], rng: random.Random) -> None:
    """Runs every per-state check of the kit on a sequence of states met along one game."""
    for i, state in enumerate(states):
        check_invariants(state)
        check_every_legal_action_applies(state)
        check_refusals(state, states[i - 1] if i else None)
        check_position_round_trip(game, state)
        check_position_is_copied(game, state)
        check_notation_round_trip(state)
        check_views_hide_secrets(state, rng)
        check_secrecy(state, rng)
        check_clone_is_exact(state)
        check_clone_is_deep(state, rng)


def states_of_match(
    game: Game, agents: Sequence[Agent], seed: int, every: int, options: Mapping[str, object] | None = None
) -> list[GameState]:
    """Returns copies of every ``every``-th state of a game played by ``agents``, and its final state."""
    state = game.new_state(len(agents), seed, options)
    found = []
    while not state.is_over():
        if state.actions_applied % every == 0:
            found.append(state.clone())
        seat = state.deciders()[0]
        state.apply(agents[seat].choose(state, seat), seat)
    return [*found, state]


def check_game(game: Game, players: int, seeds: range, options: Mapping[str, object] | None = None) -> None:
    """Runs every check of the kit on states along random playouts of each seed."""
    rng = random.Random(0)
    met: list[GameState] = []
    for seed in seeds:
        states = list(states_along(game, players, seed, 11, options))
        check_states(game, states, rng)
        check_replay(game, players, seed, options)
        met += states
    check_determinize_redeals(met, rng)


__all__ = [
    "check_bot_sees_only_its_seat",
    "check_bot_sees_only_its_seat_along",
    "check_clone_is_exact",
    "check_determinize_redeals",
    "check_game",
    "check_secrecy",
    "check_secrecy_along",
    "check_states",
    "playout",
    "snapshot",
    "states_along",
    "states_of_match",
]
