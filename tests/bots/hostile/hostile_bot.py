"""A bot that misbehaves as its first argument says (the tests of ``cmd:`` seats run it).

Modes: crash-at-once, crash-mid-game, garbage, huge-line, endless-line, sleep, illegal-id,
illegal-text, wrong-id, stderr-flood (answers well, writing 256 KiB of stderr before each answer),
stderr-forever, deaf (answers ids 1 to 999 without reading its stdin), flood (answers ids 1, 2, ...
without end, never reading its stdin), unsupported (a hello for
another game), grandchild (starts ``sleep`` and writes its pid to the file named second, then sleeps),
record (answers at random and writes every line it reads to the file named second), bad-values,
closed-input (closes its stdin, says hello and sleeps),
views (asks for the request again and again), polite (answers at random and well).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

HELLO = {"type": "hello", "name": "hostile", "version": "0", "protocol": "parlour-bot/1", "games": {"*": []}}


def send(message: object) -> None:
    """Writes one JSON line."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def next_request() -> dict[str, object] | None:
    """Returns the next request read from stdin (None at its end)."""
    for line in sys.stdin:
        message = json.loads(line)
        if isinstance(message, dict) and message.get("type") == "request":
            return message
        if isinstance(message, dict) and message.get("type") in ("end", "error"):
            return None
    return None


def answer(request: dict[str, object], rng: random.Random) -> dict[str, object]:
    """Returns a legal random answer."""
    actions = request["actions"]
    assert isinstance(actions, list)
    return {"type": "action", "id": request["id"], "action": rng.randrange(len(actions))}


def main() -> int:
    """Misbehaves as told."""
    mode = sys.argv[1]
    rng = random.Random(0)
    if mode == "crash-at-once":
        return 3
    if mode == "unsupported":
        send({**HELLO, "games": {"chess": [2]}})
        next_request()
        return 0
    if mode == "closed-input":
        os.close(0)  # before the hello: every write to it fails
        send(HELLO)
        time.sleep(3600)
    send(HELLO)
    if mode == "deaf":
        for n in range(1, 1000):
            send({"type": "action", "id": n, "action": 0})
        time.sleep(3600)
    if mode == "flood":
        for n in range(1, 10**9):
            send({"type": "action", "id": n, "action": 0})
    if mode == "grandchild":
        child = subprocess.Popen(["sleep", "3600"])
        with open(sys.argv[2], "w") as out:
            out.write(str(child.pid))
        time.sleep(3600)
    count = 0
    while (request := next_request()) is not None:
        count += 1
        if mode == "record":
            with open(sys.argv[2], "a") as out:
                out.write(json.dumps(request) + "\n")
            send(answer(request, rng))
        elif mode == "polite":
            send(answer(request, rng))
        elif mode == "crash-mid-game":
            if count > 3:
                return 1
            send(answer(request, rng))
        elif mode == "garbage":
            sys.stdout.write("this is not JSON\n")
            sys.stdout.flush()
        elif mode == "huge-line":
            sys.stdout.write('{"pad": "' + "x" * 70000 + '"}\n')
            sys.stdout.flush()
        elif mode == "endless-line":
            while True:
                sys.stdout.write("x" * 4096)
                sys.stdout.flush()
        elif mode == "sleep":
            time.sleep(3600)
        elif mode == "illegal-id":
            send({"type": "action", "id": request["id"], "action": 9999})
        elif mode == "illegal-text":
            send({"type": "action", "id": request["id"], "action": "conquer the world"})
        elif mode == "wrong-id":
            send({"type": "action", "id": 12345, "action": 0})
        elif mode == "bad-values":
            send({**answer(request, rng), "values": ["a lot"]})
        elif mode == "views":
            send({"type": "view", "id": request["id"]})
        elif mode == "stderr-flood":
            sys.stderr.write("e" * 262144 + "\n")
            sys.stderr.flush()
            send(answer(request, rng))
        elif mode == "stderr-forever":
            while True:
                sys.stderr.write("noise " * 1000 + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
