"""Parlour: rule-enforcing engines for Venture, I'm the Boss! and Venus Needs Men!."""

from parlour import native

# Compiled modules (mypyc) or their Python sources: parlour/native.py says which and why.
native.choose()
