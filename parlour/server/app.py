"""The ASGI application (Starlette): the lobby and table pages, the JSON API and the tables' WebSockets.

Every request is hostile input: bodies and messages are size-limited JSON, tokens travel in the
``Authorization`` header or the WebSocket's first message (never in a URL a server log keeps), and each
refusal is one JSON line with its status (docs/server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TypedDict

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.analysis.settings import DEFAULT_SAMPLES
from parlour.bots.registry import bot_names
from parlour.bots.workers import start_worker
from parlour.core.game import OptionSpec
from parlour.core.positions import JSONObject, JSONValue
from parlour.core.registry import game_names, load_game
from parlour.server.accounts.cookie import COOKIE
from parlour.server.accounts.counters import AccountLimits
from parlour.server.accounts.mail import MailSettings
from parlour.server.accounts.service import Accounts
from parlour.server.accounts.web import account_routes, signed_in
from parlour.server.analyses import AnalysisLimits, analysis_routes
from parlour.server.analysing import POLL as ANALYSIS_POLL
from parlour.server.analysing import Analyser
from parlour.server.bodies import json_body, no_body
from parlour.server.botaccounts.answers import BotLimits
from parlour.server.botaccounts.web import bot_routes
from parlour.server.clock import Clock
from parlour.server.cluster import Node
from parlour.server.hall import Hall
from parlour.server.learning import LEARN_SHARE, learn_routes
from parlour.server.leases import LEASE, RENEW
from parlour.server.limits import (
    CHAT_BURST,
    CHAT_RATE,
    HTTP_BURST,
    HTTP_RATE,
    SOCKETS_PER_ADDRESS,
    Buckets,
    HttpRateLimit,
)
from parlour.server.notify.deliver import POLL as NOTIFY_POLL
from parlour.server.notify.deliver import Channels, Deliverer
from parlour.server.notify.email import unsubscribe_key
from parlour.server.notify.push import DEFAULT_CONTACT, vapid_keys
from parlour.server.notify.web import notify_routes
from parlour.server.orders import order
from parlour.server.ratings import leaderboard, profile, rate_pending
from parlour.server.replays import Replayer
from parlour.server.scheduler import POLL, Scheduler
from parlour.server.sockets import Doors, serve_socket
from parlour.server.statistics import Statistics, StatisticsSettings, statistics_routes
from parlour.server.storage import Store, open_store
from parlour.server.tables import LiveTable, Refusal, Timing

STATIC = Path(__file__).parent / "static"
LOG = logging.getLogger("parlour.server")
GZIP_MINIMUM = 500
"""Responses shorter than this (bytes) are sent as they are: gzip would not pay for its header."""
GZIP_LEVEL = 6
"""zlib's level for responses: near level 9's size at a fraction of its time."""


@dataclass
class Settings:
    """How the server runs: where its database is, how bots think, how automatic moves are paced."""

    database_url: str
    bot_workers: int = 2
    """Processes bots think in (0: threads in this process, for tests)."""
    timing: Timing | None = None
    http_rate: float = HTTP_RATE
    """HTTP requests a second per client address (bursts up to ``http_burst``)."""
    http_burst: float = HTTP_BURST
    sockets_per_address: int = SOCKETS_PER_ADDRESS
    """WebSocket connections one client address may hold open at once."""
    seed_key_file: Path | None = None
    """The key sealing the seeds of games in play (None: beside a SQLite file, docs/server.md)."""
    account_limits: AccountLimits = field(default_factory=AccountLimits)
    """The rate limits of sign-ins, registrations and e-mails (counted in the database)."""
    mail: MailSettings | None = None
    """The SMTP server e-mails go through (None: no e-mail is sent)."""
    public_url: str | None = None
    """The server's address as people reach it (``https://parlour.example.org``), for e-mails' links."""
    clock: Clock = field(default_factory=Clock)
    """The server's time (clock.py): tests move it forward to make deadlines pass without sleeping."""
    poll: float = POLL
    """How often the scheduler asks the database for due deadlines (seconds)."""
    notify_poll: float = NOTIFY_POLL
    """How often the notifications' outbox is asked for due messages (seconds)."""
    push_subject: str = DEFAULT_CONTACT
    """The VAPID ``sub`` claim push services may write to (a mailto: or https: address)."""
    notify_private_hosts: bool = False
    """Whether webhooks and push endpoints may be loopback or private addresses (tests, closed networks)."""
    analysis_workers: int = 1
    """Processes an analysis's decisions are judged in (spawned for each analysis; 0: this server runs
    no analysis, another process on the database does)."""
    analysis_budget: int = DEFAULT_SAMPLES
    """Determinisations a decision in the server's analyses (docs/analysis.md)."""
    analysis_limits: AnalysisLimits = field(default_factory=AnalysisLimits)
    """How many analyses an address may ask for, and how many may wait, at once."""
    analysis_poll: float = ANALYSIS_POLL
    """How often the analysis worker asks the database for a queued analysis (seconds)."""
    test_hooks: bool = False
    """Tests only: adds ``POST /api/test/clock`` (``{"advance": SECONDS}``), which moves the clock."""
    bot_limits: BotLimits = field(default_factory=BotLimits)
    """The bot API's rate limits (counted in the database; docs/bot-protocol.md)."""
    redis_url: str | None = None
    """The Redis of a cluster's nodes (None: a single server; docs/cluster.md)."""
    node_id: str | None = None
    """This node's id in a cluster (with ``redis_url``)."""
    node_token: str | None = None
    """This instance's claim of its node id on Redis, made by ``parlour serve`` before it listened
    (None: the node claims it when it opens)."""
    lease: float = LEASE
    """How long a cluster node's lease of a table lasts without renewal (seconds)."""
    renew: float = RENEW
    """How often a cluster node renews its leases and looks for tables to take over (seconds)."""
    statistics: StatisticsSettings = field(default_factory=StatisticsSettings)
    """Where each game's designer's report is kept, and its size (statistics.py; no folder: off)."""


def asked_now(hall: Hall, table_id: str, version: int, seats: Sequence[int]) -> bool:
    """Returns whether any of these seats is asked now with no connection of its own open (a queued
    notification's check when it is sent: notify/recheck.py); a table moved elsewhere is read again."""
    try:
        table = hall.fresh(table_id, version)
    except Refusal:
        return False
    return not set(seats).isdisjoint(table.unseen_asked())


def analyser_of(settings: Settings, store: Store) -> Analyser | None:
    """Returns the analysis worker the settings ask for (None: this server runs no analysis)."""
    if settings.analysis_workers <= 0:
        return None
    return Analyser(
        store,
        settings.clock,
        settings.analysis_workers,
        settings.analysis_budget,
        settings.analysis_poll,
        limits=settings.analysis_limits,
    )


def make_pool(workers: int) -> Executor:
    """Returns the pool bots think in: processes that die with the server, or threads (0), warmed up."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=2, thread_name_prefix="parlour-bot")
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start_bot_worker, initargs=(os.getpid(),)
    )
    for _ in range(workers):
        pool.submit(int)  # starts the workers now, not at the first bot's move
    return pool


def _start_bot_worker(parent: int) -> None:
    """Sets a bot worker up (it dies with the server) and loads every game's rules before any move."""
    start_worker(parent)
    warm_up()


def warm_up() -> None:
    """Loads every game and what its rules load only when first needed."""
    for name in game_names():
        load_game(name).warm_up()


def create_app(settings: Settings) -> Starlette:
    """Returns the application; the database is opened (and migrated) and tables resumed at start-up."""
    state: JSONObject = {}
    doors = Doors(settings.sockets_per_address, Buckets(CHAT_RATE, CHAT_BURST))
    statistics = Statistics(settings.statistics)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        warm_up()  # no move waits for a module to load
        store = open_store(settings.database_url, settings.seed_key_file)
        pool = make_pool(settings.bot_workers)
        hall = Hall(store, pool, settings.timing, settings.clock)
        state["hall"] = app.state.hall = hall
        state["accounts"] = Accounts(store, settings.account_limits, settings.mail, settings.public_url)
        node = app.state.node = await _join(settings, hall)
        hall.resume_all()  # a single server's tables (a cluster's node takes its own by lease)
        rate_pending(store.engine)  # the tables that ended while their rating could not run
        gc.freeze()  # the tables just resumed live long: full collections no longer walk them (p99)
        scheduler = app.state.scheduler = Scheduler(hall, settings.clock, settings.poll)
        scheduler.start()
        state["channels"] = channels = Channels(
            settings.mail,
            settings.public_url or "http://127.0.0.1:8000",
            unsubscribe_key(store.seed_key),
            settings.push_subject,
            settings.notify_private_hosts,
        )
        await asyncio.to_thread(vapid_keys, store)  # made on the first start, kept in the database
        deliverer = app.state.deliverer = Deliverer(
            store, channels, settings.clock, settings.notify_poll, asked_now=partial(asked_now, hall)
        )
        deliverer.start()
        analyser = app.state.analyser = analyser_of(settings, store)
        if analyser is not None:
            analyser.start()
        await statistics.start()
        try:
            yield
        finally:
            await statistics.stop()
            if analyser is not None:
                await analyser.stop()
            await deliverer.stop()
            await scheduler.stop()
            hall.close()
            if node is not None:
                await node.close()  # its leases given up: the other nodes take its tables at once
            pool.shutdown(wait=False, cancel_futures=True)
            store.close()

    def hall() -> Hall:
        found: Hall = state["hall"]
        return found

    def accounts() -> Accounts:
        found: Accounts = state["accounts"]
        return found

    def channels() -> Channels:
        found: Channels = state["channels"]
        return found

    async def front(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    async def games(request: Request) -> Response:
        return JSONResponse([_game_json(name) for name in game_names()])

    async def lobby(request: Request) -> Response:
        return JSONResponse(hall().lobby())

    async def create(request: Request) -> Response:
        spec = await json_body(request)
        creator = None
        if isinstance(spec, dict) and spec.get("rated") is True:
            # a rated table's creator is signed in (and sends the CSRF)
            creator = signed_in(request, accounts())[0].id
        made = await hall().create(spec, creator)
        base = f"/t/{made.table}"
        return JSONResponse(
            {
                "table": made.table,
                "seats": {str(seat): f"{base}#k={token}" for seat, token in made.tokens.items()},
                "spectator": f"{base}#k={made.spectator}" if made.spectator else None,
            },
            status_code=201,
        )

    async def view(request: Request) -> Response:
        table, seat = _open(hall(), request)
        return JSONResponse(table.view(seat))

    async def act(request: Request) -> Response:
        table, seat = _open(hall(), request)
        body = await json_body(request)
        if seat is None:
            raise Refusal(403, "a spectator cannot act")
        if not isinstance(body, dict):
            raise Refusal(400, 'an action is sent as {"action": TEXT, "version": N}')
        version = await order(hall(), table, seat, "act", body)
        return JSONResponse({"version": version})

    async def status(request: Request) -> Response:
        return JSONResponse(hall().status(request.path_params["table"]))

    async def again(request: Request) -> Response:
        table, seat = await _asker(hall(), accounts(), request)
        made = await hall().play_again(table, seat)
        return JSONResponse({"table": made})

    async def accept(request: Request) -> Response:
        await no_body(request)
        table, seat = await _asker(hall(), accounts(), request)
        return JSONResponse(await hall().answer(table, seat, True))

    async def decline(request: Request) -> Response:
        await no_body(request)
        table, seat = await _asker(hall(), accounts(), request)
        return JSONResponse(await hall().answer(table, seat, False))

    async def record(request: Request) -> Response:
        table = hall().get(request.path_params["table"])
        if not table.state.is_over():
            raise Refusal(409, "the record is ready once the game is over")
        return JSONResponse(table.game_record().to_json())

    async def replay(request: Request) -> Response:
        table = hall().get(request.path_params["table"])
        if not table.state.is_over():
            raise Refusal(409, "the replay is ready once the game is over")
        query = request.query_params
        return JSONResponse(
            await _replay_json(table, query.get("at"), query.get("seat"), query.get("content") == "1")
        )

    async def leaderboard_page(request: Request) -> Response:
        return FileResponse(STATIC / "leaderboard.html")

    async def profile_page(request: Request) -> Response:
        return FileResponse(STATIC / "profile.html")

    async def board(request: Request) -> Response:
        game = request.query_params.get("game", "")
        if game not in game_names():
            raise Refusal(400, f"game must be one of {', '.join(game_names())}")
        known = load_game(game)
        players = _small_int(
            request.query_params.get("players", str(known.min_players)),
            known.min_players,
            known.max_players,
            "players",
        )
        listed = await asyncio.to_thread(leaderboard, hall().store.engine, game, players)
        return JSONResponse({"game": game, "players": players, "board": listed})

    async def player(request: Request) -> Response:
        username = request.path_params["username"]
        too_long = len(username) > 24
        shown = None if too_long else await asyncio.to_thread(profile, hall().store.engine, username)
        if shown is None:
            raise Refusal(404, "there is no such player")
        return JSONResponse(shown)

    async def move_clock(request: Request) -> Response:
        body = await json_body(request)
        advance = body.get("advance") if isinstance(body, dict) else None
        if isinstance(advance, bool) or not isinstance(advance, int | float):
            raise Refusal(400, 'the clock hook takes {"advance": SECONDS}')
        try:
            settings.clock.advance(float(advance))
        except ValueError as err:
            raise Refusal(400, str(err)) from None
        return JSONResponse({"now": settings.clock.now(), "offset": settings.clock.offset})

    routes = [
        Route("/", front),
        Route("/favicon.ico", favicon),
        Route("/t/{table}", table_page),
        Route("/api/games", games),
        Route("/api/tables", lobby, methods=["GET"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{table}", view),
        Route("/api/tables/{table}/actions", act, methods=["POST"]),
        Route("/api/tables/{table}/status", status),
        Route("/api/tables/{table}/again", again, methods=["POST"]),
        Route("/api/tables/{table}/accept", accept, methods=["POST"]),
        Route("/api/tables/{table}/decline", decline, methods=["POST"]),
        Route("/api/tables/{table}/record", record),
        Route("/api/tables/{table}/replay", replay),
        Route("/leaderboard", leaderboard_page),
        Route("/players/{username}", profile_page),
        Route("/api/leaderboard", board),
        Route("/api/players/{username}", player),
        *account_routes(hall, accounts),
        *bot_routes(hall, accounts, settings.bot_limits),
        *notify_routes(lambda: hall().store, accounts, channels, settings.clock),
        *analysis_routes(hall, settings.clock, settings.analysis_limits),
        *learn_routes(hall, settings.http_rate * LEARN_SHARE, settings.http_burst * LEARN_SHARE),
        *statistics_routes(statistics),
        WebSocketRoute("/ws/{table}", lambda ws: serve_socket(hall(), doors, ws, accounts())),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if settings.test_hooks:  # never in a served app unless asked for (parlour serve --test-hooks)
        routes.append(Route("/api/test/clock", move_clock, methods=["POST"]))
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={Refusal: _refused, 404: _not_found, 405: _not_allowed},  # type: ignore[dict-item]
        middleware=[
            Middleware(NoReferrer),
            Middleware(HttpRateLimit, rate=settings.http_rate, burst=settings.http_burst),
            # HTTP responses only (pages, scripts, styles, JSON) for clients that accept gzip: WebSockets
            # pass through untouched (the middleware looks only at "http" scopes).
            Middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL),
        ],
    )


async def _join(settings: Settings, hall: Hall) -> Node | None:
    """Makes this server a node of a cluster if the settings name a Redis (None: a single server)."""
    if settings.redis_url is None or settings.node_id is None:
        return None
    node = Node(
        hall,
        settings.redis_url,
        settings.node_id,
        settings.clock,
        settings.lease,
        settings.renew,
        token=settings.node_token,
    )
    node.exit_when_ousted = True  # another instance took its id: a clean stop (docs/cluster.md)
    await node.open()
    return node


# --------------------------------------------------------------------- HTTP helpers
class NoReferrer:
    """ASGI middleware: every HTTP response says ``Referrer-Policy: no-referrer``, so a page never
    tells another site its address (a seat's token rides in the fragment, which is never sent anyway)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Passes the request on, adding the header to the response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"referrer-policy", b"no-referrer")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


async def _refused(request: Request, refusal: Refusal) -> Response:
    return JSONResponse(refusal.to_json(), status_code=refusal.status)


async def _not_found(request: Request, exc: Exception) -> Response:
    return JSONResponse({"type": "error", "status": 404, "error": "no such page"}, status_code=404)


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return JSONResponse({"type": "error", "status": 405, "error": "method not allowed here"}, status_code=405)


def _open(hall: Hall, request: Request) -> tuple[LiveTable, int | None]:
    """Returns the table of the URL and the seat the bearer token opens."""
    table = hall.get(request.path_params["table"])
    header = request.headers.get("authorization", "")
    token = header[7:] if header.lower().startswith("bearer ") else ""
    return table, hall.seat_of(table, token)


async def _asker(hall: Hall, accounts: Accounts, request: Request) -> tuple[LiveTable, int | None]:
    """Returns the table of the URL and the seat asking: the one its bearer token opens or, without
    one, the seat the signed-in account keeps there that ``?seat=N`` names (400 if not a seat number,
    403 if the account does not keep it), else its lowest (the session's CSRF token and own Origin
    checked, as every signed-in change; None where it keeps none). For play again and a rematch's
    answers, which a seat opened by its account (no link) asks too. The database is read off the loop."""
    if request.headers.get("authorization") or COOKIE not in request.cookies:
        return _open(hall, request)
    table = hall.get(request.path_params["table"])
    asked = request.query_params.get("seat")
    wanted = None if asked is None else _small_int(asked, 0, table.record.players - 1, "seat")
    account, _ = await asyncio.to_thread(signed_in, request, accounts)
    kept = await asyncio.to_thread(accounts.seats_at, account, table.record.id)
    if wanted is None:
        return table, kept[0] if kept else None
    if wanted not in kept:
        raise Refusal(403, f"your account keeps no seat {wanted} at this table")
    return table, wanted


class OptionInfo(TypedDict):
    """A game option as the front page offers it."""

    name: str
    default: JSONValue
    values: str
    doc: str
    kind: str
    """How the lobby asks for it: "choice", "boolean" (two choices, no|yes or off|on), "integer",
    "list" (its choices or a list of items) or "content" (a content set's name)."""
    choices: list[str]
    minimum: int


class GameInfo(TypedDict):
    """A game as the front page offers it: its players, options and bots."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: list[OptionInfo]
    bots: list[str]


def _game_json(name: str) -> GameInfo:
    """Returns what the front page needs to offer a game: players, options and bots."""
    game = load_game(name)
    return {
        "name": game.name,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": [
            {
                "name": s.name,
                "default": s.default if s.content is None else "house",
                "values": s.values_text(),
                "doc": s.doc,
                "kind": _option_kind(s),
                "choices": list(s.choices),
                "minimum": s.minimum,
            }
            for s in game.option_specs
        ],
        "bots": bot_names(game),
    }


def _option_kind(spec: OptionSpec) -> str:
    """Returns how the lobby asks for an option (``OptionInfo.kind``)."""
    if spec.content is not None:
        return "content"
    if spec.items:
        return "list"
    if set(spec.choices) in ({"no", "yes"}, {"off", "on"}):
        return "boolean"
    return "choice" if spec.choices else "integer"


async def _replay_json(
    table: LiveTable, at: str | None, seat: str | None, content: bool = False
) -> JSONObject:
    """Returns a finished game's table at action ``at`` from a seat's view (or everything revealed);
    with ``content``, also what a drawn table needs beside the view (card texts, the table's content),
    which never changes (a viewer asks for it once). The work runs off the event loop, one request of
    a table at a time."""
    moves = len(table.record.moves)
    step = _small_int(at, 0, moves, "at") if at is not None else moves
    viewer = None if seat in (None, "", "all") else _small_int(seat, 0, table.record.players - 1, "seat")
    async with table.replay_lock:
        if table.replayer is None:
            table.replayer = await asyncio.to_thread(Replayer, table.game, table.game_record())
        view = await asyncio.to_thread(table.replayer.view, step, viewer, table.seats_json())
    if content:
        view["card_texts"], view["table_content"] = table.card_texts(), table.table_content()
    return view


def _small_int(text: str, low: int, high: int, name: str) -> int:
    """Returns a query parameter as a whole number from low to high, refusing anything else."""
    if not text.isdecimal() or not text.isascii() or len(text) > 9 or not low <= int(text) <= high:
        raise Refusal(400, f"{name} must be a whole number from {low} to {high}")
    return int(text)
