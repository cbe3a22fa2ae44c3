"""Tests of the learning environments."""
