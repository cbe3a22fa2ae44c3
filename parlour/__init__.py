"""Parlour: rule-enforcing engines for Venture, I'm the Boss! and Venus Needs Men!."""
