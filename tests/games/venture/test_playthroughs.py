"""Golden playthroughs: seeded random games must replay to exactly the stored text, every seat's view."""

from __future__ import annotations

from ..playthroughs import Case, Goldens

GOLDENS = Goldens(
    "venture",
    __file__,
    [
        # Made before option best_ties: the MILP's pick among tied arrangements (ruling A-19).
        *(
            Case(f"venture-{players}p-seed{seed}", players, seed, {"best_ties": "solver"})
            for players, seed in [(2, 11), (4, 7), (6, 3)]
        ),
        Case("venture-4p-seed5-first", 4, 5, {"best_ties": "first"}),
    ],
)
test_golden_playthrough = GOLDENS.test(
    "A rule change shows as a diff of these files (regenerate with make playthroughs)."
)

if __name__ == "__main__":
    GOLDENS.write_all()
