"""E-mail over SMTP: the settings (off when no host is given) and sending one plain-text message."""

from __future__ import annotations

import logging
import os
import smtplib
import ssl
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage

LOG = logging.getLogger("parlour.server.mail")
PASSWORD_VARIABLE = "PARLOUR_SMTP_PASSWORD"
"""The environment variable holding the SMTP password (never a command-line argument: ``ps`` shows those)."""
SECURITY = ("starttls", "ssl", "none")


@dataclass(frozen=True)
class MailSettings:
    """Where the server sends e-mail: an SMTP server, its credentials, and the sender's address."""

    host: str
    port: int = 587
    user: str | None = None
    password: str | None = None
    sender: str = "parlour@localhost"
    security: str = "starttls"
    """"starttls" (upgrade the connection), "ssl" (TLS from the start, port 465) or "none" (a local relay)."""
    timeout: float = 20.0


def password_from_environment() -> str | None:
    """Returns the SMTP password from ``PARLOUR_SMTP_PASSWORD`` (None if unset or empty)."""
    return os.environ.get(PASSWORD_VARIABLE) or None


def send(
    settings: MailSettings, to: str, subject: str, body: str, headers: dict[str, str] | None = None
) -> None:
    """Sends one plain-text message (blocking: run it in a thread), with any further ``headers``;
    raises OSError or SMTPException."""
    message = EmailMessage(policy=policy.SMTP.clone(max_line_length=998))  # a long link's header unfolded
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = subject
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body)
    smtp: smtplib.SMTP
    if settings.security == "ssl":
        smtp = smtplib.SMTP_SSL(
            settings.host, settings.port, timeout=settings.timeout, context=ssl.create_default_context()
        )
    else:
        smtp = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
    with smtp:
        if settings.security == "starttls":
            smtp.starttls(context=ssl.create_default_context())
        if settings.user:
            smtp.login(settings.user, settings.password or "")
        smtp.send_message(message)
