"""Golden playthroughs: seeded random games must replay to exactly the stored text, every seat's view."""

from __future__ import annotations

from ..playthroughs import Case, Goldens

GOLDENS = Goldens(
    "venture",
    __file__,
    [Case(f"venture-{players}p-seed{seed}", players, seed) for players, seed in [(2, 11), (4, 7), (6, 3)]],
)
test_golden_playthrough = GOLDENS.test(
    "A rule change shows as a diff of these files (regenerate with make playthroughs)."
)

if __name__ == "__main__":
    GOLDENS.write_all()
