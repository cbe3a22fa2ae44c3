#!/usr/bin/env python3
"""A greedy-minded bot speaking parlour-bot/1 (docs/bot-protocol.md) over stdin and stdout.

It uses only the protocol (no Parlour import; the loop is ``botloop.py`` beside it) and knows no game's
rules: it reads the actions' texts. Each legal action gets a value: on its own turn 1 for an action that
gains something (its first word one of GAINING), 0.5 for another active one and 0 for one that ends or
passes (PASSIVE); in a window asked of it on another's turn, 1 for a pass (it keeps its cards for its own
turn) and 0 otherwise. It plays one of the best valued actions three times in four and any legal action
otherwise (so it never loops for ever), and sends the values with its answer. A demonstration of the
protocol's ``values``, not a strong player.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from botloop import run

PASSIVE = {"pass", "end", "done", "cancel", "fail", "decline", "refuse", "withdraw"}
"""The first words of actions that do nothing or end a turn."""


GAINING = {"take", "build", "collect", "attack", "accept", "agree", "include", "recruit", "research", "zap"}
"""The first words of actions that gain something (a card, a ship, a unit, a deal)."""


def value(text: str, kind: str) -> float:
    """Returns the value of an action's text in a decision of ``kind`` (turn, window or other)."""
    words = text.split()
    passive = not words or words[0] in PASSIVE
    if kind == "window":
        return 1.0 if passive else 0.0
    if passive:
        return 0.0
    return 1.0 if words[0] in GAINING else 0.5


def answer(request: dict[str, Any], rng: random.Random) -> dict[str, object]:
    """Answers a request with one of its best valued actions three times in four, else any, by its text,
    with every action's value."""
    texts = [action["text"] for action in request["actions"]]
    values = [value(text, request["kind"]) for text in texts]
    best = [i for i, v in enumerate(values) if v == max(values)]
    choice = rng.choice(best) if rng.random() < 0.75 else rng.randrange(len(texts))
    return {"action": texts[choice], "values": values}


if __name__ == "__main__":
    sys.exit(run("reference-greedy", (__doc__ or "").split("\n")[0], answer))
