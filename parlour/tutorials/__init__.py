"""Tutorials: each game's lessons as data (steps staged with forced chance), run as a state machine."""
