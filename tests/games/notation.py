"""The notation tests every game makes alike: each verb round-trips, loose forms read as the canonical one.

A game's ``test_notation.py`` hands its parser, formatter and table of cases to a maker here and keeps
the test it returns under a ``test_`` name, so that pytest collects it there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pytest

from parlour.core.errors import NotationError
from parlour.core.state import GameState
from parlour.testing.kit import snapshot

A = TypeVar("A")
"""A game's action type."""
Test = Callable[[str, Any], None]


def round_trip_test(
    parse: Callable[[str], A], format_: Callable[[A], str], cases: Sequence[tuple[str, A]]
) -> Test:
    """Returns the test that each ``(text, action)`` case parses to its action and formats back."""

    @pytest.mark.parametrize(("text", "action"), cases)
    def test_round_trip(text: str, action: A) -> None:
        """Parsing the canonical text gives the action; formatting the action gives the text back."""
        assert parse(text) == action
        assert format_(action) == text
        assert str(action) == text
        assert parse(format_(action)) == action

    return test_round_trip


LOOSE = "Case, extra spaces and leading zeros are accepted; the action prints in its canonical form."
"""What the canonical-form test says by default."""


def canonical_test(
    parse: Callable[[str], A], format_: Callable[[A], str], cases: Sequence[tuple[str, str]], doc: str = LOOSE
) -> Test:
    """Returns the test (``doc`` its docstring) that each ``(text, canonical)`` case, a loose form, is read
    as the action whose one canonical form is ``canonical``."""

    @pytest.mark.parametrize(("text", "canonical"), cases)
    def test_canonical(text: str, canonical: object) -> None:
        assert format_(parse(text)) == canonical

    test_canonical.__doc__ = doc
    return test_canonical


def untouched_by_malformed_test(load: Callable[[], GameState], texts: Sequence[str]) -> Callable[[], None]:
    """Returns the test that each of ``texts``, malformed, is refused at a table ``load`` sets (seat 0 to
    act) with a NotationError before the state is touched."""

    def test_untouched() -> None:
        """apply_notation raises NotationError for malformed text before touching the state."""
        state = load()
        before = snapshot(state)
        for text in texts:
            with pytest.raises(NotationError):
                state.apply_notation(text, 0)
            assert snapshot(state) == before

    return test_untouched
