"""Embers' options (docs/games/embers.md, rule 4.4)."""

from __future__ import annotations

from parlour.core.game import OptionSpec, choice

OPTIONS: tuple[OptionSpec, ...] = (
    choice(
        "chain",
        ("on", "off"),
        "whether a douse card may answer a douse card ('on', rule 4.2) or ends the answers ('off', rule 4.4)",
    ),
)
"""The options ``parlour options embers`` lists."""
