"""Terminal tests run without the reaction-window pace (one test checks the pace itself)."""

from __future__ import annotations

import pytest

from parlour.cli.play import TerminalPlay


@pytest.fixture(autouse=True)
def no_window_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TerminalPlay, "window_pace", 0.0)
