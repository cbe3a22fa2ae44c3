"""The accounts' endpoints fuzzed at a size for every ``make test`` (tests/fuzz/account_surface.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from .account_surface import ROOMY, fuzz_accounts
from .guards import Tally
from .server_surface import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path, ROOMY) as running:
        yield running


@pytest.mark.slow
def test_the_accounts_endpoints(server: Server) -> None:
    tally = Tally()
    fuzz_accounts(tally, server, random.Random("accounts"), 200)
    tally.check()
    assert tally.refused["accounts"] > 80 and tally.accepted["accounts"] > 20, tally.summary()
    print(tally.summary())
