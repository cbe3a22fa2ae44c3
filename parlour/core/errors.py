"""Errors raised by Parlour: every refusal says what was wrong and leaves the state unchanged."""

from __future__ import annotations


class ParlourError(Exception):
    """Base class of every error Parlour raises on purpose."""


class NotationError(ParlourError):
    """Text that is not a well-formed action in the game's notation."""


class IllegalActionError(ParlourError):
    """A well-formed action that the rules do not allow here and now."""


class PositionError(ParlourError):
    """A position (JSON game state) that is malformed or impossible; names the field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


class ContentError(ParlourError):
    """A content data file (cards, boards) that does not satisfy its schema."""


class OptionError(ParlourError):
    """An unknown game option or a value outside the option's range."""


class RecordError(ParlourError):
    """A game record file that cannot be read or replayed."""
