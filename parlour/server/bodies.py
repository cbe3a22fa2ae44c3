"""Request bodies: JSON of at most MAX_BODY bytes, read as hostile input (each refusal one line)."""

from __future__ import annotations

import logging

from starlette.requests import ClientDisconnect, Request

from parlour.core.positions import JSONValue
from parlour.server.sockets import MAX_MESSAGE, parse_json
from parlour.server.tables import Refusal

LOG = logging.getLogger("parlour.server")
MAX_BODY = MAX_MESSAGE
"""The largest request body accepted (bytes), as a WebSocket message."""


async def json_body(request: Request) -> JSONValue:
    """Returns a request's JSON body, refusing one over MAX_BODY bytes or not JSON."""
    return parse_json(await _read(request))


async def optional_body(request: Request) -> JSONValue:
    """Returns a request's JSON body, ``{}`` if it has none (an empty body), refusing one over MAX_BODY
    bytes or not JSON."""
    data = await _read(request)
    return parse_json(data) if data.strip() else {}


async def no_body(request: Request) -> None:
    """Reads the body of a request that takes none: nothing, or ``{}``; refuses anything else (400)."""
    data = await _read(request)
    if data.strip() and parse_json(data) != {}:
        raise Refusal(400, "this request takes no fields (an empty body or {})")


async def _read(request: Request) -> bytes:
    """Returns a request's body, refusing one over MAX_BODY bytes or cut short."""
    size = 0
    chunks = []
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise Refusal(413, f"a request body is at most {MAX_BODY} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        client = request.client.host if request.client else "unknown"
        LOG.info("a client at %s left in the middle of its request body", client)
        raise Refusal(400, "the request body was cut short") from None
    return b"".join(chunks)
