"""Golden playthroughs of Venus Needs Men!: seeded bot games replay to the stored text, every seat's view."""

from __future__ import annotations

from ..playthroughs import Case, Goldens

ENHANCED = {"game": "enhanced", "length": "short"}
"""The Enhanced game, short."""
GOLDENS = Goldens(
    "venus-needs-men",
    __file__,
    [
        Case("venus-basic-4p-seed5", 4, 5, {"length": "short"}, "greedy"),
        Case("venus-enhanced-3p-seed8", 3, 8, {**ENHANCED, "planets": "venus,earth,mars"}, "greedy"),
        Case(
            "venus-enhanced-team-seed2", 2, 2, {**ENHANCED, "planets": "pluto,titan,ganymede,venus"}, "greedy"
        ),
    ],
)
test_golden_playthrough = GOLDENS.test(
    "A rule or bot change shows as a diff of these files (regenerate with make playthroughs)."
)

if __name__ == "__main__":
    GOLDENS.write_all()
