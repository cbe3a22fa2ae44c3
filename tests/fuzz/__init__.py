"""Fuzzing helpers: seeded mutations of valid inputs and the checks every mutated input must pass.

``corpus.positions`` plays random games for valid positions, ``mutate.mutations`` spoils them
(deletions, type swaps, huge numbers, deep nesting, bad seat lists), and ``check.check_position``
loads one and, when it is accepted, exercises it: every failure other than a clean refusal raises
``AssertionError`` naming what broke.  ``run.fuzz_positions`` ties them together for a count and a
seed, so ``make test`` and a long-running harness share one implementation.
"""
