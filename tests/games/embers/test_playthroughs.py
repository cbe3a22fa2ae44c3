"""Golden playthroughs of Embers: seeded games must replay to exactly the stored text."""

from __future__ import annotations

from ..playthroughs import Case, Goldens

GOLDENS = Goldens(
    "embers",
    __file__,
    [
        Case("embers-random-3p-seed1", 3, 1, bot="random"),
        Case("embers-random-2p-seed4-chain-off", 2, 4, {"chain": "off"}, bot="random"),
    ],
)
test_golden_playthrough = GOLDENS.test(
    "A rule change shows as a diff of these files (regenerate with make playthroughs)."
)

if __name__ == "__main__":
    GOLDENS.write_all()
