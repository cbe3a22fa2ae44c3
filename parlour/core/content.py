"""Content sets: named card lists and boards, read with a size limit and checked by a digest.

A game's content (a deck, a board) is data.  The sets Parlour ships are called ``house``; a
user's own sets are named by their files and handed down by the command line as a
``ContentSets`` registry.  A position or record names a set and carries its digest, never a
file: nothing here reads a path that came from a game option, a position or a record.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Generic, TypeVar

from parlour.core.errors import ContentError, OptionError
from parlour.core.positions import short_repr

HOUSE = "house"
"""The name of the content sets shipped with Parlour."""
MAX_BYTES = 1 << 20
"""The largest content file read (1 MiB); the house files are a few kB."""
NAME_RULE = "1 to 32 of a-z, 0-9, '_' and '-', starting with a letter or digit"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_DIGEST = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1 << 16
T = TypeVar("T")


def is_set_name(name: object) -> bool:
    """Returns whether ``name`` is a valid content set name (so it can never be a path)."""
    return isinstance(name, str) and _NAME.fullmatch(name) is not None


# ----------------------------------------------------------------- reading files
def parse_json_bytes(raw: bytes, what: str) -> object:
    """Returns the JSON in ``raw``; text that is not UTF-8 or not JSON is a ContentError naming ``what``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ContentError(f"cannot read {what}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ContentError(f"{what} is not valid JSON: {err}") from None
    except (ValueError, RecursionError) as err:
        raise ContentError(f"{what} is not usable JSON: {type(err).__name__}") from None


def read_json_file(path: str | os.PathLike[str], what: str) -> object:
    """Returns the JSON of a regular file of at most MAX_BYTES; anything else is a ContentError.

    The file is opened without blocking (a FIFO or a device never stalls the read) and
    checked with ``fstat`` before a byte is read; ``what`` names it in errors.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        handle = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not a usable path"
        raise ContentError(f"cannot read {what}: {reason}") from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise ContentError(f"cannot read {what}: not a regular file")
        if info.st_size > MAX_BYTES:
            raise ContentError(f"cannot read {what}: larger than {MAX_BYTES // 1024} KiB")
        chunks: list[bytes] = []
        total = 0
        while total <= MAX_BYTES:
            chunk = os.read(handle, min(_CHUNK, MAX_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > MAX_BYTES:
            raise ContentError(f"cannot read {what}: larger than {MAX_BYTES // 1024} KiB")
    except OSError as err:
        raise ContentError(f"cannot read {what}: {err.strerror}") from None
    finally:
        os.close(handle)
    return parse_json_bytes(b"".join(chunks), what)


def read_house_json(package: str, resource: str, what: str) -> object:
    """Returns the parsed JSON of a content file shipped in ``package`` (a fixed name, never an input)."""
    with resources.as_file(resources.files(package).joinpath(resource)) as path:
        return read_json_file(path, what)


# ----------------------------------------------------------------- content sets
def canonical_json(data: object) -> str:
    """Returns the canonical JSON text of ``data``: sorted keys, no spaces, ASCII only."""
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as err:
        raise ContentError(f"content is not plain JSON data: {type(err).__name__}") from None


@dataclass(frozen=True)
class ContentSet:
    """A named content set: its data as canonical JSON and the sha256 digest of that text."""

    name: str
    sha256: str
    """The hexadecimal sha256 of ``canonical``: positions and records carry it."""
    canonical: str = field(repr=False, compare=False)
    """The data as canonical JSON (see canonical_json)."""
    origin: str = field(default="", compare=False)
    """Where the set was read from, for listings (``shipped with Parlour`` or the user's file)."""

    @classmethod
    def of(cls, name: str, data: object, origin: str = "") -> ContentSet:
        """Returns the set called ``name`` holding ``data``; refuses a name that breaks the rule."""
        if not is_set_name(name):
            raise ContentError(f"content set name {short_repr(name)} must be {NAME_RULE}")
        canonical = canonical_json(data)
        return cls(name, hashlib.sha256(canonical.encode("ascii")).hexdigest(), canonical, origin)

    def data(self) -> object:
        """Returns a fresh copy of the set's data."""
        return json.loads(self.canonical)

    def reference(self) -> dict[str, str]:
        """Returns how positions and records name the set: ``{"name", "sha256"}``."""
        return {"name": self.name, "sha256": self.sha256}


@dataclass(frozen=True)
class HouseFile:
    """Where a content option's house set ships: a JSON file in a game's package."""

    package: str
    resource: str

    def load(self) -> ContentSet:
        """Returns the house set (read once per process)."""
        return _house_set(self.package, self.resource)


@cache
def _house_set(package: str, resource: str) -> ContentSet:
    """Reads and names a shipped content file."""
    data = read_house_json(package, resource, f"house content file {resource}")
    return ContentSet.of(HOUSE, data, "shipped with Parlour")


class SetReader(Generic[T]):
    """Reads content sets into a game's own components (a deck, a board): each set once, checked."""

    def __init__(self, parse: Callable[[object], T], house: HouseFile) -> None:
        self.parse = parse
        """Returns the components of a set's data, refusing bad data with a ContentError."""
        self.house = house
        """Where the house set ships."""
        self._read: dict[ContentSet, T] = {}

    def __call__(self, content: ContentSet) -> T:
        """Returns the components of a content set, checked (errors name the set)."""
        if content not in self._read:
            try:
                self._read[content] = self.parse(content.data())
            except ContentError as err:
                raise ContentError(f"content set {content.name!r}: {err}") from None
        return self._read[content]

    def house_set(self) -> T:
        """Returns the components of the house set shipped with Parlour."""
        return self(self.house.load())


class ContentSets:
    """A reader's own content sets by game and name (the house sets are always there besides)."""

    def __init__(self, sets: Mapping[str, Iterable[ContentSet]] | None = None) -> None:
        self._sets: dict[str, dict[str, ContentSet]] = {}
        for game, group in (sets or {}).items():
            named = self._sets.setdefault(game, {})
            for content in group:
                if content.name == HOUSE:
                    raise ContentError("the content set name 'house' is kept for the sets Parlour ships")
                named[content.name] = content

    def of_game(self, game: str) -> dict[str, ContentSet]:
        """Returns a game's sets by name (a copy)."""
        return dict(self._sets.get(game, {}))

    def __bool__(self) -> bool:
        return any(self._sets.values())


def choose_set(
    option: str,
    value: object,
    house: ContentSet,
    sets: Mapping[str, ContentSet],
    where: str,
    stored: bool = False,
) -> ContentSet:
    """Returns the set an option value names: ``NAME`` or ``{"name": NAME, "sha256": DIGEST}``.

    ``sets`` are the reader's own sets, ``where`` says where they go (for the error
    naming an unknown set).  A stored value (a position's or record's) must carry the
    digest, but for the bare ``house`` written before sets had digests.  A set the
    reader lacks, or whose digest differs, is refused naming it; no file is ever read.
    """
    digest: str | None = None
    if isinstance(value, dict):
        if set(value) != {"name", "sha256"}:
            shape = '{"name": NAME, "sha256": DIGEST}'
            raise OptionError(f"option {option} must be {shape}, not {short_repr(value)}")
        name, digest = value["name"], value["sha256"]
        if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
            raise OptionError(f"option {option}: the sha256 of a content set is 64 hexadecimal digits")
    else:
        name = value.strip() if isinstance(value, str) else value
    if not is_set_name(name):
        raise OptionError(f"option {option} must name a content set ({NAME_RULE}), not {short_repr(name)}")
    if stored and digest is None and name != HOUSE:
        raise OptionError(
            f'option {option}: content set {name!r} is given without its digest ({{"name", "sha256"}})'
        )
    chosen = house if name == HOUSE else sets.get(name)
    if chosen is None:
        known = ", ".join([HOUSE, *sorted(sets)])
        hint = f"; yours go in {where}" if where else ""
        raise OptionError(f"option {option}: no content set {name!r} here (sets: {known}{hint})")
    if digest is not None and digest != chosen.sha256:
        raise OptionError(
            f"option {option}: content set {name!r} here differs from the one the game was made with "
            f"(sha256 {chosen.sha256[:12]}… here, {digest[:12]}… there)"
        )
    return chosen
