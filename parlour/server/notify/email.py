"""E-mail notifications: the message (the table's page and an unsubscribe link) and its signed token.

The seat's own link cannot be sent: it holds a token the server keeps only as a hash. The message gives
the table's page address and says to open the table from the account page's "My seats" or the saved
seat link (the page itself asks for the seat's link when opened without it). The unsubscribe link carries an
HMAC of the account's id (keyed from the server's seed key) and works until the key changes, no sign-in
needed: opening it shows a button whose POST turns the account's e-mails off (a mail scanner's prefetch
changes nothing), and a mail program's one-click POST to it (``List-Unsubscribe-Post``, RFC 8058) does
the same.
"""

from __future__ import annotations

import hashlib
import hmac

from parlour.server.accounts import mail
from parlour.server.accounts.mail import MailSettings
from parlour.server.notify.outbox import entries

UNSUBSCRIBE_PATH = "/api/notify/unsubscribe"


def unsubscribe_key(seed_key: bytes) -> bytes:
    """Returns the key unsubscribe tokens are signed with (derived from the server's seed key)."""
    return hmac.new(seed_key, b"parlour-unsubscribe", hashlib.sha256).digest()


def unsubscribe_token(key: bytes, account_id: int) -> str:
    """Returns the account's unsubscribe token: its id and an HMAC of it."""
    mac = hmac.new(key, f"unsubscribe:{account_id}".encode(), hashlib.sha256).hexdigest()[:32]
    return f"{account_id}.{mac}"


def check_unsubscribe(key: bytes, token: object) -> int | None:
    """Returns the account an unsubscribe token names, or None if it is not a good one."""
    if not isinstance(token, str) or len(token) > 60 or token.count(".") != 1:
        return None
    number, _ = token.split(".")
    if not number.isdecimal() or not number.isascii() or len(number) > 12:
        return None
    good = unsubscribe_token(key, int(number))
    return int(number) if hmac.compare_digest(good.encode(), token.encode()) else None


def compose(payload: dict[str, object], base: str, token: str) -> tuple[str, str, dict[str, str]]:
    """Returns a message's subject, body and headers (List-Unsubscribe, one click: RFC 8058)."""
    unsubscribe = f"{base}{UNSUBSCRIBE_PATH}?token={token}"
    tables = entries(payload) if payload.get("tables") is not None else [payload]
    lines = [f"{t.get('text')}: {base}/t/{t.get('table')}" for t in tables]
    subject = str(payload.get("text")) if len(tables) == 1 else f"{len(tables)} tables wait for you"
    body = "\n".join(
        [
            *lines,
            "",
            'Open the table from your account page\'s "My seats" or from the seat link you saved:',
            "the address above shows the table, and your seat's own link lets you play there.",
            "",
            f"No more e-mails like this one (no sign-in needed): {unsubscribe}",
            "",
        ]
    )
    headers = {"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    return subject, body, headers


def send(settings: MailSettings, to: str, payload: dict[str, object], base: str, token: str) -> None:
    """Sends one notification e-mail (blocking); raises OSError or SMTPException."""
    subject, body, headers = compose(payload, base, token)
    mail.send(settings, to, subject, body, headers)
