"""The accounts' HTTP routes: the session cookie, CSRF and same-origin checks, and the account page.

A session is a random token in the ``parlour_session`` cookie (HttpOnly, SameSite=Lax, Secure over
HTTPS), stored only as its SHA-256. Any request that changes something and is made with the session
(``signed_in``) must carry ``X-CSRF-Token``, an HMAC of the cookie's token that only the account's own
pages read (from ``/api/me`` or the sign-in's answer); and every POST here refuses an ``Origin`` of
another site. docs/server.md, "Accounts".
"""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from parlour.server.accounts.cookie import COOKIE, session_token
from parlour.server.accounts.mygames import my_tables, stored_tables
from parlour.server.accounts.rules import DELETED_NAME
from parlour.server.accounts.service import SESSION_SECONDS, Account, Accounts, SignedIn, csrf_of
from parlour.server.bodies import json_body, no_body
from parlour.server.hall import Hall
from parlour.server.limits import address_key
from parlour.server.tables import Refusal

CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
STATIC = Path(__file__).parent.parent / "static"
PRIVATE = {"cache-control": "no-store"}
"""What an answer holding an account's own data says to caches: keep nothing."""


def check_origin(request: Request) -> None:
    """Refuses (403) a request whose ``Origin`` is another site's (browsers send it with every POST)."""
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise Refusal(403, "a request from another site is refused")


def signed_in(request: Request, accounts: Accounts) -> tuple[Account, str]:
    """Returns the account the request's session is signed in to and the session's token: 401 without
    one; a request that is not GET or HEAD without the session's CSRF token: 403."""
    token = session_token(request)
    account = accounts.account_of(token) if token else None
    if account is None or token is None:
        raise Refusal(401, "sign in first")
    if request.method not in SAFE_METHODS:
        check_origin(request)
        given = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(given.encode("utf-8", "surrogatepass"), csrf_of(token).encode()):
            raise Refusal(403, "a signed-in request needs its X-CSRF-Token header (reload the page)")
    return account, token


def address(request: Request) -> str:
    """Returns what per-address limits count the client by."""
    return address_key(request.client.host) if request.client else "unknown"


def _signed_in_answer(request: Request, made: SignedIn, status: int = 200) -> Response:
    """Answers a registration or sign-in: the account and its CSRF token, the session in the cookie."""
    reply = JSONResponse({"account": made.account.to_json(), "csrf": csrf_of(made.token)}, status_code=status)
    reply.set_cookie(
        COOKIE,
        made.token,
        max_age=int(SESSION_SECONDS),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return reply


def _signed_out(request: Request) -> Response:
    """Answers with nobody signed in, the cookie cleared."""
    reply = JSONResponse({"account": None})
    reply.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")
    return reply


def account_routes(hall: Callable[[], Hall], accounts: Callable[[], Accounts]) -> list[Route]:
    """Returns the accounts' routes, given how to find the hall and the accounts (made at start-up)."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "account.html")

    async def register(request: Request) -> Response:
        check_origin(request)
        made = await accounts().register(await json_body(request), address(request), session_token(request))
        return _signed_in_answer(request, made, 201)

    async def login(request: Request) -> Response:
        check_origin(request)
        body = await json_body(request)
        made = await accounts().login(body, address(request), session_token(request))
        return _signed_in_answer(request, made)

    async def logout(request: Request) -> Response:
        check_origin(request)
        await no_body(request)
        token = session_token(request)
        if token is not None and accounts().account_of(token) is not None:
            signed_in(request, accounts())  # its CSRF token: no other site signs anybody out
            await accounts().logout(token)
        return _signed_out(request)

    async def me(request: Request) -> Response:
        token = session_token(request)
        account = accounts().account_of(token) if token else None
        if account is None or token is None:
            return JSONResponse({"account": None}, headers=PRIVATE)
        return JSONResponse({"account": account.to_json(), "csrf": csrf_of(token)}, headers=PRIVATE)

    async def change(request: Request) -> Response:
        account, token = signed_in(request, accounts())
        updated = await accounts().update(account, await json_body(request), address(request))
        return JSONResponse({"account": updated.to_json(), "csrf": csrf_of(token)})

    async def data(request: Request) -> Response:
        account, _ = signed_in(request, accounts())
        disposition = f'attachment; filename="parlour-{account.username}.json"'
        headers = {**PRIVATE, "content-disposition": disposition}
        return JSONResponse(accounts().data(account), headers=headers)

    async def remove(request: Request) -> Response:
        account, _ = signed_in(request, accounts())
        renamed = await accounts().delete(account, await json_body(request))
        await rename_seats(hall(), renamed)
        return _signed_out(request)

    async def password(request: Request) -> Response:
        account, _ = signed_in(request, accounts())
        made = await accounts().change_password(account, await json_body(request))
        return _signed_in_answer(request, made)

    async def confirm(request: Request) -> Response:
        check_origin(request)
        account = await accounts().confirm(await json_body(request))
        return JSONResponse({"confirmed": True, "username": account.username})

    async def ask_reset(request: Request) -> Response:
        check_origin(request)
        answer = await accounts().ask_reset(await json_body(request), address(request))
        return JSONResponse({"answer": answer})

    async def reset(request: Request) -> Response:
        check_origin(request)
        await accounts().reset(await json_body(request))
        return _signed_out(request)

    async def bind(request: Request) -> Response:
        account, _ = signed_in(request, accounts())
        await no_body(request)
        table = hall().get(request.path_params["table"])
        header = request.headers.get("authorization", "")
        seat = hall().seat_of(table, header[7:] if header.lower().startswith("bearer ") else "")
        if seat is None:
            raise Refusal(403, "only a seat's own link can keep it in an account")
        await accounts().bind(account, table.record.id, seat)
        if table.record.seats[seat].name is None and not table.state.is_over():
            await table.set_name(seat, account.display_name)  # a nameless seat takes the account's name
        return JSONResponse({"table": table.record.id, "seat": seat, "account": account.username})

    async def games_page(request: Request) -> Response:
        return FileResponse(STATIC / "games.html")

    async def my_games(request: Request) -> Response:
        account, _ = signed_in(request, accounts())
        found = await asyncio.to_thread(stored_tables, hall().store.engine, account.id)
        listed = my_tables(hall(), found, hall().clock.now())
        return JSONResponse({"tables": listed, "now": hall().clock.now()}, headers=PRIVATE)

    return [
        Route("/account", page),
        Route("/games", games_page),
        Route("/api/me/tables", my_games, methods=["GET"]),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me", change, methods=["POST"]),
        Route("/api/me/data", data, methods=["GET"]),
        Route("/api/me/delete", remove, methods=["POST"]),
        Route("/api/me/password", password, methods=["POST"]),
        Route("/api/confirm", confirm, methods=["POST"]),
        Route("/api/reset/ask", ask_reset, methods=["POST"]),
        Route("/api/reset", reset, methods=["POST"]),
        Route("/api/tables/{table}/bind", bind, methods=["POST"]),
    ]


async def rename_seats(hall: Hall, seats: list[tuple[str, int]]) -> None:
    """Shows "deleted player" on a deleted account's seats of the tables in memory (storage has it
    already) and tells their connections."""
    touched = set()
    for table_id, seat in seats:
        table = hall.tables.get(table_id)
        if table is not None and 0 <= seat < len(table.record.seats):
            table.record.seats[seat].name = DELETED_NAME
            touched.add(table_id)
    for table_id in touched:
        await hall.tables[table_id].broadcast()
