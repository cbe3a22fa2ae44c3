"""Golden playthroughs of I'm the Boss!: seeded games replay to exactly the stored text, every seat's view."""

from __future__ import annotations

from parlour.games.im_the_boss.options import QUICK_OPTIONS

from ..playthroughs import Case, Goldens

GOLDENS = Goldens(
    "im-the-boss",
    __file__,
    [
        Case("im-the-boss-greedy-4p-seed7", 4, 7, bot="greedy"),
        Case(
            "im-the-boss-greedy-3p-seed2-short", 3, 2, {"length": "short", "turn_order": "opener"}, "greedy"
        ),
        Case("im-the-boss-random-5p-seed3", 5, 3, QUICK_OPTIONS, bot="random"),
    ],
)
test_golden_playthrough = GOLDENS.test(
    "A rule or bot change shows as a diff of these files (regenerate with make playthroughs)."
)

if __name__ == "__main__":
    GOLDENS.write_all()
