"""Seeded mutations of JSON data: deletions, type swaps, huge numbers, deep nesting, bad seat lists."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

from .hostile import PATHS

Path = tuple[str | int, ...]

HUGE = 2**70
"""Larger than any integer a position may hold."""


def deep_list(depth: int) -> Any:
    """Returns ``[[[...]]]`` nested ``depth`` levels."""
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def deep_object(depth: int) -> Any:
    """Returns ``{"a": {"a": ...}}`` nested ``depth`` levels."""
    value: Any = {}
    for _ in range(depth):
        value = {"a": value}
    return value


ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    7,
    99,
    2**63,
    HUGE,
    -HUGE,
    10**6,
    1.5,
    "",
    "x",
    "0",
    "-1",
    "é" * 3,
    "\n[red]",
    "x" * 600,
    [],
    {},
    [0],
    [None],
    [[]],
    {"": None},
    {"0": 0},
    list(range(12)),
    *PATHS,
]
"""Values of every JSON type (and a few out-of-range ones, and file names) to drop in anywhere."""


def paths(value: Any, prefix: Path = ()) -> Iterator[Path]:
    """Yields the path of every value in a JSON tree (the root first)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def get(tree: Any, path: Path) -> Any:
    """Returns the value at ``path``."""
    for step in path:
        tree = tree[step]
    return tree


def put(tree: Any, path: Path, value: Any) -> None:
    """Replaces the value at a non-root ``path``."""
    get(tree, path[:-1])[path[-1]] = value


def _seat_lists(tree: Any) -> list[Path]:
    """Returns the paths of every ``seats`` list (decision windows)."""
    return [p for p in paths(tree) if p and p[-1] == "seats" and isinstance(get(tree, p), list)]


def _odd_value(rng: random.Random, tree: Any, players: int) -> Any:
    """Returns a value to plant: an odd one, another value of the tree, or a seat out of range."""
    roll = rng.random()
    if roll < 0.45:
        return copy.deepcopy(rng.choice(ODD_VALUES))
    if roll < 0.55:
        return rng.choice([players, -1, players + 1, 6])
    if roll < 0.6:
        return rng.choice([deep_list, deep_object])(rng.choice([30, 100, 400]))
    strings = [v for v in (get(tree, p) for p in paths(tree)) if isinstance(v, str) and v]
    if roll < 0.7 and strings:
        # A piece, a doubling or a case change of a name: close to valid, so checks must be exact.
        text = rng.choice(strings)
        cut = rng.randrange(len(text) + 1)
        return rng.choice([text[:cut], text[cut:], text + text, text.swapcase(), text + " "])
    # Another value of the same position: realistic names and numbers in the wrong place.
    return copy.deepcopy(get(tree, rng.choice(list(paths(tree)))))


def _delete(rng: random.Random, tree: Any, players: int) -> bool:
    """Deletes a field of an object or an item of a list."""
    candidates = [p for p in paths(tree) if p and isinstance(get(tree, p[:-1]), dict | list)]
    if not candidates:
        return False
    path = rng.choice(candidates)
    del get(tree, path[:-1])[path[-1]]
    return True


def _replace(rng: random.Random, tree: Any, players: int) -> bool:
    """Replaces a value by an odd one (any type)."""
    candidates = [p for p in paths(tree) if p]
    if not candidates:
        return False
    put(tree, rng.choice(candidates), _odd_value(rng, tree, players))
    return True


def _tweak_number(rng: random.Random, tree: Any, players: int) -> bool:
    """Moves an integer a little, negates it, or makes it huge."""
    candidates = [
        p for p in paths(tree) if p and isinstance(get(tree, p), int) and not isinstance(get(tree, p), bool)
    ]
    if not candidates:
        return False
    path = rng.choice(candidates)
    value = get(tree, path)
    put(tree, path, rng.choice([value + 1, value - 1, -value, value * 2 + 1, 0, HUGE, 2**62]))
    return True


def _swap(rng: random.Random, tree: Any, players: int) -> bool:
    """Swaps two values of the tree (a list where a number was, a name where a list was...)."""
    candidates = [p for p in paths(tree) if p]
    if len(candidates) < 2:
        return False
    first, second = rng.sample(candidates, 2)
    if first[: len(second)] == second or second[: len(first)] == first:
        return False
    a, b = copy.deepcopy(get(tree, first)), copy.deepcopy(get(tree, second))
    put(tree, first, b)
    put(tree, second, a)
    return True


def _random_node(rng: random.Random, tree: Any, kind: type) -> Any:
    """Returns a node of the tree of this type, chosen at random (None if the tree has none)."""
    candidates = [p for p in paths(tree) if isinstance(get(tree, p), kind)]
    return get(tree, rng.choice(candidates)) if candidates else None


def _grow_list(rng: random.Random, tree: Any, players: int) -> bool:
    """Duplicates, inserts into, reverses or empties a list."""
    items = _random_node(rng, tree, list)
    if items is None:
        return False
    roll = rng.random()
    if roll < 0.4 and items:
        items.insert(rng.randrange(len(items) + 1), copy.deepcopy(rng.choice(items)))
    elif roll < 0.7:
        items.insert(rng.randrange(len(items) + 1), _odd_value(rng, tree, players))
    elif roll < 0.85:
        items.reverse()
    else:
        items.clear()
    return True


def _seats(rng: random.Random, tree: Any, players: int) -> bool:
    """Spoils a decision's seat list: a seat twice, out of range, empty, reordered, or all seats."""
    candidates = _seat_lists(tree)
    if not candidates:
        return False
    seats = get(tree, rng.choice(candidates))
    roll = rng.random()
    if roll < 0.25 and seats:
        seats.insert(rng.randrange(len(seats) + 1), rng.choice(seats))
    elif roll < 0.4:
        seats.append(rng.choice([players, -1, 99, True, "0"]))
    elif roll < 0.55:
        seats.clear()
    elif roll < 0.7:
        rng.shuffle(seats)
    elif roll < 0.85:
        seats[:] = list(range(players))
    else:
        seats[:] = [rng.randrange(players)]
    return True


def _add_field(rng: random.Random, tree: Any, players: int) -> bool:
    """Adds an unknown (or a known but misplaced) field to an object."""
    target = _random_node(rng, tree, dict)
    if target is None:
        return False
    keys = [p[-1] for p in paths(tree) if p and isinstance(p[-1], str)]
    key = rng.choice([*keys, "extra", "", "0"]) if keys else "extra"
    target[key] = _odd_value(rng, tree, players)
    return True


def _rename_key(rng: random.Random, tree: Any, players: int) -> bool:
    """Renames a field of an object: to another field's name, a seat number, or a long odd name."""
    candidates = [p for p in paths(tree) if p and isinstance(p[-1], str)]
    if not candidates:
        return False
    path = rng.choice(candidates)
    parent = get(tree, path[:-1])
    keys = [p[-1] for p in candidates]
    name = rng.choice([*keys, str(players), "-1", "01", "k" * 600, "\n[bold]"])
    parent[name] = parent.pop(path[-1])
    return True


def _forced(rng: random.Random, tree: Any, players: int) -> bool:
    """Queues forced chance outcomes, some impossible (a die of 15, an order naming nothing)."""
    chance = tree.get("chance") if isinstance(tree, dict) else None
    if not isinstance(chance, dict):
        return False
    outcomes = [
        {"kind": "die", "value": rng.choice([0, 1, 2, 6, 10, 12, 15, -3])},
        {"kind": "order", "value": rng.choice([[], ["x"], ["profit"], ["10", "10"]])},
    ]
    chance["forced"] = [rng.choice(outcomes) for _ in range(rng.randint(1, 3))]
    return True


MUTATORS = [_delete, _replace, _tweak_number, _swap, _grow_list, _seats, _add_field, _rename_key, _forced]
WEIGHTS = [4, 5, 3, 2, 3, 3, 1, 1, 1]


def mutate(
    data: Any, rng: random.Random, players: int = 4, changes: int | None = None, keep: tuple[Path, ...] = ()
) -> Any:
    """Returns a copy of ``data`` with one to three random changes (``data`` itself is untouched).

    A path in ``keep`` that is still there afterwards gets its original value back.
    """
    tree = copy.deepcopy(data)
    wanted = changes if changes is not None else rng.choice([1, 1, 1, 2, 3])
    done = 0
    for _ in range(wanted * 5):
        mutator = rng.choices(MUTATORS, WEIGHTS)[0]
        if mutator(rng, tree, players):
            done += 1
            if done == wanted:
                break
    for path in keep:
        _restore(tree, data, path)
    return tree


def _restore(tree: Any, original: Any, path: Path) -> None:
    """Puts the original value back at ``path`` if the mutated tree still has that place."""
    try:
        parent = get(tree, path[:-1])
        value = get(original, path)
    except (KeyError, IndexError, TypeError):
        return
    if isinstance(parent, dict) and path[-1] in parent:
        parent[path[-1]] = copy.deepcopy(value)


def mutations(
    base: list[Any], count: int, seed: int, keep: tuple[Path, ...] = ()
) -> Iterator[tuple[int, Any]]:
    """Yields ``count`` mutated copies of the valid inputs in ``base`` (round robin), with their index."""
    rng = random.Random(seed)
    for index in range(count):
        data = base[index % len(base)]
        players = data.get("players", 4) if isinstance(data, dict) else 4
        yield index, mutate(data, rng, players if isinstance(players, int) else 4, keep=keep)
