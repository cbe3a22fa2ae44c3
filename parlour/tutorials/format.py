"""The tutorial file's format: read field by field, every input hostile, errors one line naming the step."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from parlour.core.chance import Forced, read_forced
from parlour.core.errors import ParlourError, PositionError

FORMAT = "parlour-tutorial/1"
"""The format tag every tutorial file carries."""
MAX_BYTES = 256 * 1024
"""The largest tutorial file read."""
MAX_STEPS = 60
"""The most steps a tutorial may have (15 to 30 are usual)."""
MAX_TEXT = 2000
"""The longest text of a step, a quote or a note (characters)."""
MAX_WORD = 200
"""The longest action, id, name, section or highlight (characters)."""
MAX_LIST = 300
"""The most entries of any list (setup actions, forced outcomes, highlights, acceptable actions)."""
MAX_ORDER = 500
"""The most names of one forced order."""


class TutorialError(ParlourError):
    """A tutorial file that is malformed or does not play through: one line naming the step."""


@dataclass(frozen=True)
class Quote:
    """A rulebook sentence, verbatim, and the section it is from."""

    section: str
    text: str


@dataclass(frozen=True)
class Setup:
    """A position staged from the start: the seed, the forced chance outcomes and the actions played."""

    seed: int
    chance: tuple[Forced, ...]
    """Forced outcomes in order; a pile's order may name only its top cards (the rest follow)."""
    actions: tuple[str, ...]
    """Actions in notation, each played by the seat deciding then."""


@dataclass(frozen=True)
class Step:
    """One lesson: a staged position, what to do and why, the rule taught and the action wanted."""

    number: int
    """1 for the first step (messages name steps by number and id)."""
    id: str
    title: str
    text: str
    quote: Quote
    highlight: tuple[str, ...]
    """Selectors of the drawn table's parts concerned (the game's drawing defines them)."""
    intended: tuple[str, ...]
    """The acceptable actions in notation; the first is the one a walk plays."""
    setup: Setup | None = None
    """None: the step continues from the previous one."""
    why: str = ""
    """Why another legal action is not wanted here."""
    hint: str = ""
    """More help when the learner asks for it."""
    after: tuple[str, ...] = ()
    """Actions played after the intended one (the other seats' moves, as given)."""

    def label(self) -> str:
        """Returns how messages name the step: ``step 3 (take-over)``."""
        return f"step {self.number} ({self.id})"


@dataclass(frozen=True)
class Final:
    """The closing game against gentle bots, with hints available."""

    title: str
    text: str
    seed: int
    bots: Mapping[int, str]
    """The bot of every seat but the learner's."""
    options: Mapping[str, str] = field(default_factory=dict)
    quote: Quote | None = None
    hint_bot: str = "greedy"
    """The bot whose choice is offered as a hint."""


@dataclass(frozen=True)
class Script:
    """A whole tutorial as its file says it."""

    game: str
    title: str
    about: str
    players: int
    learner: int
    """The seat the learner plays."""
    options: Mapping[str, str]
    steps: tuple[Step, ...]
    final: Final


# ------------------------------------------------------------------ reading
def read_script(data: object) -> Script:
    """Returns the tutorial a file's JSON describes, refusing anything malformed in one line."""
    top = _object(
        data,
        "the tutorial",
        {"format", "game", "title", "about", "players", "learner", "options", "steps", "final"},
        {"format", "game", "title", "players", "learner", "steps", "final"},
    )
    if top["format"] != FORMAT:
        raise TutorialError(f"the tutorial's format must be {FORMAT!r}")
    players = _integer(top["players"], "players", 1, 16)
    learner = _integer(top["learner"], "learner", 0, players - 1)
    raw_steps = top["steps"]
    if not isinstance(raw_steps, list) or not 1 <= len(raw_steps) <= MAX_STEPS:
        raise TutorialError(f"steps must be a list of 1 to {MAX_STEPS} steps")
    steps = tuple(_step(entry, n + 1) for n, entry in enumerate(raw_steps))
    if steps[0].setup is None:
        raise TutorialError(f"{steps[0].label()}: the first step must have a setup")
    ids: set[str] = set()
    for step in steps:
        if step.id in ids:
            raise TutorialError(f"{step.label()}: the id is used by another step")
        ids.add(step.id)
    return Script(
        game=read_word(top["game"], "game"),
        title=read_text(top["title"], "title", MAX_WORD),
        about=read_text(top.get("about", ""), "about"),
        players=players,
        learner=learner,
        options=_options(top.get("options", {}), "options"),
        steps=steps,
        final=_final(top["final"], players, learner),
    )


def _step(data: object, number: int) -> Step:
    """Reads one step; every error names it."""
    where = f"step {number}"
    if isinstance(data, dict) and isinstance(data.get("id"), str) and len(data["id"]) <= MAX_WORD:
        where = f"step {number} ({_printable(data['id'])})"
    try:
        entry = _object(
            data,
            "the step",
            {"id", "title", "text", "quote", "highlight", "intended", "setup", "why", "hint", "after"},
            {"id", "title", "text", "quote", "highlight", "intended"},
        )
        intended = _words(entry["intended"], "intended")
        if not intended:
            raise TutorialError("intended: must name at least one action")
        return Step(
            number=number,
            id=read_word(entry["id"], "id"),
            title=read_text(entry["title"], "title", MAX_WORD),
            text=read_text(entry["text"], "text"),
            quote=read_quote(entry["quote"]),
            highlight=_words(entry["highlight"], "highlight"),
            intended=intended,
            setup=None if entry.get("setup") is None else _setup(entry["setup"]),
            why=read_text(entry.get("why", ""), "why"),
            hint=read_text(entry.get("hint", ""), "hint"),
            after=_words(entry.get("after", []), "after"),
        )
    except TutorialError as err:
        raise TutorialError(f"{where}: {err}") from None


def _setup(data: object) -> Setup:
    """Reads a step's setup: seed, forced outcomes, actions."""
    entry = _object(data, "setup", {"seed", "chance", "actions"}, {"seed"})
    raw = entry.get("chance", [])
    if not isinstance(raw, list) or len(raw) > MAX_LIST:
        raise TutorialError(f"setup.chance: must be a list of at most {MAX_LIST} outcomes")
    chance = []
    for i, item in enumerate(raw):
        try:
            forced = read_forced(item, f"setup.chance[{i}]")
        except PositionError as err:
            raise TutorialError(str(err)) from None
        if isinstance(forced.value, list) and (
            len(forced.value) > MAX_ORDER or any(len(v) > MAX_WORD for v in forced.value)
        ):
            raise TutorialError(f"setup.chance[{i}]: an order of at most {MAX_ORDER} short names")
        chance.append(forced)
    return Setup(
        seed=_integer(entry["seed"], "setup.seed", 0, 2**62),
        chance=tuple(chance),
        actions=_words(entry.get("actions", []), "setup.actions"),
    )


def _final(data: object, players: int, learner: int) -> Final:
    """Reads the closing game: every other seat needs a bot."""
    try:
        entry = _object(
            data,
            "final",
            {"title", "text", "seed", "bots", "options", "quote", "hint_bot"},
            {"title", "text", "seed", "bots"},
        )
        raw = entry["bots"]
        if not isinstance(raw, dict):
            raise TutorialError("bots: must map each other seat to a bot name")
        bots: dict[int, str] = {}
        for key, name in raw.items():
            if not (isinstance(key, str) and key.isdecimal() and key.isascii() and len(key) <= 2):
                raise TutorialError(f"bots: {_printable(str(key))!r} is not a seat number")
            bots[int(key)] = read_word(name, f"bots.{key}")
        if set(bots) != set(range(players)) - {learner}:
            raise TutorialError("bots: must name a bot for every seat but the learner's")
        return Final(
            title=read_text(entry["title"], "title", MAX_WORD),
            text=read_text(entry["text"], "text"),
            seed=_integer(entry["seed"], "seed", 0, 2**62),
            bots=bots,
            options=_options(entry.get("options", {}), "options"),
            quote=None if entry.get("quote") is None else read_quote(entry["quote"]),
            hint_bot=read_word(entry.get("hint_bot", "greedy"), "hint_bot"),
        )
    except TutorialError as err:
        raise TutorialError(f"final: {err}") from None


# ------------------------------------------------------------------ small readers
def _object(data: object, what: str, allowed: set[str], required: set[str]) -> dict[str, object]:
    """Returns a JSON object with only ``allowed`` keys and every ``required`` one."""
    if not isinstance(data, dict):
        raise TutorialError(f"{what} must be an object")
    for key in data:
        if key not in allowed:
            raise TutorialError(f"unknown key {_printable(str(key))[:MAX_WORD]!r} in {what}")
    for key in sorted(required):
        if key not in data:
            raise TutorialError(f"{what} lacks {key!r}")
    return data


def read_quote(data: object) -> Quote:
    """Reads a quote: the section and the sentence."""
    entry = _object(data, "quote", {"section", "text"}, {"section", "text"})
    return Quote(
        read_text(entry["section"], "quote.section", MAX_WORD), read_text(entry["text"], "quote.text")
    )


def _options(data: object, where: str) -> dict[str, str]:
    """Reads game options as name → text."""
    if not isinstance(data, dict) or len(data) > 50:
        raise TutorialError(f"{where}: must be an object of option texts")
    return {read_word(k, where): read_word(v, f"{where}.{k}") for k, v in data.items()}


def _integer(value: object, where: str, low: int, high: int) -> int:
    """Returns an integer from ``low`` to ``high``."""
    if type(value) is not int or not low <= value <= high:
        raise TutorialError(f"{where}: must be a whole number from {low} to {high}")
    return value


def read_text(value: object, where: str, limit: int = MAX_TEXT) -> str:
    """Returns printable text (newlines allowed) of at most ``limit`` characters."""
    if not isinstance(value, str) or len(value) > limit:
        raise TutorialError(f"{where}: must be text of at most {limit} characters")
    if any(not (c.isprintable() or c == "\n") for c in value):
        raise TutorialError(f"{where}: holds a control character")
    return value


def read_word(value: object, where: str) -> str:
    """Returns a short printable, non-empty one-line text."""
    text = read_text(value, where, MAX_WORD)
    if not text.strip() or "\n" in text:
        raise TutorialError(f"{where}: must be a non-empty line")
    return text


def _words(value: object, where: str) -> tuple[str, ...]:
    """Returns a list of short lines."""
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise TutorialError(f"{where}: must be a list of at most {MAX_LIST} texts")
    return tuple(read_word(v, f"{where}[{i}]") for i, v in enumerate(value))


def _printable(text: str) -> str:
    """Returns ``text`` with control characters escaped (for a message)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
