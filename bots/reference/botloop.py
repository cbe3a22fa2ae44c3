"""The loop the Python reference bots share, speaking parlour-bot/1 (docs/bot-protocol.md) over stdin and
stdout with the standard library alone: hello, then one answer per request, until the end or stdin closes.

A bot module gives its name and a function that answers one request (the protocol's ``request`` message,
and the bot's random generator, seeded by ``--seed N``) with the answer's fields but its ``type`` and
``id``: ``{"action": ...}``, optionally with ``"values"``. Run a bot as a script from any folder: Python
finds this module beside it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from typing import Any

PROTOCOL = "parlour-bot/1"

Answer = Callable[[dict[str, Any], random.Random], dict[str, object]]
"""A bot's answer to one request: the action (by id or text) and optionally its values."""


def run(name: str, description: str, answer: Answer) -> int:
    """Plays one game as ``name``: hello, then ``answer`` for every request, until the end or stdin closes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seed", type=int, default=None, help="fixes the bot's choices")
    rng = random.Random(parser.parse_args().seed)
    send({"type": "hello", "name": name, "version": "1", "protocol": PROTOCOL, "games": {"*": []}})
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "request":
            send({"type": "action", "id": message["id"], **answer(message, rng)})
        elif message.get("type") in ("end", "error"):
            return 0
    return 0


def send(message: dict[str, object]) -> None:
    """Writes one message as a JSON line and flushes it."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
