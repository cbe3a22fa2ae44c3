#!/usr/bin/env python3
"""A random bot speaking parlour-bot/1 (docs/bot-protocol.md) over stdin and stdout.

It uses only the protocol (no Parlour import; the loop is ``botloop.py`` beside it): says hello, then
answers every request with a legal action chosen uniformly at random, by its id. ``--seed N`` fixes its
choices.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from botloop import run


def answer(request: dict[str, Any], rng: random.Random) -> dict[str, object]:
    """Answers a request with one of its legal actions, uniformly at random, by its id."""
    return {"action": rng.randrange(len(request["actions"]))}


if __name__ == "__main__":
    sys.exit(run("reference-random", (__doc__ or "").split("\n")[0], answer))
