"""Suite-wide test settings: the tests marked ``slow`` run without coverage measurement."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every slow test ``no_cover`` (pytest-cov pauses there): on Python 3.11 measuring a line
    costs several times running it, and the slow tests are sweeps over code the others reach already."""
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.no_cover)
