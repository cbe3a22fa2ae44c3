"""The games' tests (a package, so that the games' golden playthroughs share tests/games/playthroughs.py)."""
