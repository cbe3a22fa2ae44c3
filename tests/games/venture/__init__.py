"""Venture rule tests."""
