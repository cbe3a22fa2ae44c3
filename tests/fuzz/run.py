"""``make fuzz``: a long fuzzing run over every surface of every game; prints the figures.

Usage: ``python tests/fuzz/run.py [--inputs N] [--seed S] [--surfaces SURFACES]`` (SURFACES: comma-
separated, of position, record, action, cli, analyse, document, http, ws, net and accounts; all by
default; ``analyse`` runs N / 20 ``parlour analyse`` lines, ``document`` loads N analysis documents). N
inputs per surface and game; the table server's ``http`` and ``ws`` surfaces, one server with tables of
every game, get N each; ``net``, a real server process attacked over the network, N attacks;
``accounts``, the accounts' endpoints (registration, sign-in, the account, e-mail links, seats kept), N
requests. Exits 1 if any input broke a promise.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz.account_surface import ROOMY, fuzz_accounts
from fuzz.analysis_surface import fuzz_analyse_cli, fuzz_analysis_documents
from fuzz.guards import Tally
from fuzz.net_surface import fuzz_net
from fuzz.server_surface import Server, fuzz_http, fuzz_ws
from fuzz.surfaces import PLAYERS, corpus, fuzz_actions, fuzz_cli, fuzz_positions, fuzz_records

SURFACES = ("position", "record", "action", "cli", "analyse", "document", "http", "ws", "net", "accounts")
GAME_SURFACES = SURFACES[:6]


def run(inputs: int, seed: int, surfaces: tuple[str, ...], folder: Path) -> Tally:
    """Fuzzes every game on the chosen surfaces; returns the tally."""
    tally = Tally()
    for name in PLAYERS if set(surfaces) & set(GAME_SURFACES) else ():
        rng = random.Random(f"{seed}:{name}")
        found = corpus(name, range(seed, seed + 3))
        if "position" in surfaces:
            fuzz_positions(tally, found, rng, inputs)
        if "record" in surfaces:
            fuzz_records(tally, found, rng, inputs)
        if "action" in surfaces:
            fuzz_actions(tally, found, rng, inputs)
        if "cli" in surfaces:
            fuzz_cli(tally, found, rng, max(1, inputs // 20), folder / name)
        if "analyse" in surfaces:
            fuzz_analyse_cli(tally, found, rng, max(1, inputs // 20), folder / f"{name}-analyse")
        if "document" in surfaces:
            fuzz_analysis_documents(tally, found, rng, inputs)
    if "http" in surfaces or "ws" in surfaces:
        with Server(folder / "server") as server:
            if "http" in surfaces:
                fuzz_http(tally, server, random.Random(f"{seed}:http"), inputs)
            if "ws" in surfaces:
                fuzz_ws(tally, server, random.Random(f"{seed}:ws"), inputs)
    if "accounts" in surfaces:
        with Server(folder / "accounts", ROOMY) as server:
            fuzz_accounts(tally, server, random.Random(f"{seed}:accounts"), inputs)
    if "net" in surfaces:
        fuzz_net(tally, folder / "net", random.Random(f"{seed}:net"), inputs)
    return tally


def main() -> int:
    """Runs the fuzzing campaign and prints its figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", type=int, default=5000, help="inputs per surface and game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--surfaces", default=",".join(SURFACES))
    args = parser.parse_args()
    surfaces = tuple(s for s in args.surfaces.split(",") if s in SURFACES)
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="parlour-fuzz-") as folder:
        os.environ["HOME"] = folder  # anything written to ~/.parlour lands in the scratch folder
        tally = run(args.inputs, args.seed, surfaces, Path(folder))
    print(tally.summary())
    print(f"{time.time() - started:.0f} s")
    for line in tally.failures:
        print(line)
    return 1 if tally.broken else 0


if __name__ == "__main__":
    sys.exit(main())
