"""A tutorial run as a state machine: stage a step, answer the learner's action, then a game with hints."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cache

from parlour.bots.registry import SEARCH, make_bot
from parlour.core.agents import Agent
from parlour.core.errors import ParlourError
from parlour.core.game import Game
from parlour.core.registry import load_game
from parlour.core.state import Event, GameState
from parlour.tutorials.files import (
    add_ons,
    has_tutorial,
    parse,
    read_data,
    split_name,
    tutorial_file,
    tutorial_games,
)
from parlour.tutorials.format import Script, Step, TutorialError, read_script
from parlour.tutorials.staging import play, stage

MAX_BOT_ACTIONS = 10_000
"""The most bot actions played between two of the learner's in the closing game."""


class Outcome(Enum):
    """What became of the learner's action."""

    MOVED = "moved"
    """The intended action: the tutorial moved on."""
    WANTED = "wanted"
    """Another legal action: refused, the tutorial wanted the intended one (the state unchanged)."""
    ILLEGAL = "illegal"
    """Not legal: the engine's own reason (the state unchanged)."""
    UNREADABLE = "unreadable"
    """Not an action in the game's notation."""
    PLAYED = "played"
    """A legal action in the closing game."""
    OVER = "over"
    """The closing game is over (or had ended already)."""


@dataclass(frozen=True)
class Answer:
    """The tutorial's answer to an action: the outcome, a message and what the learner saw happen."""

    outcome: Outcome
    message: str
    events: list[str] = field(default_factory=list)


class Tutorial:
    """One learner going through a tutorial: the steps in order, then the closing game."""

    def __init__(self, game: Game, script: Script) -> None:
        if script.game != game.name:
            raise TutorialError(f"the tutorial is for {script.game!r}, not {game.name!r}")
        self.game, self.script = game, script
        self.index = -1
        """The current step's index; len(steps) in the closing game; -1 before start()."""
        self.state: GameState | None = None
        self.bots: dict[int, Agent] = {}

    # ------------------------------------------------------------ loading
    @classmethod
    def load(cls, name: str) -> Tutorial:
        """Returns a new run of the tutorial shipped as ``name``: a game's (``venture``) or one of its
        add-ons (``venus-needs-men/enhanced``), checked once per process."""
        game_name, part = split_name(name)
        game = load_game(game_name)
        return cls(game, shipped_script(game.name, part))

    @classmethod
    def from_bytes(cls, game: Game, raw: bytes) -> Tutorial:
        """Returns the tutorial in a file's bytes, checked step by step (hostile input: one-line errors)."""
        return cls.from_data(game, parse(raw, f"the {game.name} tutorial"))

    @classmethod
    def from_data(cls, game: Game, data: object) -> Tutorial:
        """Returns the tutorial a JSON value describes, after checking that it plays through."""
        tutorial = cls(game, read_script(data))
        tutorial.verify()
        return tutorial

    # ------------------------------------------------------------ where we are
    @property
    def learner(self) -> int:
        """The learner's seat."""
        return self.script.learner

    @property
    def step(self) -> Step | None:
        """The current step (None before start and in the closing game)."""
        return self.script.steps[self.index] if 0 <= self.index < len(self.script.steps) else None

    @property
    def in_final(self) -> bool:
        """Whether the steps are done and the closing game is on."""
        return self.index >= len(self.script.steps)

    def current(self) -> GameState:
        """Returns the position the learner is at."""
        if self.state is None:
            raise TutorialError("the tutorial has not started")
        return self.state

    def view(self) -> str:
        """Returns the table as the learner's seat sees it (nothing hidden from that seat)."""
        return self.current().render(self.learner)

    def start(self) -> Step:
        """Stages the first step and returns it."""
        self.index = -1
        self.state = None
        self._enter(0)
        step = self.step
        assert step is not None
        return step

    def step_json(self) -> dict[str, object]:
        """Returns what a front end shows now: the step (number, title, text, quote, highlights) or the
        closing game's introduction; never the position itself (the seat's own view gives that)."""
        step = self.step
        if step is None:
            final = self.script.final
            shown: dict[str, object] = {"final": True, "title": final.title, "text": final.text}
            if final.quote is not None:
                shown["quote"] = {"section": final.quote.section, "text": final.quote.text}
            return shown
        return {
            "final": False,
            "number": step.number,
            "total": len(self.script.steps),
            "id": step.id,
            "title": step.title,
            "text": step.text,
            "quote": {"section": step.quote.section, "text": step.quote.text},
            "highlight": list(step.highlight),
        }

    # ------------------------------------------------------------ the learner acts
    def try_action(self, text: str) -> Answer:
        """Answers the learner's action: moved on, wanted another (unchanged), or the engine's refusal."""
        state = self.current()
        if state.is_over():
            return Answer(Outcome.OVER, "The game is over.")
        try:
            action = state.parse_action(text)
        except ParlourError as err:
            return Answer(Outcome.UNREADABLE, str(err))
        seat = self.learner
        if not state.is_legal(action, seat):
            return Answer(
                Outcome.ILLEGAL, f"{text.strip()!r} is not legal now: {state.why_illegal(action, seat)}"
            )
        step = self.step
        if step is None:
            return self._play_final(action)
        if state.format_action(action) not in self._intended(step, state):
            wanted = " or ".join(repr(t) for t in step.intended)
            because = f": {step.why}" if step.why else "."
            return Answer(Outcome.WANTED, f"The tutorial wanted {wanted} here{because}")
        events = self._events(state.apply(action, seat))
        for number, text_after in enumerate(step.after, 1):
            try:
                events += self._events(play(state, text_after))
            except ParlourError as err:
                raise TutorialError(f"{step.label()}: after action {number} {text_after!r}: {err}") from None
        self._enter(self.index + 1)
        return Answer(Outcome.MOVED, "Well done.", events)

    def hints(self) -> list[str]:
        """Returns help: at a step its hint and the action wanted; in the closing game the engine's hints
        and the hint bot's choice."""
        state = self.current()
        step = self.step
        if step is not None:
            lines = [step.hint] if step.hint else []
            return [*lines, f"Type: {step.intended[0]}"]
        if state.is_over() or self.learner not in state.deciders():
            return []
        lines = list(state.hints(self.learner))
        adviser = make_bot(self.game, self.script.final.hint_bot, self.script.final.seed)
        choice = adviser.choose(state.clone(), self.learner)
        lines.append(f"The {self.script.final.hint_bot} bot would play: {state.format_action(choice)}")
        return lines

    # ------------------------------------------------------------ moving on
    def _enter(self, index: int) -> None:
        """Stages step ``index`` (or the closing game after the last step)."""
        self.index = index
        step = self.step
        if step is None:
            self._start_final()
            return
        if step.setup is not None:
            try:
                self.state = stage(self.game, self.script, step.setup)
            except TutorialError as err:
                raise TutorialError(f"{step.label()}: {err}") from None
        if self.current().is_over() or self.learner not in self.current().deciders():
            raise TutorialError(f"{step.label()}: the learner's seat is not asked to act")

    def _start_final(self) -> None:
        """Deals the closing game and lets the bots play up to the learner's first decision."""
        final = self.script.final
        options = {**self.script.options, **final.options}
        try:
            self.state = self.game.new_state(self.script.players, final.seed, options)
            self.bots = {s: make_bot(self.game, name, final.seed * 8 + s) for s, name in final.bots.items()}
        except ParlourError as err:
            raise TutorialError(f"final: {err}") from None
        self._bots_play()

    def _play_final(self, action: object) -> Answer:
        """Plays a legal action of the closing game, then the bots' until the learner is asked again."""
        state = self.current()
        events = self._events(state.apply(action, self.learner))
        events += self._bots_play()
        if state.is_over():
            scores = ", ".join(f"{state.seat_name(s)} {v:g}" for s, v in enumerate(state.scores()))
            return Answer(Outcome.OVER, f"The game is over: {scores}.", events)
        return Answer(Outcome.PLAYED, "", events)

    def _bots_play(self) -> list[str]:
        """Lets the bots act while the learner is not asked; returns what the learner saw."""
        state = self.current()
        events: list[str] = []
        for _ in range(MAX_BOT_ACTIONS):
            if state.is_over() or self.learner in state.deciders():
                return events
            seat = state.deciders()[0]
            choice = self.bots[seat].choose(state, seat)
            events += self._events(state.apply(choice, seat))
        raise TutorialError("the bots did not hand the game back to the learner")

    def _events(self, events: list[Event]) -> list[str]:
        """Returns the events as the learner's seat is told them."""
        return [event.for_seat(self.learner) for event in events]

    def _intended(self, step: Step, state: GameState) -> set[str]:
        """Returns the step's acceptable actions in canonical notation."""
        return {state.format_action(state.parse_action(text)) for text in step.intended}

    # ------------------------------------------------------------ checking a file
    def verify(self) -> None:
        """Walks every step with its intended actions, refusing (one line naming the step) a staged
        position that does not ask the learner, an intended action that is not legal there, an 'after'
        action that is not, and a closing game whose options or bots do not exist (or search)."""
        final = self.script.final
        for name in [*final.bots.values(), final.hint_bot]:
            if name.partition(":")[0] == SEARCH:
                raise TutorialError(f"final: {name!r}: a tutorial's bots answer at once (no search bot)")
        self.start()
        while (step := self.step) is not None:
            state = self.current()
            for text in step.intended:
                try:
                    action = state.parse_action(text)
                except ParlourError as err:
                    raise TutorialError(f"{step.label()}: intended action {text!r}: {err}") from None
                if not state.is_legal(action, self.learner):
                    reason = state.why_illegal(action, self.learner)
                    raise TutorialError(f"{step.label()}: intended action {text!r} is not legal: {reason}")
            answer = self.try_action(step.intended[0])
            if answer.outcome is not Outcome.MOVED:
                raise TutorialError(f"{step.label()}: {answer.message}")
        try:
            self.game.options({**self.script.options, **final.options})
            make_bot(self.game, final.hint_bot, 0)
        except ParlourError as err:
            raise TutorialError(f"final: {err}") from None
        self.index, self.state, self.bots = -1, None, {}


@cache
def shipped_script(name: str, part: str = "") -> Script:
    """Returns the tutorial shipped with the game ``name`` (or its add-on ``part``), checked step by step
    (once: it never changes)."""
    game = load_game(name)
    if not part and not has_tutorial(game):
        raise TutorialError(f"{game.name} has no tutorial yet (tutorials: {', '.join(tutorial_games())})")
    if part and part not in add_ons(game):
        parts = ", ".join(f"{game.name}/{p}" for p in add_ons(game)) or "none"
        raise TutorialError(f"{game.name} has no add-on tutorial {part[:40]!r} (its add-ons: {parts})")
    return Tutorial.from_data(game, read_data(game, tutorial_file(part))).script
