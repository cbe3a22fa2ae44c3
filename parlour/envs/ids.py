"""Action ids as the environments take them: whole numbers only, never a float, a bool or text."""

from __future__ import annotations

import numpy as np

SHOWN = 40
"""The most characters of a refused action an error message repeats."""


def action_id(action: object, count: int | None = None) -> int:
    """Returns ``action`` as an int if it is a Python int or a NumPy integer (not a bool) and, given
    ``count``, in 0..count-1; else raises ValueError in one line (``step(2.0)`` is not ``step(2)``)."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        shown = " ".join(repr(action).split())
        if len(shown) > SHOWN:
            shown = shown[: SHOWN - 3] + "..."
        span = f" 0..{count - 1}" if count is not None else ""
        raise ValueError(
            f"an action is an id{span} (an int or NumPy integer), not {shown} ({type(action).__name__})"
        )
    number = int(action)
    if count is not None and not 0 <= number < count:
        raise ValueError(f"an action is an id 0..{count - 1}, not {number}")
    return number
