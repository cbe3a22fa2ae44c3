"""The Game protocol: a game's name, seat range, options, and how to start or load a state."""

from __future__ import annotations

import copy
import json
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Self, SupportsInt

from parlour.core.agents import Agent
from parlour.core.chance import Chance
from parlour.core.content import HOUSE, ContentSet, ContentSets, HouseFile, choose_set
from parlour.core.encoding import Encoding
from parlour.core.errors import OptionError, ParlourError, PositionError
from parlour.core.positions import copy_json, short_repr
from parlour.core.state import GameState

OptionsGiven = Mapping[str, object]
"""Option values as a caller gives them (names to text or values), before ``Game.options`` checks them."""
OptionValue = int | str | dict[str, str]
"""One checked option value: an integer, a choice (or list) name, or a content set's reference
(``{"name", "sha256"}``)."""
Options = dict[str, object]
"""Every option's checked value (an ``OptionValue``) by name, as ``Game.options`` returns them; each game
knows its own options' types."""


@dataclass(frozen=True)
class OptionSpec:
    """One game option (``--option name=value``): its values, default and meaning."""

    name: str
    """The option's name on the command line and in records."""
    default: int | str
    """The value used when the option is not given."""
    doc: str
    """What the option changes (one line)."""
    choices: tuple[str, ...] = ()
    """The allowed values for a choice option; empty for an integer option."""
    minimum: int = 0
    """The smallest value of an integer option."""
    maximum: int = 10**9
    """The largest value of an integer option (far beyond any game's use; keeps positions small)."""
    items: tuple[str, ...] = ()
    """For a list option: the names a comma-separated value may list (besides the ``choices``)."""
    content: HouseFile | None = None
    """For a content-set option: where its house set ships; the value names a content set."""
    stored_default: int | str | None = None
    """The value assumed when a position or a record lacks the option (it was made before the option
    existed); None: ``default``."""

    def parse(
        self,
        text: object,
        sets: Mapping[str, ContentSet] | None = None,
        stored: bool = False,
        where: str = "",
    ) -> OptionValue:
        """Returns the option's value from text (or a value), refusing what is out of range.

        A content option's value is the ``{"name", "sha256"}`` of the set it names among
        the house set and ``sets`` (see ``choose_set``; ``stored`` for a position's or a
        record's value, ``where`` says where a user's own sets go).
        """
        if self.content is not None:
            return choose_set(self.name, text, self.content.load(), sets or {}, where, stored).reference()
        if self.items:
            return self._parse_list(text)
        if self.choices:
            value = str(text).lower()
            if value not in self.choices:
                raise OptionError(
                    f"option {self.name} must be one of {', '.join(self.choices)}, not {short_repr(text)}"
                )
            return value
        try:
            if isinstance(text, bool) or (isinstance(text, float) and not text.is_integer()):
                raise ValueError(text)
            if not isinstance(text, str | bytes | SupportsInt):
                raise TypeError(text)
            number = int(text)
        except (TypeError, ValueError):
            raise OptionError(f"option {self.name} must be an integer, not {short_repr(text)}") from None
        if number < self.minimum:
            raise OptionError(f"option {self.name} must be at least {self.minimum}, not {number}")
        if number > self.maximum:
            raise OptionError(f"option {self.name} must be at most {self.maximum:,}, not {str(number)[:30]}")
        return number

    def _parse_list(self, text: object) -> str:
        """Returns one of the choices, or a comma-separated list of at most ``len(items)`` items."""
        value = str(text).strip().lower()
        if value in self.choices:
            return value
        parts = [part.strip() for part in value.split(",") if part.strip()]
        if parts and len(parts) <= len(self.items) and all(part in self.items for part in parts):
            return ",".join(parts)
        raise OptionError(
            f"option {self.name} must be {' or '.join(self.choices)} or a comma-separated list of "
            f"{', '.join(self.items)}, not {short_repr(text)}"
        )

    def values_text(self) -> str:
        """Returns the values the option takes, as ``parlour options`` shows them."""
        if self.content is not None:
            return f"{HOUSE}|NAME"
        if self.items:
            return "|".join([*self.choices, "LIST"])
        return "|".join(self.choices) if self.choices else "integer"


def choice(
    name: str,
    choices: tuple[str, ...],
    doc: str,
    default: str = "",
    items: tuple[str, ...] = (),
    stored_default: str | None = None,
) -> OptionSpec:
    """Returns a choice option (a list option when it has ``items``): its default is the first choice
    unless ``default`` names another (``stored_default``: the value older positions and records
    without the option mean)."""
    return OptionSpec(
        name, default or choices[0], doc, choices=choices, items=items, stored_default=stored_default
    )


def integer(name: str, default: int, doc: str, minimum: int = 0) -> OptionSpec:
    """Returns an integer option of at least ``minimum``."""
    return OptionSpec(name, default, doc, minimum=minimum)


def content_option(name: str, house: HouseFile, doc: str) -> OptionSpec:
    """Returns a content-set option: the house set shipped in ``house`` unless the value names another."""
    return OptionSpec(name, HOUSE, doc, content=house)


def _default(spec: OptionSpec, stored: bool) -> int | str:
    """Returns the value an option takes when not given (in stored options, its ``stored_default``)."""
    return spec.stored_default if stored and spec.stored_default is not None else spec.default


class Game(ABC):
    """A game Parlour plays: everything the tools need to start, load and run it.

    A template: ``new_state`` checks the player count and the options, then asks the game's ``deal``
    for the dealt state; ``read_position`` reads a position's options (a bad one is a PositionError),
    then asks the game's ``read`` for the state the rest describes.  A game declares its name, seats,
    options and rules summary and those two hooks; the rest has defaults.
    """

    name: str
    """Short name used on the command line (``venture``)."""
    title: str
    """Display name (``Venture``)."""
    min_players: int
    max_players: int
    option_specs: tuple[OptionSpec, ...] = ()
    """The options this game accepts."""
    rules_summary: str = ""
    """The rules in short, shown by the terminal's ``help``."""
    playout_bot: str = "random"
    """The bot a search bot plays its playouts with (a game's own bot where random ones are hopeless)."""
    search_settings: str = ""
    """Search settings that suit the game better than the defaults (``horizon=8``; a bot name's own
    settings come after them)."""
    max_actions: int = 10_000
    """Actions after which a learning environment truncates an unfinished game (PettingZoo's
    ``truncations``, OpenSpiel's ``max_game_length``): several times the game's longest random game,
    so that no policy, however poor, keeps an episode going for ever (docs/environments.md)."""
    quick_options: Mapping[str, object] = {}
    """Options that keep random playouts short (the conformance kit uses them on many seeds)."""
    content_sets: ContentSets = ContentSets()
    """The reader's own content sets (the command line hands them down; see ``with_content``)."""
    text_colours: Mapping[str, str] = {}
    """Words of the game's texts and the colour a front end shows them in (industries, clans,
    planets): a colour-blind-safe colour name (rich's names; CSS takes the same words), always beside
    the word itself, never instead of it."""
    hot_modules: tuple[str, ...] = ()
    """The game's hot modules, which the build compiles with mypyc (``make native``, a wheel's build):
    names relative to the package that defines the game (``"packing"`` for
    ``parlour.games.venture.packing``), each a plain strictly typed module (docs/adding-a-game.md,
    "Compiled modules"). The Python sources stay the reference (``PARLOUR_NATIVE``, parlour/native.py)."""

    def hot_module_names(self) -> tuple[str, ...]:
        """Returns the full names of :attr:`hot_modules` (what ``parlour.native_build`` compiles)."""
        defined_in = sys.modules[type(self).__module__]
        package = defined_in.__name__ if hasattr(defined_in, "__path__") else defined_in.__package__
        return tuple(f"{package}.{name}" if package else name for name in self.hot_modules)

    def with_content(self, sets: ContentSets) -> Self:
        """Returns this game knowing the content sets ``sets`` besides the house ones."""
        game = copy.copy(self)
        game.content_sets = sets
        return game

    def options(self, given: OptionsGiven | None = None, stored: bool = False) -> Options:
        """Returns every option's value: defaults overridden by ``given``, validated.

        ``stored`` says the values come from a position or a record: a content set is then
        named with its digest (but for the bare ``house`` of older files), and an option they lack
        takes its ``stored_default`` (the rules they were made under) if it has one.
        """
        specs = {spec.name: spec for spec in self.option_specs}
        values: Options = {spec.name: self._parse(spec, _default(spec, stored)) for spec in self.option_specs}
        for name, text in (given or {}).items():
            if name not in specs:
                known = ", ".join(sorted(specs)) or "none"
                raise OptionError(f"{self.name} has no option {short_repr(name)} (options: {known})")
            values[name] = self._parse(specs[name], text, stored)
        return values

    def _parse(self, spec: OptionSpec, text: object, stored: bool = False) -> OptionValue:
        """Returns one option's value, content-set names resolved against this game's sets."""
        where = f"~/.parlour/content/{self.name}/NAME.json or --content-dir"
        return spec.parse(text, self.content_sets.of_game(self.name), stored, where)

    def content_set(self, option: str, values: Mapping[str, object]) -> ContentSet:
        """Returns the content set a content option names in option values (``house`` if absent)."""
        spec = next(s for s in self.option_specs if s.name == option)
        assert spec.content is not None, f"{option} is not a content option"
        value = values.get(option, HOUSE)
        return choose_set(option, value, spec.content.load(), self.content_sets.of_game(self.name), "")

    def available_content(self, option: str) -> list[ContentSet]:
        """Returns the content sets a content option may name here: the house set, then the reader's."""
        spec = next(s for s in self.option_specs if s.name == option)
        assert spec.content is not None, f"{option} is not a content option"
        own = self.content_sets.of_game(self.name)
        return [spec.content.load(), *(own[name] for name in sorted(own))]

    def position_options(self, data: object) -> Options:
        """Returns the option values a position names, refusing bad ones as a PositionError."""
        given = data.get("options", {}) if isinstance(data, dict) else {}
        if not isinstance(given, dict):
            raise PositionError("options", "must be an object")
        try:
            return self.options(given, stored=True)
        except OptionError as err:
            raise PositionError("options", str(err)) from None

    def encoding(self, players: int, options: Mapping[str, object]) -> Encoding:
        """Returns the action catalogue and observation encoder learning environments use for a table
        of ``players`` with these option values (``games/<game>/encoding.py``)."""
        raise OptionError(f"{self.title} has no encoding for learning environments")

    def check_players(self, players: int) -> None:
        """Refuses a player count outside the game's range."""
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.title} takes {self.min_players} to {self.max_players} players, not {players}"
            )

    def new_state(
        self, players: int, seed: int, options: OptionsGiven | None = None, *, chance: Chance | None = None
    ) -> GameState:
        """Returns the starting state (after the deal) for a seed, or dealt by ``chance`` when given."""
        self.check_players(players)
        return self.deal(players, seed, self.options(options), chance)

    @abstractmethod
    def deal(self, players: int, seed: int, options: Options, chance: Chance | None) -> GameState:
        """Returns the game after the deal: ``players`` in range, ``options`` every option's value."""

    def state_from_position(self, data: object) -> GameState:
        """Returns the state described by a position, refusing an impossible one.

        The game reads a size-limited copy of ``data`` (the caller's objects are never kept or
        changed), and a state nobody can play on (no seat asked, or a seat asked with nothing to
        do, while the game is not over) is refused.
        """
        state = self.read_position(copy_json(data))
        check_playable(state)
        return state

    def read_position(self, data: object) -> GameState:
        """Returns the state a position (a private copy of its JSON data) describes, refusing bad ones."""
        return self.read(data, self.position_options(data))

    @abstractmethod
    def read(self, data: object, options: Options) -> GameState:
        """Returns the state a position's JSON ``data`` describes, ``options`` its checked option values."""

    def load_position(self, text: str) -> GameState:
        """Parses position JSON text; bad JSON is refused with the line and column."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise PositionError("", f"not valid JSON: {err}") from None
        except (ValueError, RecursionError) as err:
            raise PositionError("", f"not usable JSON: {type(err).__name__}") from None
        return self.state_from_position(data)

    def board_svg(self, state: GameState | None = None) -> str:
        """Returns the board drawn as SVG (with the pieces of ``state``); games without a board refuse."""
        raise OptionError(f"{self.title} has no board to draw")

    def bots(self) -> dict[str, Callable[[int], Agent]]:
        """Returns the game's own bots by name, each a factory taking a seed."""
        return {}

    def warm_up(self) -> None:
        """Loads what the rules load only when first needed (a long-running server calls this at start,
        so no move ever waits for it)."""
        return None


def check_playable(state: GameState) -> None:
    """Refuses a state that is not over yet asks nobody, or asks a seat that has no legal action."""
    if state.is_over():
        return
    deciders = state.deciders()
    if not deciders:
        raise PositionError("decisions", "nobody may act, yet the game is not over")
    try:
        for seat in deciders:
            if not state.legal_actions(seat):
                raise PositionError("decisions", f"seat {seat} is asked to act but has no legal action")
    except (ParlourError, LookupError, AssertionError, TypeError, ValueError, AttributeError) as err:
        if isinstance(err, PositionError):
            raise
        raise PositionError(
            "decisions", f"the decisions cannot be played from here ({type(err).__name__})"
        ) from None
