"""Reading a game's content file (cards, boards) as JSON, with errors that say which file and why."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from parlour.core.errors import ContentError


def read_content_json(path: str | None, package: str, default: str, what: str) -> Any:
    """Returns the parsed JSON of ``path``, or of the file ``default`` shipped in ``package``.

    ``what`` names the file in errors (``deck file``): an unreadable file, text that
    is not UTF-8 and malformed JSON each raise ContentError saying so.
    """
    if path is None:
        text = resources.files(package).joinpath(default).read_text(encoding="utf-8")
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise ContentError(f"cannot read {what} {path}: {err.strerror}") from None
        except UnicodeDecodeError:
            raise ContentError(f"cannot read {what} {path}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ContentError(f"{what} is not valid JSON: {err}") from None
    except (ValueError, RecursionError) as err:
        raise ContentError(f"{what} is not usable JSON: {type(err).__name__}") from None
