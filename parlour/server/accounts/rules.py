"""What an account's fields may be: usernames, passwords, display names and e-mail addresses, checked
as hostile input (each refusal one line, 400)."""

from __future__ import annotations

import re

from parlour.server.tables import Refusal, check_name

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,23}")
"""3 to 24 characters: letters and digits of ASCII, and ``_ . -`` after the first."""
MIN_PASSWORD = 8
MAX_PASSWORD = 200
"""Characters in a password (longer ones are refused before any hashing)."""
MAX_EMAIL = 254
EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s]+\.[^@\s]+")
DELETED_NAME = "deleted player"
"""What a deleted account's seats and display name show."""


def check_username(value: object) -> str:
    """Returns a username as given, refusing anything but 3 to 24 of ``A-Z a-z 0-9 _ . -``."""
    if not isinstance(value, str) or not USERNAME.fullmatch(value):
        raise Refusal(
            400, "a username is 3 to 24 letters, digits, '_', '.' or '-', the first a letter or digit"
        )
    return value


def check_password(value: object) -> str:
    """Returns a password, refusing anything but 8 to 200 characters of valid Unicode."""
    if not isinstance(value, str) or not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise Refusal(400, f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if any("\ud800" <= c <= "\udfff" for c in value):
        raise Refusal(400, "a password must be valid Unicode")
    return value


def check_display_name(value: object) -> str:
    """Returns a display name stripped (1 to 24 printable characters, like a seat's name)."""
    return check_name(value)


def check_email(value: object) -> str | None:
    """Returns an e-mail address (None for none: null or empty), refusing one that is not a plain
    ``local@domain.tld`` of at most 254 printable characters (no spaces or line breaks)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > MAX_EMAIL:
        raise Refusal(400, f"an e-mail address is at most {MAX_EMAIL} characters")
    surrogate = any("\ud800" <= c <= "\udfff" for c in value)
    if surrogate or not value.isprintable() or not EMAIL.fullmatch(value):
        raise Refusal(400, "that is not an e-mail address")
    return value


def check_fields(body: object, allowed: set[str], what: str) -> dict[str, object]:
    """Returns a request body as an object with no field but the allowed ones."""
    if not isinstance(body, dict):
        raise Refusal(400, f"{what} is a JSON object")
    unknown = set(body) - allowed
    if unknown:
        raise Refusal(400, f"unknown field {sorted(unknown)[0][:40]!r}")
    return body
