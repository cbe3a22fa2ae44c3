"""Actions as frozen dataclasses, one per verb, and their notation read and written from declared forms.

A game declares each verb's forms; :class:`Notation` formats and parses every action from them::

    >>> @dataclass(frozen=True, slots=True)
    ... class Move(Action):
    ...     forms = ("move {piece} on {onto}", "move {piece} alone")
    ...     piece: str
    ...     onto: str | None = None
    >>> notation = Notation([Move], {"piece": Word("a piece"), "onto": Word("a piece")})
    >>> notation.parse("MOVE a on b")
    Move(piece='a', onto='b')
    >>> notation.format(Move("a"))
    'move a alone'

A verb with one form may name it as a class argument instead, and a verb without arguments subclasses
:class:`Bare`: ``class Pass(Bare, form="pass")`` (beside the game's own base class, if it has one:
``class Pass(Bare, BossAction, form="pass")``).

Legal-action lists reuse one object per action: ``Move.of("a", "b")`` is the one shared ``Move("a", "b")``
(:meth:`Action.of`), so the engine finds the chosen action among them by identity, and no list built
after every action makes its actions anew::

    >>> Move.of("a", "b") is Move.of("a", "b") == Move("a", "b")
    True

A form is words separated by spaces: a literal word (matched without regard to case), ``{field}``
(one word read by the codec named like the field, or ``{field:codec}``), ``{field?}`` (a trailing
word that may be missing: the field keeps its default), ``{field*}`` (every word left, as a tuple;
maybe none) or ``[flag]`` (a literal word that may be missing: the boolean field ``flag`` says
whether it is there). The first literal word is the verb. Where a verb has several forms, writing
an action takes the first form that fits its values: each field the form leaves out must hold its
default, each required field the form names must not.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from functools import lru_cache
from typing import Any, ClassVar, Generic, Self, cast, dataclass_transform

from typing_extensions import TypeVar

from parlour.core.errors import NotationError

T = TypeVar("T")
MAX_CACHED = 200_000
"""The most action texts a notation keeps (games have far fewer distinct actions)."""
MAX_SHARED = 100_000
"""The most shared objects one action class keeps (:meth:`Action.of`; a game's actions are finite and far
fewer: past it, the least recently asked are forgotten, and made again, equal, when asked)."""


class Action:
    """The base of every game's actions: a frozen dataclass per verb, declaring its notation forms."""

    __slots__ = ()
    forms: ClassVar[tuple[str, ...]] = ()
    """The action's notation forms (see the module's docstring)."""
    notation: ClassVar[Notation[Any]]
    """The game notation the class belongs to (set when a :class:`Notation` takes it)."""

    def __init_subclass__(cls, form: str = "", **kwargs: object) -> None:
        """Takes a verb's only form as a class argument (``class Pass(Bare, form="pass")``) and gives the
        class its own shared actions (:meth:`of`)."""
        super().__init_subclass__(**kwargs)
        # The class's own ``of``: a bounded functools cache around the class, looked up in C (a classmethod's
        # dict lookup runs a Python frame: twice the time, on the hot path of legal-action lists). Made
        # afresh for the class that @dataclass(slots=True) makes in the class's place.
        cls.of = staticmethod(lru_cache(maxsize=MAX_SHARED)(cls))  # type: ignore[method-assign]
        if form:
            cls.forms = (form,)

    @classmethod
    def of(cls, *fields: Hashable) -> Self:
        """Returns the one shared action of this class with these positional fields (made on first
        asking): legal-action lists reuse it, so the engine finds the chosen action by identity.  Equal
        fields give the same object; give them as the lists do (``Travel.of("R")`` and
        ``Travel.of("R", -1)`` are equal actions but two objects).  Each class keeps the
        :data:`MAX_SHARED` it was last asked for."""
        return cast(Callable[..., Self], cls)(*fields)  # Action itself: every subclass has its cache instead

    def __str__(self) -> str:
        """Returns the action's notation."""
        return self.notation.format(self)

    @property
    def verb(self) -> str:
        """The action's verb: the first word of its forms (``offer``, ``pass``...), for messages."""
        return self.forms[0].split(" ", 1)[0]


A = TypeVar("A", bound=Action, default=Action)
_Act = TypeVar("_Act", bound=Action)


@dataclass_transform(frozen_default=True)
def action(cls: type[_Act]) -> type[_Act]:
    """Declares an action class: a frozen dataclass with slots (``@action`` over ``class Take(Action)``)."""
    return dataclass(frozen=True, slots=True)(cls)


@action
class Bare(Action):
    """An action that is its verb alone, declared in two lines: ``class Pass(Bare, form="pass")``."""


class Mismatch(NotationError):
    """A word does not fit where it stands (another form of the verb may still read the text)."""


class Codec(ABC, Generic[T]):
    """How one argument is written: reads a word (refusing what it is not) and writes a value."""

    what: str = "a word"
    """What the argument is, for messages ("a colour letter (R M O G B Y)")."""

    @abstractmethod
    def read(self, word: str) -> T:
        """Returns the value written ``word``; raises Mismatch (or NotationError: final) if it is not one."""

    def write(self, value: T) -> str:
        """Returns the value's text."""
        return str(value)


class Word(Codec[str]):
    """A word in lower case, matching a pattern (default: letters, digits and ``-:/_``)."""

    def __init__(self, what: str, pattern: str = r"[a-z0-9:/_-]{1,40}", upper: bool = False) -> None:
        self.what = what
        self.pattern = re.compile(pattern, re.IGNORECASE)
        self.upper = upper

    def read(self, word: str) -> str:
        """Returns the word normalised (lower case, or upper with ``upper``), if it fits the pattern."""
        text = word.upper() if self.upper else word.lower()
        if not text.isascii() or not self.pattern.fullmatch(text):
            raise Mismatch(f"{word[:24]!r} is not {self.what}")
        return text


class Number(Codec[int]):
    """A whole number of at most ``digits`` digits (never a number too long to read)."""

    def __init__(self, what: str = "a whole number", digits: int = 6, prefix: str = "") -> None:
        self.what, self.digits, self.prefix = what, digits, prefix

    def read(self, word: str) -> int:
        """Returns the number written ``word`` (after the prefix, e.g. ``@`` for a seat)."""
        digits = word[len(self.prefix) :] if word.startswith(self.prefix) else ""
        if not digits.isdecimal() or not digits.isascii() or len(digits) > self.digits:
            raise Mismatch(f"{word[:12]!r} is not {self.what}")
        return int(digits)

    def write(self, value: int) -> str:
        """Returns the number with its prefix."""
        return f"{self.prefix}{value}"


@dataclass(frozen=True, slots=True)
class _Slot:
    """One word of a form: a literal, or a field read by a codec (optional, rest-of-line or flag)."""

    literal: str | None
    field: str | None = None
    codec: str | None = None
    optional: bool = False
    rest: bool = False
    flag: bool = False


_PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?([?*]?)\}|\[(\w+)\]")


def _slots(form: str) -> tuple[_Slot, ...]:
    """Returns a form's words as slots."""
    slots: list[_Slot] = []
    for word in form.split():
        match = _PLACEHOLDER.fullmatch(word)
        if match is None:
            slots.append(_Slot(word.lower()))
        elif match.group(4):
            slots.append(_Slot(match.group(4).lower(), match.group(4), flag=True))
        else:
            name, codec, mark = match.group(1), match.group(2) or match.group(1), match.group(3)
            slots.append(_Slot(None, name, codec, optional=mark == "?", rest=mark == "*"))
    return tuple(slots)


@dataclass(frozen=True)
class _Form:
    """A parsed form of one action class."""

    kind: type[Action]
    slots: tuple[_Slot, ...]
    leaves_out: tuple[tuple[str, object], ...]
    """The fields the form does not name, with the default each must hold."""
    requires: tuple[tuple[str, object], ...]
    """The fields the form names as required words, with the default each must not hold."""
    defaults: Mapping[str, object]
    """Every field's default (MISSING where it has none)."""

    @property
    def verb(self) -> str:
        """The form's first literal word."""
        return self.slots[0].literal or ""


class Notation(Generic[A]):
    """One game's notation: its action classes' forms, the codecs of their fields, and word aliases."""

    def __init__(
        self,
        actions: Iterable[type[A]],
        codecs: Mapping[str, Codec[Any]] | None = None,
        aliases: Mapping[str, str] | None = None,
        expected: str = "",
    ) -> None:
        """Reads every class's forms; ``aliases`` maps other spellings of a literal word to it
        (``reorganize`` for ``reorganise``); ``expected`` (optional) replaces the list of verbs in
        the message for text no form reads."""
        self.codecs: dict[str, Codec[Any]] = dict(codecs or {})
        self.aliases = {k.lower(): v.lower() for k, v in (aliases or {}).items()}
        self.expected = expected
        self.actions: tuple[type[A], ...] = tuple(actions)
        self._forms: dict[str, list[_Form]] = {}
        self._by_class: dict[type[Action], list[_Form]] = {}
        for kind in self.actions:
            kind.notation = self
            for form in kind.forms:
                parsed = self._form(kind, form)
                self._forms.setdefault(parsed.verb, []).append(parsed)
                self._by_class.setdefault(kind, []).append(parsed)
        self._texts: dict[Action, str] = {}

    def _form(self, kind: type[Action], form: str) -> _Form:
        """Parses one form, checking its fields and codecs exist."""
        slots = _slots(form)
        if not slots or slots[0].literal is None:
            raise ValueError(f"{kind.__name__}: form {form!r} must start with its verb")
        declared = {f.name: f for f in fields(kind)}  # type: ignore[arg-type]
        named = {s.field for s in slots if s.field}
        for slot in slots:
            if slot.field and slot.field not in declared:
                raise ValueError(f"{kind.__name__}: form {form!r} names no field {slot.field!r}")
            if slot.codec and slot.codec not in self.codecs:
                raise ValueError(f"{kind.__name__}: form {form!r} needs a codec {slot.codec!r}")
        leaves_out, requires = [], []
        for name, spec in declared.items():
            default = spec.default if spec.default is not MISSING else MISSING
            if name not in named:
                if default is MISSING:
                    raise ValueError(f"{kind.__name__}: form {form!r} leaves out required field {name!r}")
                leaves_out.append((name, default))
        for slot in slots:
            assert slot.field is None or slot.field in declared
            if slot.field and not (slot.optional or slot.rest or slot.flag):
                default = declared[slot.field].default
                if default is not MISSING:
                    requires.append((slot.field, default))
        defaults = {name: spec.default for name, spec in declared.items()}
        return _Form(kind, slots, tuple(leaves_out), tuple(requires), defaults)

    # ----------------------------------------------------------------- writing
    def format(self, action: A) -> str:
        """Returns the action's notation (texts are cached: actions are immutable)."""
        text = self._texts.get(action)
        if text is None:
            text = self._write(action)
            if len(self._texts) < MAX_CACHED:
                self._texts[action] = text
        return text

    def _write(self, action: Action) -> str:
        """Writes an action with the first of its forms that fits its values."""
        for form in self._by_class.get(type(action), ()):
            if any(getattr(action, n) != d for n, d in form.leaves_out):
                continue
            if any(getattr(action, n) == d for n, d in form.requires):
                continue
            return " ".join(self._words(form, action))
        raise ValueError(f"no notation form of {type(action).__name__} fits {action!r}")

    def _words(self, form: _Form, action: Action) -> Iterable[str]:
        """Yields the words of an action written in one form."""
        for slot in form.slots:
            if slot.flag:
                if getattr(action, slot.field or ""):
                    yield slot.literal or ""
            elif slot.literal is not None:
                yield slot.literal
            else:
                value = getattr(action, slot.field or "")
                codec = self.codecs[slot.codec or ""]
                if slot.rest:
                    yield from (codec.write(v) for v in value)
                elif not (slot.optional and value == form.defaults[slot.field or ""]):
                    yield codec.write(value)

    # ----------------------------------------------------------------- reading
    def parse(self, text: str) -> A:
        """Returns the action written ``text``; raises NotationError saying what is wrong."""
        if not isinstance(text, str):
            raise NotationError(f"an action is written as text, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise NotationError(f"empty action: {self._expected()}")
        verb = self._literal(words[0])
        forms = self._forms.get(verb)
        if not forms:
            if self.expected:
                raise NotationError(f"cannot read {text!r}: {self.expected}")
            raise NotationError(f"unknown verb {words[0][:24]!r} (verbs: {', '.join(self.verbs())})")
        first_error: NotationError | None = None
        for form in forms:
            try:
                return self._read(form, words)  # type: ignore[return-value]
            except Mismatch as err:
                first_error = first_error or err
        if self.expected:
            raise NotationError(f"cannot read {text!r}: {self.expected}")
        if len(forms) == 1 and first_error is not None and str(first_error).startswith("'"):
            raise NotationError(str(first_error))
        raise NotationError(f"{verb!r} takes {self.describe(verb)}, not {len(words) - 1} argument(s)")

    def _read(self, form: _Form, words: Sequence[str]) -> Action:
        """Reads words in one form; raises Mismatch where they do not fit it."""
        values: dict[str, object] = {}
        index = 0
        for position, slot in enumerate(form.slots):
            word = words[index] if index < len(words) else None
            if slot.flag:
                present = word is not None and self._literal(word) == slot.literal
                values[slot.field or ""] = present
                index += present
            elif slot.literal is not None:
                if word is None or self._literal(word) != slot.literal:
                    raise Mismatch(f"expected {slot.literal!r}")
                index += 1
            elif slot.rest:
                codec = self.codecs[slot.codec or ""]
                values[slot.field or ""] = tuple(codec.read(w) for w in words[index:])
                index = len(words)
            elif word is None or (slot.optional and self._fits_later(form, position, words, index)):
                if not slot.optional:
                    raise Mismatch("too few words")
            else:
                values[slot.field or ""] = self.codecs[slot.codec or ""].read(word)
                index += 1
        if index != len(words):
            raise Mismatch("too many words")
        return form.kind(**values)

    def _fits_later(self, form: _Form, position: int, words: Sequence[str], index: int) -> bool:
        """Returns whether the word at ``index`` is the flag that follows an optional slot."""
        later = form.slots[position + 1 :]
        return bool(later) and later[0].flag and self._literal(words[index]) == later[0].literal

    def _literal(self, word: str) -> str:
        """Returns a literal word in lower case, aliases resolved."""
        lowered = word.lower()
        return self.aliases.get(lowered, lowered)

    # ----------------------------------------------------------------- describing
    def verbs(self) -> list[str]:
        """Returns every verb, in the order the action classes were given."""
        return list(self._forms)

    def describe(self, verb: str) -> str:
        """Returns what a verb's arguments are, in words ("a colour, a seat @S")."""
        texts = []
        for form in self._forms.get(verb, []):
            words = []
            for slot in form.slots[1:]:
                if slot.literal is not None:
                    words.append(f"{slot.literal!r}" + (" (optional)" if slot.flag else ""))
                else:
                    what = self.codecs[slot.codec or ""].what
                    words.append(what + (" (optional)" if slot.optional else " ..." if slot.rest else ""))
            texts.append(", ".join(words) or "no arguments")
        return " or ".join(texts)

    def _expected(self) -> str:
        """Returns what the notation expects, for the message of empty text."""
        return self.expected or f"type a verb ({', '.join(self.verbs())})"
