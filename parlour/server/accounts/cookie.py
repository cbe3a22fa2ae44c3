"""The session cookie's name and how a request or a WebSocket handshake's token is read from it."""

from __future__ import annotations

from starlette.requests import HTTPConnection

COOKIE = "parlour_session"


def session_token(request: HTTPConnection) -> str | None:
    """Returns the session cookie's token, if it has the shape of one (a request's or a WebSocket's)."""
    token = request.cookies.get(COOKIE)
    if not token or len(token) > 100 or not token.isascii():
        return None
    return token
