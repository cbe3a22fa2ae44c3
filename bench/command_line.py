"""The benchmark scripts' command lines: one option a setting, of its default's type."""

from __future__ import annotations

import argparse


def settings(description: str | None, **defaults: float) -> argparse.Namespace:
    """Returns the values given on the command line: ``--some-name`` for each default ``some_name``."""
    parser = argparse.ArgumentParser(description=description)
    for name, default in defaults.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default)
    return parser.parse_args()
