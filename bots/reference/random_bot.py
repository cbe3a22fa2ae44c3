#!/usr/bin/env python3
"""A random bot speaking parlour-bot/1 (docs/bot-protocol.md) over stdin and stdout.

It uses only the protocol (no Parlour import): says hello, then answers every request with a legal
action chosen uniformly at random, by its id. ``--seed N`` fixes its choices.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

PROTOCOL = "parlour-bot/1"


def main() -> int:
    """Plays one game: hello, then one answer per request, until the end or stdin closes."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=None)
    rng = random.Random(parser.parse_args().seed)
    send({"type": "hello", "name": "reference-random", "version": "1", "protocol": PROTOCOL, "games": {"*": []}})
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "request":
            choice = rng.randrange(len(message["actions"]))
            send({"type": "action", "id": message["id"], "action": choice})
        elif message.get("type") in ("end", "error"):
            return 0
    return 0


def send(message: dict[str, object]) -> None:
    """Writes one message as a JSON line and flushes it."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
