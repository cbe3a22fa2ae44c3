"""Search bot names with budgets and settings in and out of range, and whether the server takes each.

A table's bots are chosen by strangers, so the server takes a search bot only with a time budget of 1 ms
to 2 s and every setting within its range (docs/search.md, docs/server.md). ``search_bot`` writes a name
such as ``ismcts:5ms::power=1e999,horizon=١`` and says, from those documents and not from the code that
reads names, whether the server must take it; the fuzzer then holds the server to that verdict.
"""

from __future__ import annotations

import math
import random
import re

from parlour.bots.ismcts import RANGES

WHOLE = ("horizon", "deepen", "cap", "race", "samples")
"""The settings that take whole numbers only."""
LONGEST_NAME = 64
"""The longest bot name a table request may give (parlour.server.tables.check_bot)."""
LONGEST_NUMBER = 40
"""The most characters a setting's number may take."""
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A number as docs/search.md writes a setting: ASCII digits, an optional sign, point and exponent."""

QUICK_BUDGETS: tuple[tuple[str, bool], ...] = (
    ("1ms", True),
    ("2ms", True),
    ("5ms", True),
    ("10ms", True),
    ("0.005s", True),
    ("0.01s", True),
    (".01s", True),
    ("5MS", True),
    (" 3ms", True),
)
"""Budgets the server takes that cost little to play (the bot spends its whole budget on every move)."""
SLOW_BUDGETS: tuple[tuple[str, bool], ...] = (
    ("", True),  # the default: 200 ms
    ("200ms", True),
    ("1.s", True),
    ("2s", True),
    ("2000ms", True),
)
"""Budgets the server takes that cost up to 2 s a move."""
BAD_BUDGETS: tuple[tuple[str, bool], ...] = (
    ("0ms", False),
    ("0s", False),
    ("0.0001s", False),
    ("2001ms", False),
    ("2.001s", False),
    ("5.s", False),
    ("3s", False),
    ("3600s", False),
    ("1it", False),
    ("500", False),
    ("500it", False),
    ("nan", False),
    ("nanms", False),
    ("infms", False),
    ("-5ms", False),
    ("+5ms", False),
    ("1e3ms", False),
    ("1.5ms", False),
    ("5 ms", False),
    ("١ms", False),
    ("５ms", False),
    ("0x10ms", False),
    ("1_0ms", False),
    ("9" * 30 + "ms", False),
    ("ms", False),
    ("s", False),
)
"""Budgets the server refuses: iterations, too long, none at all, not numbers, not ASCII."""

ODD_NUMBERS = (
    "nan",
    "NaN",
    "-nan",
    "inf",
    "-inf",
    "Infinity",
    "1e999",
    "-1e999",
    "1e-999",
    "9" * LONGEST_NUMBER,
    "9" * (LONGEST_NUMBER + 1),
    "0." + "0" * 38 + "1",
    "١",
    "٣",
    "５",
    "²",
    "0x10",
    "1_0",
    "",
    "+",
    "-",
    ".",
    "e5",
    "1e",
    "1.5",
    "5.",
    ".5",
    "+3",
    "-0",
    "−1",
    " 1 ",
    "1 2",
    "5e0",
    "1e2",
    "10000",
    "-1",
)
"""Numbers as a hostile name might write them: NaN, infinities, huge, tiny, non-ASCII digits, half numbers."""


def setting_ok(name: str, text: str) -> bool:
    """Returns whether a setting written ``name=text`` is within docs/search.md's rules: a number in
    ASCII digits with an optional sign, point and exponent, at most LONGEST_NUMBER characters, not NaN
    nor infinite, whole for WHOLE settings, from its lowest to its highest value."""
    word = text.strip()
    if len(word) > LONGEST_NUMBER or _NUMBER.fullmatch(word) is None:
        return False
    value = float(word)
    if name in WHOLE and math.isfinite(value) and not value.is_integer():
        return False
    low, high = RANGES[name]
    return low <= value <= high


def setting_text(rng: random.Random, name: str) -> str:
    """Returns a value for a setting: inside its range, on its edges, just outside, or odd."""
    low, high = RANGES[name]
    roll = rng.random()
    if roll < 0.35:
        if name in WHOLE:
            return str(rng.randint(int(low), int(high)))
        return f"{rng.uniform(low, high):.6g}"
    if roll < 0.5:
        return rng.choice([f"{low:g}", f"{high:g}"])
    if roll < 0.65:
        beyond = high + 1 if name in WHOLE else high * 1.001 + 1e-9
        return rng.choice([f"{beyond:g}", f"{low - 1:g}", f"{-high:g}", f"{high * 10**6:g}"])
    return rng.choice(ODD_NUMBERS)


def _settings(rng: random.Random) -> tuple[str, bool]:
    """Returns one to three settings (comma-separated, sometimes odd in form) and whether they are valid."""
    pairs: list[str] = []
    valid = True
    for _ in range(rng.choice([1, 1, 2, 3])):
        name = rng.choice(list(RANGES))
        value = setting_text(rng, name)
        roll = rng.random()
        if roll < 0.05:
            pairs.append(name)  # no "=number"
            valid = False
        elif roll < 0.1:
            pairs.append(f"{rng.choice(['zap', name.upper(), '', name + 's'])}={value}")
            valid = False
        elif roll < 0.15:
            pairs.append(f" {name} = {value} ")
            valid = valid and setting_ok(name, value)
        else:
            pairs.append(f"{name}={value}")
            valid = valid and setting_ok(name, value)
    text = ",".join(pairs) + ("," if rng.random() < 0.05 else "")
    return text, valid


def search_bot(rng: random.Random, slow: bool = True) -> tuple[str, bool]:
    """Returns a search bot's name (``ismcts:BUDGET:PLAYOUT:SETTINGS``) and whether the server must take
    it; ``slow``: budgets of up to 2 s may be drawn (else at most 10 ms among the valid ones)."""
    roll = rng.random()
    budgets = QUICK_BUDGETS + (SLOW_BUDGETS if slow and roll < 0.1 else ())
    budget, budget_ok = rng.choice(BAD_BUDGETS) if rng.random() < 0.3 else rng.choice(budgets)
    settings, settings_ok = _settings(rng)
    form = rng.random()
    if form < 0.6:
        name = f"ismcts:{budget}::{settings}"
    elif form < 0.75:
        name = f"ismcts:{budget}:random:{settings}"
    elif form < 0.85:
        name = f"ismcts:{budget}:{settings}"  # settings where the playout bot goes
        settings_ok = settings_ok and not settings
    else:
        name, settings_ok = f"ismcts:{budget}", True
    ascii_printable = name.isascii() and name.isprintable()
    return name, budget_ok and settings_ok and ascii_printable and 1 <= len(name) <= LONGEST_NAME
