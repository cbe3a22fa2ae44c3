"""Venus Needs Men! tests."""
