"""The table server's two input surfaces fuzzed: HTTP requests and WebSocket messages.

``Server`` runs the application on a fresh SQLite file (bots in threads, automatic moves at once) with
tables of every game, people and ``random`` bots at them; ``fuzz_http`` sends it mutated requests and
``fuzz_ws`` mutated socket messages.  Every reply is held to docs/server.md: never a 5xx or a
traceback; every refusal the one JSON line ``{"type": "error", "status": N, "error": TEXT}`` with the
HTTP status (a socket's refused hello then closed with 4000 + N); the table unchanged after it (its
asked seats' views and its stored moves); an accepted move one version on, stored, and legal when it
was made; no file named by the input opened; no unfinished table's seed in anything sent. Invalid
Unicode (lone surrogates, bytes that are not UTF-8) in any string of a body or message is refused with
400; a search bot (a seat's or a stand-in's) is taken exactly when tests/fuzz/bot_names.py says.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import sqlite3
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from parlour.core.errors import ParlourError
from parlour.server.accounts.counters import AccountLimits
from parlour.server.app import Settings, create_app
from parlour.server.tables import Timing

from .bot_names import search_bot
from .guards import Tally, no_file_named, strings_in
from .hostile import INVALID_UTF8, NASTY_TEXT, PATHS, Spoiled, mutate_text, spoil_strings
from .mutate import mutate

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

MAX_ERROR = 300
"""The longest error text accepted as one clear line (the server cuts longer ones)."""
MAX_BODY = 16 * 1024
PER_CONNECTION = 18
"""Messages fuzzed on one socket (each followed by a ping): 36 stay inside the burst of 40, so a
refusal for the rate (429) is possible only if the limit is lowered; it is then an accepted refusal."""
BINARY_FRAMES = True
"""Whether binary WebSocket frames are sent (refused with 400 like any message that is not JSON text)."""
FAST = Timing(think=0.0, pass_delay=0.0, grace=0.0, window_pause=0.0)
LATE = 0.05
"""How long to wait after a seat's setting changed: an automatic move already on its way may still
land (test_server_fuzz.test_no_stand_in_moves_after_the_seat_is_taken_back, xfail)."""


class Refused(ParlourError):
    """A request or message the server refused with a clean one-line JSON error."""


# --------------------------------------------------------------------- the promises
def check_error(body: Any, status: int) -> str:
    """A refusal is ``{"type": "error", "status": N, "error": TEXT}``: N the status it came with, TEXT one
    non-empty line of at most MAX_ERROR characters; returns TEXT."""
    assert isinstance(body, dict) and body.get("type") == "error", f"not an error message: {str(body)[:300]}"
    assert body.get("status") == status, f"error message says status {body.get('status')!r}, not {status}"
    assert set(body) <= {"type", "status", "error", "version"}, f"unexpected fields {sorted(body)}"
    text = body.get("error")
    assert isinstance(text, str) and text.strip(), f"no reason given: {body!r}"
    assert "\n" not in text and "\r" not in text, f"the reason is not one line: {text[:300]!r}"
    assert len(text) <= MAX_ERROR, f"{len(text)} characters: {text[:300]!r}"
    return text


def check_reply(status: int, text: str, head: bool = False) -> None:
    """Every HTTP reply: no server error and no traceback; a refusal (raised as Refused) is the JSON
    error line with the HTTP status (a HEAD reply has no body to check)."""
    assert status < 500, f"status {status}: {text[:300]!r}"
    assert "Traceback" not in text, f"a traceback in the reply: {text[:300]!r}"
    if status < 400:
        return
    if head:
        raise Refused(f"status {status}")
    try:
        body = json.loads(text)
    except ValueError:
        raise AssertionError(f"status {status} with a body that is not JSON: {text[:300]!r}") from None
    raise Refused(check_error(body, status))


def seeds_in(text: str, seeds: dict[str, str]) -> list[str]:
    """Returns the tables (of ``seeds``: table id -> seed as text) whose seed appears in ``text``."""
    shortest = min((len(seed) for seed in seeds.values()), default=1)
    runs = re.findall(rf"\d{{{shortest},}}", text)
    return [table for table, seed in seeds.items() if any(seed in run for run in runs)]


# --------------------------------------------------------------------- the server under test
@dataclass
class Table:
    """A table made for fuzzing: its id, its people's tokens by seat and the spectators' token."""

    id: str
    game: str
    players: int
    tokens: dict[int, str]
    spectator: str
    auto_pass: set[int] = field(default_factory=set)
    """Seats whose setting lets the server pass for them (an automatic pass may be under way)."""
    stood_in: bool = False
    """Whether a stand-in bot may have been put in (its seat is taken back after the connection)."""


TABLES: list[dict[str, Any]] = [
    {"game": "venture", "seats": ["human", "human", "random"]},
    {"game": "venture", "seats": ["human", "human"], "options": {"payment": "each"}},
    {"game": "im-the-boss", "seats": ["human", "human", "random", "human"], "options": {"length": "short"}},
    {"game": "im-the-boss", "seats": ["human", "human", "human"], "options": {"negotiation_limit": 3}},
    {"game": "venus-needs-men", "seats": ["human", "random", "human"], "options": {"length": "short"}},
    {"game": "venus-needs-men", "seats": ["human", "human"], "options": {"game": "enhanced"}},
]
"""The tables moves are fuzzed at (people with auto-pass off, so nothing moves unless asked to)."""

SPECS: list[dict[str, Any]] = [
    {
        "game": "venture",
        "seats": [{"kind": "human", "auto_pass": True}, {"kind": "bot", "bot": "random"}, {"kind": "human"}],
        "options": {"payment": "each", "proxy_placement": "alone", "max_turns": 60},
        "move_seconds": 60,
        "game_seconds": 900,
    },
    {
        "game": "im-the-boss",
        "seats": [{"kind": "human"}, {"kind": "human", "auto_pass": False}, {"kind": "bot", "bot": "random"}],
        "options": {"length": "short", "negotiation_limit": 4, "money": "public"},
        "move_seconds": None,
        "game_seconds": 1200.5,
    },
    {
        "game": "venus-needs-men",
        "seats": [{"kind": "human", "auto_pass": True}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
        "options": {"length": "short", "game": "enhanced", "infected": "healthy"},
        "move_seconds": 30,
    },
    {"game": "venture", "seats": [{"kind": "human"}, {"kind": "human"}]},
    {
        "game": "venus-needs-men",
        "seats": [{"kind": "human"}, {"kind": "human", "auto_pass": False}],
        "pace": "turn-based",
        "move_hours": 24,
        "window_hours": 2.5,
        "away_days": 3,
    },
]
"""Valid table requests, the seeds of the mutated ones."""


def _spec(table: dict[str, Any]) -> dict[str, Any]:
    """Returns the request for one of TABLES."""
    seats = [
        {"kind": "human", "auto_pass": False} if s == "human" else {"kind": "bot", "bot": s}
        for s in table["seats"]
    ]
    return {"game": table["game"], "seats": seats, "options": table.get("options", {})}


class Server:
    """The application on a fresh SQLite file, with the tables of TABLES and one finished table."""

    def __init__(self, folder: Path, account_limits: AccountLimits | None = None) -> None:
        """``account_limits``: the accounts' rate limits (None: the server's own)."""
        folder.mkdir(parents=True, exist_ok=True)
        self.db = folder / f"fuzz-{time.time_ns()}.db"
        # One test client is one address: its rate limit is lifted (tests/server/test_platform.py tests it).
        settings = Settings(
            f"sqlite:///{self.db}",
            bot_workers=0,
            timing=FAST,
            http_rate=1e9,
            http_burst=1e9,
            analysis_workers=0,
        )  # analyses are asked for and queued, never run: no judging processes under the fuzzer
        if account_limits is not None:
            settings.account_limits = account_limits
        app = create_app(settings)
        self.client = TestClient(app, follow_redirects=False)
        self.tables: list[Table] = []
        self.finished: Table | None = None
        self.finished_moves = 0
        self._sql: sqlite3.Connection | None = None
        self._seeds: dict[str, str] = {}
        """Every table's seed (as text) by id, read from the database as tables appear."""
        self._rowid = 0

    def __enter__(self) -> Server:
        self.client.__enter__()
        self._sql = sqlite3.connect(self.db, check_same_thread=False)
        self.tables = [self.create(_spec(t)) for t in TABLES]
        spec = {"game": "im-the-boss", "seats": [{"kind": "bot", "bot": "random"}] * 3}
        self.finished = self.create({**spec, "options": {"length": "short", "max_turns": 6}})
        self.finished_moves = self.settle(self.finished, seconds=60)["version"]
        return self

    def __exit__(self, *exc: object) -> None:
        if self._sql is not None:
            self._sql.close()
        self.client.__exit__(*exc)

    # ------------------------------------------------------------- reading the truth
    def sql(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        """Runs a query on the server's database file (as a separate reader)."""
        assert self._sql is not None
        return self._sql.execute(query, args).fetchall()

    def check_no_seed(self, text: str) -> None:
        """No unfinished table's seed appears in what the server sent."""
        for row, table, seed in self.sql("select rowid, id, seed from tables where rowid > ?", self._rowid):
            self._seeds[table], self._rowid = str(seed), max(self._rowid, row)
        for table in seeds_in(text, self._seeds):
            status = self.sql("select status from tables where id = ?", table)[0][0]
            assert status == "over", f"the seed of unfinished table {table} was sent"

    def moves(self, table: str) -> int:
        """Returns how many moves of a table are stored."""
        return int(self.sql("select count(*) from moves where table_id = ?", table)[0][0])

    def move(self, table: str, number: int) -> tuple[int, str] | None:
        """Returns the stored move ``number`` of a table (seat, action), if there is one."""
        found = self.sql("select seat, action from moves where table_id = ? and number = ?", table, number)
        return (int(found[0][0]), str(found[0][1])) if found else None

    def count(self) -> int:
        """Returns how many tables are stored."""
        return int(self.sql("select count(*) from tables")[0][0])

    # ------------------------------------------------------------- tables
    def create(self, spec: dict[str, Any]) -> Table:
        """Creates a table (a valid request); returns it with its tokens."""
        reply = self.client.post("/api/tables", json=spec)
        assert reply.status_code == 201, reply.text
        made = reply.json()
        tokens = {int(seat): link.split("#k=")[1] for seat, link in made["seats"].items()}
        humans = {n for n, s in enumerate(spec["seats"]) if s["kind"] == "human"}
        auto = {n for n in humans if spec["seats"][n].get("auto_pass", True)}
        spectator = made["spectator"].split("#k=")[1]
        return Table(made["table"], spec["game"], len(spec["seats"]), tokens, spectator, auto)

    def view(self, table: Table, token: str) -> dict[str, Any]:
        """Returns the table as a token's seat sees it."""
        reply = self.client.get(f"/api/tables/{table.id}", headers={"authorization": f"Bearer {token}"})
        assert reply.status_code == 200, reply.text
        self.check_no_seed(reply.text)
        found: dict[str, Any] = reply.json()
        return found

    def settle(self, table: Table, seconds: float = 10.0) -> dict[str, Any]:
        """Waits until nothing moves at the table by itself (people without stand-ins are asked, no
        automatic pass or clock is due, or the game is over); returns the spectators' view."""
        seen: dict[str, Any] = self.snapshot(table, seconds=seconds)["seen"]
        return seen

    def snapshot(self, table: Table, seats: Iterable[int] = (), seconds: float = 10.0) -> dict[str, Any]:
        """Returns, once the table has settled, what a refusal must leave as it was: the version, the
        stored moves and the views of the asked seats (and of ``seats``), all at that version."""
        end = time.monotonic() + seconds
        while True:
            seen = self.view(table, table.spectator)
            views = self._views(table, seen, seats) if seen["over"] or self._quiet(table, seen) else None
            moves = self.moves(table.id)
            # A move is stored before the table shows it: fewer stored than shown is a move lost.
            assert moves >= seen["version"], f"version {seen['version']} shown but {moves} moves stored"
            if views is not None and moves == seen["version"]:  # more: a move on its way (not settled)
                found = {"version": seen["version"], "over": seen["over"], "views": views}
                return {**found, "moves": moves, "seen": seen}
            assert time.monotonic() < end, (
                f"table {table.id} never settled: {seen['summary']}; seats {seen['seats']}; "
                f"auto-pass {sorted(table.auto_pass)}; clock {seen['clock']}"
            )
            time.sleep(0.005)

    def _quiet(self, table: Table, seen: dict[str, Any]) -> bool:
        """Returns whether the public view shows no bot, stand-in or clock about to move."""
        if seen["clock"]["deadline"] is not None:
            return False
        for seat in seen["deciders"]:
            public = seen["seats"][seat]
            if public["kind"] != "human" or public["stand_in"] is not None or seat not in table.tokens:
                return False
        return True

    def _views(self, table: Table, seen: dict[str, Any], seats: Iterable[int]) -> dict[int, Any] | None:
        """Returns the views of the asked seats and ``seats`` at the version of ``seen``; None if the
        table moved meanwhile or an automatic pass is due (a seat with auto-pass may only pass)."""
        views = {}
        for seat in sorted({*seen["deciders"], *seats}):
            if seat not in table.tokens:
                continue
            v = self.view(table, table.tokens[seat])
            if v["version"] != seen["version"] or (seat in table.auto_pass and v["answered_for_you"]):
                return None
            views[seat] = {k: v[k] for k in ("version", "deciders", "legal", "observation", "summary")}
            views[seat]["log"] = len(v["log"])
        return views

    def replace_if_over(self, index: int) -> None:
        """Puts a fresh table in place of a finished one (so moves can still be accepted)."""
        if self.settle(self.tables[index])["over"]:
            self.tables[index] = self.create(_spec(TABLES[index]))

    def take_back(self, table: Table) -> None:
        """Gives every seat a stand-in bot plays back to its person (each from its own socket)."""
        seen = self.view(table, table.spectator)
        for public in seen["seats"]:
            if public["stand_in"] is not None and public["seat"] in table.tokens:
                with self.client.websocket_connect(f"/ws/{table.id}") as ws:
                    ws.send_text(json.dumps({"type": "hello", "token": table.tokens[public["seat"]]}))
                    ws.send_text(json.dumps({"type": "stand_in", "seat": public["seat"], "bot": None}))
                    ws.send_text(json.dumps({"type": "ping"}))
                    while (answer := json.loads(ws.receive_text()))["type"] != "pong":
                        assert answer["type"] != "error", f"taking a seat back was refused: {answer}"
        table.stood_in = False
        time.sleep(LATE)


def _unchanged(before: dict[str, Any], after: dict[str, Any], what: str) -> None:
    """A refusal changed nothing at the table."""
    same = [key for key in ("version", "over", "moves", "views") if before[key] == after[key]]
    assert len(same) == 4, f"refusing {what} changed the table: {_difference(before, after)}"


def _difference(before: dict[str, Any], after: dict[str, Any]) -> str:
    """Returns the first field that differs between two snapshots."""
    for key in ("version", "over", "moves"):
        if before[key] != after[key]:
            return f"{key} {before[key]!r} -> {after[key]!r}"
    for seat, view in before["views"].items():
        for key, value in view.items():
            if after["views"].get(seat, {}).get(key) != value:
                return f"seat {seat}'s {key}"
    return "the asked seats"


# --------------------------------------------------------------------- HTTP
@dataclass
class Request:
    """One HTTP request to send."""

    method: str
    path: str
    body: bytes | None = None
    headers: dict[str, bytes] = field(default_factory=dict)
    note: str = ""

    def describe(self) -> str:
        """Returns a short description of the request for a failure report."""
        body = (self.body or b"")[:300]
        return f"{self.method} {self.path[:200]} {self.note} headers={self.headers!r:.200} body={body!r}"


def send(server: Server, request: Request, watched: set[str]) -> tuple[int, str]:
    """Sends a request with no file named inside it opened; checks the reply carries no unfinished
    table's seed; returns its status and text."""
    with no_file_named(watched):
        reply = server.client.request(
            request.method, request.path, content=request.body, headers=request.headers
        )
    server.check_no_seed(reply.text)
    return reply.status_code, reply.text


def deep_text(depth: int, opening: str = "[", closing: str = "]") -> str:
    """Returns JSON text nested ``depth`` levels (written out: too deep for ``json.dumps``)."""
    return opening * depth + closing * depth


def _token_header(rng: random.Random, token: str, others: list[str]) -> tuple[dict[str, bytes], bool]:
    """Returns an Authorization header for a token, often bent; and whether it is left intact."""
    roll = rng.random()
    if roll < 0.6:
        return {"authorization": f"Bearer {token}".encode()}, True
    if roll < 0.65:
        return {"authorization": f"bearer {token}".encode()}, True
    choices: list[bytes | None] = [
        None,
        b"",
        b"Bearer",
        b"Bearer ",
        f"Bearer  {token}".encode(),
        f"Basic {token}".encode(),
        token.encode(),
        f"Bearer {mutate_text(token, rng)}".encode("utf-8", "replace")[:9000].replace(b"\n", b" "),
        f"Bearer {rng.choice(others)}".encode(),
        b"Bearer " + b"x" * rng.choice([99, 100, 101, 8000]),
        "Bearer é".encode(),
        f"Bearer {token}\t".encode(),
        f"Bearer {rng.choice(PATHS)}".encode(),
        b"Bearer " + token.encode()[:10] + rng.choice(INVALID_UTF8) + token.encode()[10:],
        "Bearer \ud800".encode("utf-8", "surrogatepass"),
    ]
    chosen = rng.choice(choices)
    return ({} if chosen is None else {"authorization": chosen}), False


def _bent_id(rng: random.Random, table_id: str, others: list[str]) -> str:
    """Returns a table id for a URL: the real one, another, or one bent out of shape (URL-quoted)."""
    roll = rng.random()
    if roll < 0.7:
        return table_id
    if roll < 0.75:
        return rng.choice(others)
    bent = rng.choice(
        [mutate_text(table_id, rng), table_id.upper(), table_id[:-1], table_id + "x", rng.choice(NASTY_TEXT)]
    )
    return quote(bent[:3000], safe="") or "x"


def _body(rng: random.Random, data: Any) -> bytes:
    """Returns a request body: ``data`` as JSON, or mostly not (bytes, too deep, too big)."""
    roll = rng.random()
    if roll < 0.85:
        return json.dumps(data, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    return rng.choice(
        [
            b"",
            b"{",
            b"\xff\xfe{}",
            b"null",
            b"NaN",
            b"[1, 2]",
            b'{"a": 1e999}',
            deep_text(8000).encode(),
            deep_text(3000, '{"a": ', "}").encode(),
            b" " * (MAX_BODY - 2) + b"{}",
            b'{"x": "' + b"y" * (MAX_BODY + 10) + b'"}',
            json.dumps(data).encode() + b" " * MAX_BODY,
            json.dumps([data] * 40).encode()[: MAX_BODY + 1],
            bytes(rng.randrange(256) for _ in range(64)),
        ]
    )


def _search_bots(rng: random.Random, base: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Returns a valid table request with search bots (random budgets and settings) in its bot seats,
    and whether the server must take it."""
    seats, valid = [], True
    for seat in base["seats"]:
        if seat["kind"] == "bot":
            name, ok = search_bot(rng, slow=False)
            seat, valid = {"kind": "bot", "bot": name}, valid and ok
        seats.append(seat)
    return {**base, "seats": seats}, valid


def _http_create(server: Server, rng: random.Random) -> tuple[Request, Callable[[], bool]]:
    """A mutated table request: created (a usable table, one more stored) or refused (none stored);
    search bots taken exactly when valid; invalid Unicode in any string refused with 400."""
    base = rng.choice(SPECS)
    data: Any = mutate(base, rng, len(base["seats"])) if rng.random() < 0.85 else base
    expected: bool | None = None
    """Whether the server must take the request (None: either may be right)."""
    if rng.random() < 0.1:  # an option that names a file: never read
        options = {**base.get("options", {}), rng.choice(["deck", "content", "zap"]): rng.choice(PATHS)}
        data = {**base, "options": options}
    content = _body(rng, data)
    if rng.random() < 0.15:
        data, expected = _search_bots(rng, base)
        content = json.dumps(data).encode()
    if rng.random() < 0.15:
        spoiled = spoil_strings(data, rng)
        data, content = spoiled.value, spoiled.encode(rng.random() < 0.5)
        expected = False if spoiled.invalid else None
    request = Request("POST", "/api/tables", content, {"content-type": b"application/json"})
    watched = strings_in(data)

    def body() -> bool:
        before = server.count()
        status, text = send(server, request, watched)
        try:
            check_reply(status, text)
        except Refused as refusal:
            assert server.count() == before, "a refused table request stored a table"
            assert expected is not True, f"a valid table request was refused: {refusal}"
            assert expected is not False or status == 400, f"refused with {status}, not 400"
            raise
        assert expected is not False, f"a request the server must refuse was taken ({status})"
        assert status == 201, f"status {status} for a table request"
        made = json.loads(text)
        assert server.count() == before + 1, "a created table was not stored"
        spectator = made["spectator"].split("#k=")[1]
        table = Table(made["table"], "?", 0, {}, spectator)
        assert server.view(table, spectator)["table"] == made["table"]
        return True

    return request, body


def _http_view(server: Server, rng: random.Random) -> tuple[Request, Callable[[], bool]]:
    """A view asked with a bent id or token: the seat's view (that seat's) or a refusal."""
    table = rng.choice(server.tables)
    seats = [*table.tokens.items(), (None, table.spectator)]
    seat, token = rng.choice(seats)
    others = [t for other in server.tables if other is not table for t in other.tokens.values()]
    headers, intact = _token_header(rng, token, others)
    table_id = _bent_id(rng, table.id, [t.id for t in server.tables])
    request = Request("GET", f"/api/tables/{table_id}", None, headers, f"seat {seat}")

    def body() -> bool:
        status, text = send(server, request, strings_in([table_id, headers]))
        check_reply(status, text)
        seen = json.loads(text)
        if intact and table_id == table.id:
            assert seen["seat"] == seat, f"the token of seat {seat} opened seat {seen['seat']}"
        return True

    return request, body


def _action_body(rng: random.Random, legal: list[str], version: int) -> Any:
    """Returns an action request body: a legal action at the version, often bent."""
    text = rng.choice(legal) if legal else rng.choice(("pass", "end", "take X"))
    data: dict[str, Any] = {"action": text, "version": version}
    roll = rng.random()
    if roll < 0.35:
        data["action"] = mutate_text(text, rng)
    elif roll < 0.55:
        return mutate(data, rng)
    elif roll < 0.65:
        data["version"] = rng.choice([version - 1, version + 1, -1, None, "0", True, 1.0, 2**70, []])
    elif roll < 0.7:
        del data["version"]
    elif roll < 0.75:
        data["action"] = rng.choice([None, 5, [text], {"a": text}, "", text * 30, "x" * 201])
    return data


def _http_act(server: Server, rng: random.Random) -> tuple[Request, Callable[[], bool]]:
    """A bent move: accepted (one version on, stored, legal) or refused with the table unchanged."""
    index = rng.randrange(len(server.tables))
    server.replace_if_over(index)
    table = server.tables[index]
    before = server.snapshot(table)
    deciders = [s for s in before["views"] if before["views"][s]["legal"]]
    mover = rng.choice(deciders) if deciders else rng.choice(list(table.tokens))
    seats = [*table.tokens.items(), (None, table.spectator)]
    seat, token = (mover, table.tokens[mover]) if rng.random() < 0.8 else rng.choice(seats)
    legal = before["views"].get(mover, {}).get("legal", [])
    data = _action_body(rng, legal, before["version"])
    others = [t for other in server.tables if other is not table for t in other.tokens.values()]
    headers, intact = {"authorization": f"Bearer {token}".encode()}, True
    if rng.random() < 0.3:
        headers, intact = _token_header(rng, token, others)
    table_id = _bent_id(rng, table.id, [t.id for t in server.tables]) if rng.random() < 0.2 else table.id
    content = _body(rng, data) if rng.random() < 0.3 else json.dumps(data).encode()
    spoiled: Spoiled | None = None
    if rng.random() < 0.1:
        spoiled = spoil_strings(data, rng)
        data, content = spoiled.value, spoiled.encode(rng.random() < 0.5)
    request = Request("POST", f"/api/tables/{table_id}/actions", content, headers, f"seat {seat}")

    def body() -> bool:
        status, text = send(server, request, strings_in([data, table_id]))
        try:
            check_reply(status, text)
        except Refused:
            _unchanged(before, server.snapshot(table, set(before["views"])), request.describe()[:100])
            if spoiled is not None and spoiled.invalid and intact and table_id == table.id:
                assert status == 400, f"{spoiled.where} refused with {status}, not 400"
            raise
        assert spoiled is None or not spoiled.invalid, f"a move with {spoiled.where} was taken"
        assert status == 200, f"status {status} for a move"
        version = before["version"] + 1
        assert json.loads(text) == {"version": version}, f"accepted as {text[:100]}, not version {version}"
        _check_stored(server, table, before, seat, version)
        return True

    return request, body


def _check_stored(server: Server, table: Table, before: dict[str, Any], seat: Any, version: int) -> None:
    """An accepted move is stored as move ``version``, made by its seat, and was legal for that seat."""
    stored = server.move(table.id, version)
    assert stored is not None, f"accepted move {version} is not stored"
    assert stored[0] == seat, f"move {version} stored for seat {stored[0]}, sent by seat {seat}"
    legal = before["views"].get(seat, {}).get("legal", [])
    assert stored[1] in legal, f"{stored[1]!r} was accepted though seat {seat} could not play it"


def _http_finished(server: Server, rng: random.Random) -> tuple[Request, Callable[[], bool]]:
    """The record or a replay step of a table (finished or not), asked with bent query parameters."""
    assert server.finished is not None
    table = server.finished if rng.random() < 0.7 else rng.choice(server.tables)
    table_id = _bent_id(rng, table.id, [t.id for t in server.tables]) if rng.random() < 0.2 else table.id
    if rng.random() < 0.3:
        path = f"/api/tables/{table_id}/record"
    else:
        step = str(rng.randrange(server.finished_moves + 2))
        values = [step, step, step, "0", "999", "-1", "", "1.5", "١", "0x1", "9" * 40, "all", "x", " 1"]
        query = []
        for name, extra in (("at", ["all"]), ("seat", ["0", "1", "2", "3", "all", ""])):
            if rng.random() < 0.7:
                value = rng.choice([*values, *extra])
                value = mutate_text(value, rng) if rng.random() < 0.2 else value
                query.append(f"{name}={quote(value[:2000], safe='')}")
        if rng.random() < 0.1:
            query.append(rng.choice(["at=1&at=2", "seat", "=", "&&", "at"]))
        path = f"/api/tables/{table_id}/replay" + ("?" + "&".join(query) if query else "")
    request = Request(rng.choice(["GET", "GET", "GET", "POST", "HEAD"]), path)

    def body() -> bool:
        status, text = send(server, request, {table_id})
        check_reply(status, text, head=request.method == "HEAD")
        return True

    return request, body


ANALYSIS_BODIES = (
    b"",
    b"{}",
    b'{"view": "seat"}',
    b'{"view": "hindsight"}',
    b'{"view": "all"}',
    b'{"view": null}',
    b'{"view": "seat", "seat": 0}',
    b"[]",
    b"null",
    b'"seat"',
    b"{",
    deep_text(5000, '{"view":', "}").encode()[:16000],
)
ANALYSIS_SHAPE = {"view", "status", "judged", "total", "ahead", "error", "analysis"}


def _http_analysis(server: Server, rng: random.Random) -> tuple[Request, Callable[[], bool]]:
    """A table's analysis (finished or not) asked for or asked about with bent bodies and queries:
    answered in its shape or refused in one line (a game in play: 409)."""
    assert server.finished is not None
    table = server.finished if rng.random() < 0.7 else rng.choice(server.tables)
    table_id = _bent_id(rng, table.id, [t.id for t in server.tables]) if rng.random() < 0.2 else table.id
    path = f"/api/tables/{table_id}/analysis"
    if rng.random() < 0.5:
        content = rng.choice(ANALYSIS_BODIES)
        if rng.random() < 0.2:
            content = mutate_text(content.decode(), rng).encode("utf-8", "surrogatepass")
        request = Request("POST", path, content)
    else:
        query = rng.choice(
            ["", "view=seat", "view=hindsight", "view=", "view=all", "seat=0", "view=seat&view=seat"]
        )
        if rng.random() < 0.2:
            query = quote(mutate_text(query, rng)[:2000], safe="=&")
        request = Request(rng.choice(["GET", "GET", "HEAD"]), path + ("?" + query if query else ""))

    def body() -> bool:
        status, text = send(server, request, {table_id})
        check_reply(status, text, head=request.method == "HEAD")
        if request.method != "HEAD":
            assert set(json.loads(text)) == ANALYSIS_SHAPE, (
                f"an analysis's status out of shape: {text[:300]!r}"
            )
        return True

    return request, body


ODD_PATHS = (
    "/",
    "/t/x",
    "/t/" + "é" * 10,
    "/api",
    "/api/",
    "/api/games",
    "/api/games/venture",
    "/api/tables/",
    "/api/tables/x/y/z",
    "/api/tables//actions",
    "/ws/x",
    "/static/table.js",
    "/static/",
    "/static/../app.py",
    "/static/%2e%2e/app.py",
    "/static/..%2fapp.py",
    "/static//etc/passwd",
    "/static/" + "x" * 3000,
    "/%00",
    "/favicon.ico",
    "/api/tables?limit=-1",
)


def _http_odd(server: Server, rng: random.Random) -> tuple[Request, Callable[[], bool]]:
    """An unknown path, or a known one with the wrong method."""
    path = rng.choice(ODD_PATHS)
    if rng.random() < 0.3:
        path = "/" + quote(mutate_text(path, rng)[:2000].lstrip("/"), safe="/%?=&")
    table = rng.choice(server.tables)
    if rng.random() < 0.3:
        path = rng.choice([f"/api/tables/{table.id}", f"/api/tables/{table.id}/actions", f"/t/{table.id}"])
    method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])
    body = rng.choice([None, b"{}", b"x" * 100])
    request = Request(method, path, body if method not in ("GET", "HEAD") else None)

    def check() -> bool:
        named = path.partition("?")[0].removeprefix("/static/")
        status, text = send(server, request, {path, named, "/" + named, *path.split("/")})
        check_reply(status, text, head=method == "HEAD")
        return True

    return request, check


LEARN_GAMES = (
    "venture",
    "venture",
    "venture",
    "im-the-boss",
    "embers",
    "chess",
    "",
    "VENTURE",
    "venture/table",
)
ANSWERS = {"moved", "wanted", "illegal", "unreadable"}


def _learn_body(rng: random.Random, steps: list[int]) -> Any:
    """Returns a tutorial request: a real place in the tutorial (a path or a step), an action tried
    there (often bent), hints and content asked for; often mutated."""
    done = rng.randrange(len(steps) + 1)
    data: dict[str, Any] = {}
    if rng.random() < 0.7:
        data["path"] = [rng.randrange(n) for n in steps[:done]]
    else:
        data["step"] = done + 1
    if rng.random() < 0.7:
        data["try"] = rng.choice(["take RR-CD", "end", "done", "pay 12", "discard 1t", "reorganise", "pass"])
        if rng.random() < 0.4:
            data["try"] = mutate_text(data["try"], rng)
    for key in ("hint", "content"):
        if rng.random() < 0.2:
            data[key] = rng.random() < 0.8
    roll = rng.random()
    if roll < 0.3:
        return mutate(data, rng)
    if roll < 0.4:
        return {
            **data,
            rng.choice(["path", "step", "try"]): rng.choice(
                [None, -1, 0, 2**70, 1.5, True, "1", [], [0] * 200, [[0]], {"a": 1}, "x" * 300]
            ),
        }
    return data


def _http_learn(server: Server, rng: random.Random) -> tuple[Request, Callable[[], bool]]:
    """The tutorials' surface: a bent tutorial request (answered with the step, the path as sent or one
    step on, or refused in one line), the glossary of a bent game, the closing game's table asked with a
    body, hints asked at a table of people (refused) with bent tokens."""
    from parlour.tutorials.engine import shipped_script

    steps = [len(step.intended) for step in shipped_script("venture").steps]
    roll = rng.random()
    game = rng.choice(LEARN_GAMES)
    if rng.random() < 0.1:
        game = quote(mutate_text(game, rng)[:2000], safe="")
    if roll < 0.7:
        data = _learn_body(rng, steps)
        content = _body(rng, data)
        spoiled: Spoiled | None = None
        if rng.random() < 0.1 and isinstance(data, dict):
            spoiled = spoil_strings(data, rng)
            data, content = spoiled.value, spoiled.encode(rng.random() < 0.5)
        request = Request("POST", f"/api/learn/{game}", content, {"content-type": b"application/json"})
    elif roll < 0.8:
        spoiled = None
        request = Request(rng.choice(["GET", "GET", "POST", "HEAD"]), f"/api/games/{game}/glossary")
    elif roll < 0.9:
        spoiled = None
        request = Request(
            "POST", f"/api/learn/{game}/table", rng.choice([b"{}", b'{"seats": 3}', b"[", b"x" * 100])
        )
    else:
        spoiled = None
        table = rng.choice(server.tables)
        token = rng.choice(list(table.tokens.values()))
        others = [t for other in server.tables if other is not table for t in other.tokens.values()]
        headers, _ = _token_header(rng, token, others)
        request = Request(
            "POST",
            f"/api/tables/{_bent_id(rng, table.id, [t.id for t in server.tables])}/hints",
            None,
            headers,
        )

    def body() -> bool:
        status, text = send(server, request, strings_in([game, request.path]))
        check_reply(status, text, head=request.method == "HEAD")
        assert not request.path.endswith("/hints"), "hints given at a table of people"
        if spoiled is not None and status == 200:  # (a redirect of /api/learn/ reads no body)
            assert not spoiled.invalid, f"a tutorial request with {spoiled.where} was answered"
        if request.path.startswith("/api/learn/") and request.method == "POST" and status == 200:
            reply = json.loads(text)
            assert "intended" not in reply["step"], "the step's intended action was sent"
            if "answer" in reply:
                assert reply["answer"]["answer"] in ANSWERS, reply["answer"]
                grew = 1 if reply["answer"]["answer"] == "moved" else 0
                sent = json.loads(request.body or b"{}")
                before = sent.get("path", [0] * (sent.get("step", 1) - 1))
                assert (
                    reply["path"] == [*before, *reply["path"][len(before) :]]
                    and len(reply["path"]) == len(before) + grew
                )
        return True

    return request, body


KINDS: list[tuple[Callable[[Server, random.Random], tuple[Request, Callable[[], bool]]], float]] = [
    (_http_create, 3),
    (_http_view, 1.5),
    (_http_act, 3.5),
    (_http_finished, 1),
    (_http_odd, 1),
    (_http_learn, 1.5),
    (_http_analysis, 1),
]


def fuzz_http(tally: Tally, server: Server, rng: random.Random, count: int) -> None:
    """Sends ``count`` mutated HTTP requests, each held to the promises above."""
    makers, weights = zip(*KINDS, strict=True)
    for _ in range(count):
        maker = rng.choices(makers, weights)[0]

        def prepare(maker: Any = maker) -> tuple[str, Callable[[], bool]]:
            request, body = maker(server, rng)
            return request.describe(), body

        run_prepared(tally, "http", prepare)


def run_prepared(tally: Tally, surface: str, prepare: Callable[[], tuple[str, Callable[[], bool]]]) -> None:
    """Prepares an input and runs it under the guards; a broken promise met while preparing (a view
    refused, a table that never settles) counts against the input."""
    try:
        describe, body = prepare()
    except Exception as err:  # the server broke a promise before the input was even sent

        def body(err: Exception = err) -> bool:
            raise err

        describe = "preparing the next input"
    tally.run(surface, describe, body)


# --------------------------------------------------------------------- WebSockets
class Socket:
    """One WebSocket connection of the test client, read message by message."""

    def __init__(self, server: Server, path: str, stack: contextlib.ExitStack) -> None:
        self.server = server
        self.ws = stack.enter_context(server.client.websocket_connect(path))
        self.closed: int | None = None
        self.spent = False
        """Whether the server refused a message for the rate (this connection is then left)."""

    def send(self, data: str | bytes) -> None:
        """Sends a text (or binary) frame."""
        if isinstance(data, bytes):
            self.ws.send_bytes(data)
        else:
            self.ws.send_text(data)

    def receive(self) -> dict[str, Any] | None:
        """Returns the next message (checked for seeds), or None once the server closed (its code kept)."""
        message = self.ws.receive()
        if message["type"] == "websocket.close":
            self.closed = int(message.get("code", 1000))
            return None
        text = message.get("text")
        assert isinstance(text, str), f"a frame that is not text: {str(message)[:200]}"
        self.server.check_no_seed(text)
        found = json.loads(text)
        assert isinstance(found, dict) and isinstance(found.get("type"), str), f"not a message: {text[:200]}"
        return found

    def until_pong(self, pongs: int = 1) -> list[dict[str, Any]]:
        """Sends a ping; returns every message received before its pong (and ``pongs - 1`` earlier
        ones): the server handles a connection's messages in order, so all their answers came first."""
        self.send(json.dumps({"type": "ping"}))
        found: list[dict[str, Any]] = []
        while (message := self.receive()) is not None:
            if message["type"] == "pong":
                pongs -= 1
                if pongs == 0:
                    return found
                continue
            found.append(message)
            if message["type"] == "error" and message.get("status") == 429:
                self.spent = True  # the ping may have been refused too: this connection is done
                return found
        raise AssertionError(f"the server closed the connection (code {self.closed}) after a bad message")


TAKEN, REFUSED_400, EITHER = "taken", "refused with 400", "either"
"""What a message must get: taken, refused with 400 (invalid Unicode, a bot name out of range), or
whichever the server finds right."""


def _hello(rng: random.Random, server: Server, table: Table, token: str) -> tuple[str | bytes, str]:
    """Returns a hello (often bent) and what it must get (TAKEN for the valid one)."""
    valid = {"type": "hello", "token": token}
    if rng.random() < 0.8:
        return json.dumps(valid), TAKEN
    if rng.random() < 0.2:
        spoiled = spoil_strings(valid, rng, raw=False)  # a text frame carries no raw bytes here
        text = json.dumps(spoiled.value, ensure_ascii=rng.random() < 0.5)
        return text, REFUSED_400 if spoiled.invalid else EITHER
    others = [t for other in server.tables if other is not table for t in other.tokens.values()]
    choices: list[Any] = [
        mutate(valid, rng),
        {"type": "hello", "token": mutate_text(token, rng)},
        {"type": "hello", "token": rng.choice(others)},
        {"type": "hello", "token": rng.choice([None, 5, [token], {"t": token}, "", "x" * 101])},
        {"type": "act", "action": "pass", "token": token},
        {  # an account's hello (no session here: refused, whatever it holds)
            "type": "hello",
            "account": rng.choice([True, 1, "yes", None, False, {"a": 1}]),
            **rng.choice([{}, {"seat": rng.choice([0, -1, "0", True, 10**12, None])}, {"token": token}]),
        },
        [valid],
        "hello",
    ]
    chosen = rng.choice(choices)
    text = json.dumps(chosen) if rng.random() < 0.9 else rng.choice(["{", "", "x" * (MAX_BODY + 1)])
    if BINARY_FRAMES and rng.random() < 0.05:
        return text.encode(), EITHER
    return text, EITHER


def _message(
    rng: random.Random, view: dict[str, Any], players: int, seat: int | None = None
) -> tuple[str | bytes, Any, str]:
    """Returns a bent client message (as sent), the JSON value it holds (None if not JSON) and what it
    must get: invalid Unicode in any string refused with 400, a search bot for the sender's own seat
    taken exactly when valid, anything else EITHER."""
    legal = view["legal"] or ["pass"]
    bases: list[dict[str, Any]] = [
        {"type": "act", "action": rng.choice(legal), "version": view["version"]},
        {"type": "act", "action": rng.choice(legal), "version": view["version"]},
        {"type": "act", "action": rng.choice(legal)},
        {"type": "chat", "text": rng.choice(["good luck", "é [b]x[/b]", "x" * 300, "\x07hi"])},
        {"type": "auto_pass", "on": rng.random() < 0.5},
        {
            "type": "ask",
            "mode": rng.choice(["always", "playable", "only", "never", "sometimes"]),
            "cards": rng.choice([None, [], ["Jamming"], ["Deflector Shield", "Stop"], ["x" * 70], "Jamming"]),
        },
        {"type": "stand_in", "seat": rng.randrange(players), "bot": rng.choice(["random", None])},
        {"type": "ping"},
        {"type": rng.choice(["hello", "dance", "", "ACT", "pong", "table", "error"])},
    ]
    data: Any = rng.choice(bases)
    roll = rng.random()
    if roll < 0.05 and seat is not None:  # the seat's own stand-in: a search bot in or out of range
        name, valid = search_bot(rng, slow=False)
        data = {"type": "stand_in", "seat": seat, "bot": name}
        return json.dumps(data), data, TAKEN if valid else REFUSED_400
    if roll < 0.12:
        spoiled = spoil_strings(data, rng, raw=False)
        sent = json.dumps(spoiled.value, ensure_ascii=rng.random() < 0.5)
        return sent, spoiled.value, REFUSED_400 if spoiled.invalid else EITHER
    if roll < 0.3 and data["type"] in ("act", "chat"):
        key = "action" if data["type"] == "act" else "text"
        data[key] = mutate_text(data[key], rng)
    elif roll < 0.6:
        data = mutate(data, rng, players)
    elif roll < 0.7:
        text = rng.choice(["{", "[]", "null", '"act"', "x" * (MAX_BODY + 1), deep_text(6000), "", "\x00"])
        if BINARY_FRAMES and rng.random() < 0.3:
            return text.encode(), None, EITHER
        return text, None, EITHER
    return json.dumps(data, ensure_ascii=rng.random() < 0.5), data, EITHER


def fuzz_ws(tally: Tally, server: Server, rng: random.Random, count: int) -> None:
    """Sends ``count`` mutated socket messages (and a hello, often bent, on each new connection)."""
    sent = 0
    while sent < count:
        index = rng.randrange(len(server.tables))
        with contextlib.ExitStack() as stack:
            opened = _connect(tally, server, index, rng, stack)
            sent += 1
            if opened is None:
                continue
            socket, seat = opened
            for _ in range(min(rng.randint(4, PER_CONNECTION), count - sent)):
                sent += 1
                broken = tally.broken
                _one_message(tally, server, server.tables[index], socket, seat, rng)
                table = server.tables[index]
                if tally.broken > broken or socket.closed is not None or socket.spent or table.stood_in:
                    break
        if server.tables[index].stood_in:
            server.take_back(server.tables[index])


def _connect(
    tally: Tally, server: Server, index: int, rng: random.Random, stack: contextlib.ExitStack
) -> tuple[Socket, int | None] | None:
    """Opens a connection to a table and says hello (often bent); returns the socket and its seat once
    accepted, None if the hello was refused (the server then closed with 4000 + the status)."""
    opened: list[tuple[Socket, int | None]] = []

    def prepare() -> tuple[str, Callable[[], bool]]:
        server.replace_if_over(index)
        table = server.tables[index]
        seen = server.settle(table)
        asked = [s for s in seen["deciders"] if s in table.tokens]
        seats: list[tuple[int | None, str]] = [*table.tokens.items(), (None, table.spectator)]
        seat, token = rng.choice(seats)
        if asked and rng.random() < 0.7:
            seat, token = asked[0], table.tokens[asked[0]]
        table_id = table.id if rng.random() < 0.9 else _bent_id(rng, table.id, [t.id for t in server.tables])
        hello, verdict = _hello(rng, server, table, token)
        if table_id != table.id:  # no such table: refused before the hello is read
            verdict = EITHER
        valid = verdict == TAKEN

        def body() -> bool:
            watched = {table_id, hello} if isinstance(hello, str) else {table_id}
            with no_file_named(watched):
                try:
                    socket = Socket(server, f"/ws/{table_id}", stack)
                except WebSocketDisconnect as shut:
                    # Only a path that is not /ws/TABLE (an id with a slash) is refused at the handshake.
                    assert "%2F" in table_id, f"the handshake was refused with code {shut.code}"
                    raise Refused(f"no WebSocket route: closed with code {shut.code}") from None
                socket.send(hello)
                first = socket.receive()
            assert first is not None, f"the server closed (code {socket.closed}) without a word"
            if first["type"] == "error":
                status = first.get("status")
                text = check_error(first, status if isinstance(status, int) else -1)
                assert not valid, f"a valid hello was refused: {text}"
                assert verdict != REFUSED_400 or status == 400, f"invalid Unicode refused with {status}"
                closed = socket.receive() is None and socket.closed
                assert closed == 4000 + first["status"], f"a refused hello, then close code {socket.closed}"
                raise Refused(text)
            assert first["type"] == "table", f"the answer to a hello is a {first['type']!r}"
            assert verdict != REFUSED_400, "a hello with invalid Unicode was taken"
            assert not valid or first["seat"] == seat, f"seat {seat}'s token opened seat {first['seat']}"
            opened.append((socket, first["seat"]))
            return True

        return f"hello {str(hello)[:300]} at /ws/{table_id[:100]} as seat {seat}", body

    run_prepared(tally, "ws", prepare)
    return opened[0] if opened else None


def _one_message(
    tally: Tally, server: Server, table: Table, socket: Socket, seat: int | None, rng: random.Random
) -> None:
    """Sends one bent message after a good hello: refused (one error, the table unchanged) or done."""

    def prepare() -> tuple[str, Callable[[], bool]]:
        before = server.snapshot(table, [seat] if seat is not None else [])
        view = before["views"].get(seat, {"legal": [], "version": before["version"]})
        sent, data, verdict = _message(rng, view, table.players, seat)
        kind = data.get("type") if isinstance(data, dict) else None

        def body() -> bool:
            with no_file_named(strings_in(data) if data is not None else {str(sent)}):
                socket.send(sent)
                answers = socket.until_pong(2 if kind == "ping" else 1)
            errors = [m for m in answers if m["type"] == "error"]
            for error in errors:
                check_error(error, error["status"] if isinstance(error.get("status"), int) else -1)
            if errors:
                assert len(errors) == 1, f"{len(errors)} errors for one message"
                _unchanged(before, server.snapshot(table, before["views"]), str(sent)[:100])
                status = errors[0]["status"]
                assert verdict != TAKEN or status == 429, f"refused with {status}: {errors[0]['error']}"
                assert verdict != REFUSED_400 or status in (400, 429), f"refused with {status}, not 400"
                raise Refused(errors[0]["error"])
            assert verdict != REFUSED_400, "a message the server must refuse was taken"
            _check_done(server, table, before, seat, data, answers)
            return True

        return f"seat {seat} at {table.game}: {str(sent)[:300]}", body

    run_prepared(tally, "ws", prepare)


def _check_done(
    server: Server, table: Table, before: dict[str, Any], seat: int | None, data: Any, answers: list[Any]
) -> None:
    """A message the server took did what it asks: a move stored (and said so), a chat line heard."""
    kind = data.get("type") if isinstance(data, dict) else None
    assert kind in ("act", "chat", "auto_pass", "ask", "stand_in", "ping"), f"{kind!r} taken without an error"
    if kind == "act":
        version = before["version"] + 1
        assert {"type": "accepted", "version": version} in answers, f"no 'accepted' of version {version}"
        _check_stored(server, table, before, seat, version)
    elif kind == "chat":
        assert any(m["type"] == "chat" and m["seat"] == seat for m in answers), "a chat line nobody heard"
    elif kind in ("auto_pass", "ask") and seat is not None:
        passes = data["on"] if kind == "auto_pass" else data["mode"] != "always"
        (table.auto_pass.add if passes else table.auto_pass.discard)(seat)
        time.sleep(LATE)
    elif kind == "stand_in":
        table.stood_in = table.stood_in or data.get("bot") is not None
        time.sleep(LATE)
