"""HiGHS called directly (``highs``) against ``scipy.optimize.milp``: the same model, the same
solutions, ties included; the optimiser's arrangements of tied hands stay those it always picked."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.games.venture import highs, optimiser, packing
from parlour.games.venture.content import load_deck

TABLE = tuple(sorted(optimiser.DEFAULT_TABLE.items()))
DECK = load_deck()
TIES = json.loads((Path(__file__).parent / "data" / "milp_ties.json").read_text(encoding="utf-8"))
"""Hands of random playouts that several arrangements tie on (and a few too large for the search),
with the arrangement the optimiser picked before HiGHS was called directly (scipy 1.17.1)."""


def keys(hand: str) -> tuple[packing.CardKey, ...]:
    """Returns the optimiser's snapshot of a hand written as corporation names."""
    by_name = {c.name: c for c in DECK.corporations}
    return tuple(sorted((n, by_name[n].industry, tuple(sorted(by_name[n].letters))) for n in hand.split()))


def stacks_text(stacks: packing.Stacks) -> str:
    """Returns an arrangement as the data file writes it."""
    return " / ".join(" ".join(s) for s in stacks)


def test_the_tied_hands_are_ties() -> None:
    """The data file's hands are the ones the search leaves to the MILP."""
    assert len(TIES) >= 100
    for entry in TIES:
        quick = packing.solve.__wrapped__(keys(entry["hand"]), TABLE)
        assert quick is None or (quick.stacks is None and quick.profit == entry["profit"])


@pytest.mark.parametrize("reference", [False, True])
def test_tied_hands_keep_their_arrangement(reference: bool) -> None:
    """HiGHS called directly, or through scipy.optimize.milp, picks the very arrangement picked
    before (the MILP's choice among the ties)."""
    for entry in TIES:
        stacks, profit = optimiser._solve_by_milp(keys(entry["hand"]), TABLE, reference)
        assert (stacks_text(stacks), profit) == (entry["best"], entry["profit"])


def test_direct_and_scipy_agree_on_random_hands() -> None:
    """Both ways give the same arrangement on hands of the deck, ties or not."""
    rng = random.Random(16)
    for _ in range(40):
        hand = rng.sample(DECK.corporations, rng.randint(4, 18))
        cards = keys(" ".join(c.name for c in hand))
        assert optimiser._solve_by_milp(cards, TABLE) == optimiser._solve_by_milp(cards, TABLE, True)


def test_the_optimiser_loads_highs_without_scipy_optimize() -> None:
    """Solving loads HiGHS alone; scipy.optimize, imported afterwards, uses that same module."""
    code = (
        "import sys\n"
        "from parlour.games.venture import highs, optimiser\n"
        "assert highs.core() is not None\n"
        "print('scipy.optimize' in sys.modules)\n"
        "import scipy.optimize._highspy._core as core\n"
        "assert core is highs.core()\n"
        "import scipy.optimize\n"
        "print(scipy.optimize.milp([-1.0, -1.0], integrality=[1, 1], bounds=(0, 1)).fun)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "-2.0"]


def test_core_is_the_scipy_module_once_scipy_optimize_is_loaded() -> None:
    """In a process where scipy.optimize is loaded already, the direct path uses its module."""
    import scipy.optimize  # noqa: F401

    assert highs.core() is sys.modules[highs.CORE]
