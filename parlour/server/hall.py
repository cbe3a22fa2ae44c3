"""The hall: creates tables from a request, finds them, checks tokens, and resumes them after a restart."""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from parlour.core.errors import ParlourError
from parlour.core.game import Game
from parlour.core.registry import game_names, load_game
from parlour.server.accepting import answer
from parlour.server.asking import AskError, AskMe, check_ask, slow_modes_only
from parlour.server.botaccounts.seating import BOT_SEAT, BOT_SECONDS, bot_seat, is_bot_seat, seat_bots
from parlour.server.clock import Clock
from parlour.server.leases import LEASE, MARGIN
from parlour.server.rematch import (
    DECLINED,
    EXPIRES,
    WAITING,
    rematch_json,
    stored_rematch,
    waiting_for,
    waiting_text,
)
from parlour.server.storage import SeatRecord, Stale, Store, TableRecord
from parlour.server.tables import (
    LiveTable,
    Refusal,
    Relay,
    Timing,
    check_bot,
    check_name,
    hash_token,
    new_token,
)

MAX_PLAYING = 2000
"""Live games in play at once in memory (one server's memory and bot pool); a new live table beyond it
is refused (503). Turn-based tables, idle most of the time, count towards MAX_TURN_BASED instead."""
MAX_TURN_BASED = 20_000
"""Turn-based games in play (or rematches waiting) at once in memory; a new one beyond it is refused
(503). A restart resumes at most MAX_PLAYING of them (the newest): the others are read back when
opened or due, and "My games" reads who is asked at them from storage (``tables.asked``)."""
KEPT_FINISHED = 200
"""Finished tables nobody watches kept in memory (others are read back from storage when asked)."""
MAX_SECONDS = 86_400.0
"""The longest clock a table may set (a day), per decision or per game."""
TABLE_ID_BYTES = 9
IDLE_COPY_SECONDS = 60.0
"""How long a cluster node keeps a copy of another node's table that nobody here watches and that
moved on since (a later request reads it again): longer than a connection's hello takes."""
TAKE_OVER_TRIES = 5
"""How often a takeover reads the table again when another node wrote it meanwhile."""
Forward = Callable[[str, int, str, dict[str, Any]], Awaitable[int | None]]
"""How a cluster's node hands a seat's order to the node owning the table (cluster.py): the table,
the seat, the order's kind and message; returns what the owner's ``orders.carry_out`` returned."""


@dataclass
class Created:
    """A new table: its id, each human seat's token and the spectators' token (shown once, never stored)."""

    table: str
    tokens: dict[int, str]
    spectator: str | None
    """None: the table was made without a spectators' link."""


class Hall:
    """Every table the server knows, in memory once touched; storage holds the truth."""

    def __init__(
        self, store: Store, pool: Executor, timing: Timing | None = None, clock: Clock | None = None
    ) -> None:
        self.store, self.pool, self.timing = store, pool, timing or Timing()
        self.clock = clock or Clock()
        """The server's time (clock.py), shared by every table and the scheduler."""
        self.tables: dict[str, LiveTable] = {}
        self.again_lock = asyncio.Lock()
        """One "play again" at a time: a second request finds the table the first made."""
        self.node: str | None = None
        """This node's id in a cluster (cluster.py; None: a single server, which owns every table)."""
        self.owned: set[str] = set()
        """The tables whose lease this node of a cluster holds (leases.py)."""
        self.lease_seconds = LEASE
        self.relay: Relay | None = None
        """Where a cluster's node tells the others of its tables' changes (None: a single server)."""
        self.forward: Forward | None = None
        """How a cluster's node hands an order to a table's owner (None: a single server)."""
        self.stale: set[str] = set()
        """Copies nobody watches here that another node moved since: read again when next asked."""
        self.renewed: float | None = None
        """When this cluster node last renewed its leases (clock time; None: not yet, or alone)."""
        self.touched: dict[str, float] = {}
        """When each table was last asked for here (clock time): an idle copy is dropped after a while."""

    def lease_held(self) -> bool:
        """Returns whether this node's leases surely still run: its last renewal is younger than a
        lease less MARGIN (a node that stalled refuses writes before another may take its tables)."""
        if self.node is None or self.renewed is None:
            return True
        return self.clock.now() - self.renewed < self.lease_seconds - MARGIN * self.lease_seconds

    def owns(self, table_id: str) -> bool:
        """Returns whether this server applies the table's moves: always alone, by lease in a cluster."""
        return self.node is None or table_id in self.owned

    def resume_all(self) -> int:
        """Loads every unfinished table and plans its next automatic move (after a restart)."""
        count = 0
        if self.node is not None:
            return 0  # a cluster's node takes the tables nobody owns by lease (cluster.py)
        live = self.store.tables(status="playing", limit=MAX_PLAYING, pace="live")
        for stored in [*live, *self.store.tables(status="playing", limit=MAX_PLAYING, pace="turn-based")]:
            table = self.get(stored.id)  # fills a table's ``asked`` if it was stored before 0012
            table.resume()
            self.store.update(table.record)
            count += 1
        return count

    def get(self, table_id: object) -> LiveTable:
        """Returns the table with this id; refuses with 404 if there is none."""
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32:
            raise Refusal(404, "there is no such table")
        table = self.tables.get(table_id)
        if table is not None and table_id in self.stale:  # a copy another node moved since: read again
            self.stale.discard(table_id)
            record = self.store.load(table_id)
            if record is not None and table.passive:
                table.adopt(record)
        if table is None:
            record = self.store.load(table_id)
            if record is None:
                raise Refusal(404, f"there is no table {table_id!r}")
            table = self.tables[table_id] = LiveTable(record, self.store, self.pool, self.timing, self.clock)
            table.passive, table.relay = not self.owns(table_id), self.relay
            table.lease_held = None if self.node is None else self.lease_held
            if record.next_table is not None:
                table.rematch = self._rematch_of(record.next_table)
            self._forget_finished()
        self.touched[table_id] = self.clock.now()  # only a table that exists: no id a stranger typed
        return table

    def fresh(self, table_id: str, version: int) -> LiveTable:
        """Returns the table, read again from storage if the one in memory is older than ``version``
        (another server process moved it: the first step towards several nodes on one database)."""
        table = self.get(table_id)
        if table.record.version < version and not table.listeners:
            table.close()
            del self.tables[table_id]
            table = self.get(table_id)
        return table

    def _forget_finished(self) -> None:
        """Keeps at most KEPT_FINISHED finished tables nobody watches in memory (storage keeps them)."""
        idle = [t for t in self.tables.values() if _done(t) and not t.listeners]
        for table in idle[: max(0, len(idle) - KEPT_FINISHED)]:
            table.close()
            del self.tables[table.record.id]
            self.touched.pop(table.record.id, None)

    def drop_idle_copies(self) -> int:
        """Drops the copies of other nodes' tables that nobody here watches, that moved on since they
        were read, and that nobody asked for here for IDLE_COPY_SECONDS (a later request reads the
        table again); returns how many."""
        idle = self.clock.now() - IDLE_COPY_SECONDS
        dropped = [
            t
            for t in list(self.stale)
            if (table := self.tables.get(t)) is not None
            and table.passive
            and not table.listeners
            and self.touched.get(t, 0.0) < idle
        ]
        for table_id in dropped:
            self.tables.pop(table_id).close()
            self.stale.discard(table_id)
            self.touched.pop(table_id, None)
        self.stale &= set(self.tables)
        if len(self.touched) > len(self.tables):  # tables dropped elsewhere (fresh, a finished one)
            self.touched = {t: at for t, at in self.touched.items() if t in self.tables}
        return len(dropped)

    def seat_of(self, table: LiveTable, token: object) -> int | None:
        """Returns the seat a token opens (None: the spectators' token); refuses a wrong or missing one."""
        if token == "" and table.state.is_over():
            return None  # a finished game is open to everyone, as a spectator
        if not isinstance(token, str) or not token or len(token) > 100 or not token.isascii():
            raise Refusal(403, "a seat or spectator token is needed")
        digest = hash_token(token)
        if table.record.spectators and hmac.compare_digest(digest, table.record.spectator_hash):
            return None
        for seat in table.record.seats:
            if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
                return seat.seat
        raise Refusal(403, "that token opens no seat at this table")

    async def create(self, spec: object, creator: int | None = None) -> Created:
        """Creates a table from a request (validated as hostile input); refuses with 400 and the reason.
        ``creator``: the signed-in person's account id (a rated table seats only their own bot accounts)."""
        if not isinstance(spec, dict):
            raise Refusal(400, "a table is described by a JSON object")
        self._check_room(spec.get("pace", "live"))
        unknown = set(spec) - {"game", "seats", "options", "spectators", "rated", *CLOCK_FIELDS}
        if unknown:
            raise Refusal(400, f"unknown field {sorted(unknown)[0][:40]!r}")
        name = spec.get("game")
        if name not in game_names():
            raise Refusal(400, f"game must be one of {', '.join(game_names())}")
        game = load_game(name)
        seats, tokens = self._seats(game, spec.get("seats"))
        options = spec.get("options", {})
        if not isinstance(options, dict) or len(options) > 32:
            raise Refusal(400, "options must be an object of at most 32 names")
        try:
            values = game.options({str(k): v for k, v in options.items()})
            trial = game.new_state(len(seats), 1, values)
        except (ParlourError, TypeError, ValueError) as err:
            raise Refusal(400, f"options: {err}") from None
        _check_ask_cards(seats, trial.reaction_cards())
        pace = bot_pace(check_pace(spec), seats)
        _slow_settings(seats, spec["seats"], pace.pace, spec.get("spectators", True) is not False)
        for seat in seats:
            if seat.kind == "human":
                seat.time_left, seat.away_left = pace.game_seconds, pace.away_seconds
        rated = spec.get("rated", False)
        if not isinstance(rated, bool):
            raise Refusal(400, "rated must be true or false")
        watchable = spec.get("spectators", True)
        if not isinstance(watchable, bool):
            raise Refusal(400, "spectators must be true or false")
        spectator = new_token() if watchable else None
        record = TableRecord(
            id=secrets.token_urlsafe(TABLE_ID_BYTES),
            game=game.name,
            players=len(seats),
            options=dict(values),
            seed=secrets.randbits(62),
            spectator_hash=hash_token(spectator) if spectator else "",
            spectators=watchable,
            seats=seats,
            created=self.clock.now(),
            rated=rated,
            **pace.fields(),
        )
        await seat_bots(self.store, self.clock, record, self._open, creator)
        return Created(record.id, tokens, spectator)

    async def _open(self, record: TableRecord, previous: str | None = None) -> LiveTable:
        """Stores a new table (linked from the finished ``previous``, if any), then starts its clock
        and its automatic moves; returns it, or the table another process linked from ``previous``
        first (then this one is not stored)."""
        # A cluster's node owns the tables it makes: their lease is stored with them.
        lease = None if self.node is None else (self.node, self.clock.now() + self.lease_seconds)
        stored = await self.store.write(self.store.create, record, previous, lease, table=record.id)
        if stored != record.id:
            return self.get(stored)
        if self.node is not None:
            self.owned.add(record.id)
        table = self.get(record.id)
        if not table.unplayed():  # a rematch waiting for its accepts has no clock yet
            table.record.deadline = table._deadline(table.state, record.created)
        # Its first deadline and who is asked:
        await self.store.write(self.store.update, table.record, table=record.id)
        table.schedule()
        return table

    async def take_over(self, table_id: str) -> LiveTable | None:
        """After this node of a cluster won a table's lease: reads the table from storage and resumes
        it here as a restart does (its clock afresh, its automatic moves planned); None if it is gone."""
        self.owned.add(table_id)
        for _ in range(TAKE_OVER_TRIES):
            record = await asyncio.to_thread(self.store.load, table_id)
            if record is None:
                self.owned.discard(table_id)
                return None
            table = self.tables.get(table_id)
            if table is None:
                table = self.get(table_id)
            async with table.lock:
                if table.record is not record:
                    table.adopt(record)
                table.passive = False
                self.stale.discard(table_id)
                if record.status != "playing":
                    break
                table.resume()
                try:  # its new deadline, only over the version read (never over a newer one)
                    await self.store.write(self.store.update, table.record, table=table_id)
                    break
                except Stale:  # the former owner, not aware yet, wrote it meanwhile: read it again
                    continue
        else:
            raise Stale(f"table {table_id} kept changing under its takeover")
        await table.broadcast()
        return table

    def lose(self, table_id: str) -> None:
        """After this node of a cluster lost a table's lease (it renewed too late and another node took
        it): its copy serves views only, its planned automatic moves stopped."""
        self.owned.discard(table_id)
        table = self.tables.get(table_id)
        if table is not None:
            table.passive = True
            table.close()
            table.drop_queue("the table moved to another server: send your pass again")

    async def refresh(self, table_id: str) -> None:
        """Reads a table in memory again from storage (another node changed it) and sends its
        connections their views; a copy nobody watches is only marked, read again when next asked
        (not dropped: a connection saying hello holds it already)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        if not table.passive and table.record.status != WAITING:
            return  # owned here: its owner is its only writer (but for a rematch's accepts)
        if table.passive and not table.listeners:
            self.stale.add(table_id)
            return
        self.stale.discard(table_id)
        known = table.record.moves
        after = known[-1].number if known else None
        record = await asyncio.to_thread(self.store.load_new, table_id, after)
        if record is None:
            return
        async with table.lock:  # what the table is now, not what it was when the read began
            shown = table.record
            if not table.passive and shown.status != WAITING:
                return  # taken over here meanwhile
            if (record.version, record.revision) < (shown.version, shown.revision):
                return  # an older read than what is shown already
            last = shown.moves[-1].number if shown.moves else -1
            record.moves = [*shown.moves, *(m for m in record.moves if m.number > last)]  # only appended
            table.adopt(record)
        table.schedule()
        await table.broadcast()

    async def play_again(self, table: LiveTable, seat: int | None) -> str:
        """Returns the table a finished table's players go on to, made at the first request: the same
        game, options, clocks and seats, rotated by one (seat i is the old seat i + 1's: a person keeps
        their name and their token, stored hashed, so their own link's token opens the new seat; a bot
        keeps its bot). Only a seated person asks; asking is accepting (ruling S-3): the new table
        waits until every other person accepted too. A later request returns the same table and
        accepts for its asker; a declined rematch is refused (409), and no new one is made, as is a
        table seating a bot account (409: it never accepts)."""
        if seat is None:
            raise Refusal(403, "only a seated person may ask to play again")
        if any(s.bot_account for s in table.record.seats):
            raise Refusal(409, "a table with a bot account is not played again: make a new table")
        if not table.state.is_over():
            raise Refusal(409, "the game is not over yet")
        made = await self._next_table(table, seat)
        new = self.get(made)
        if new.record.status == DECLINED:
            names = [new.state.seat_name(s) for s in range(new.record.players)]
            raise Refusal(409, waiting_text(new.record, names) + "; make a new table in the lobby")
        mine = (seat - 1) % new.record.players  # seat i of the new table is the old seat i + 1
        if mine in waiting_for(new.record):
            await self.answer(new, mine, True)
        return made

    async def answer(self, table: LiveTable, seat: int | None, accept: bool) -> dict[str, object]:
        """Records a person's accept or decline of a rematch (accepting.py) and tells the finished
        table's page, if that table is in memory; returns the rematch as it then stands."""
        answered = await answer(table, seat, accept)
        if table.passive and self.relay is not None:  # stored here: its owner reads it again (and starts it)
            self.relay.changed(table)
        await self._tell_previous(table)
        return answered

    async def _tell_previous(self, new: LiveTable) -> None:
        """Gives the finished table whose rematch ``new`` is (if in memory) the rematch's state and
        sends its connections their views."""
        for old in list(self.tables.values()):
            if old.record.next_table == new.record.id:
                old.rematch = rematch_json(new.record)
                await old.broadcast()

    def _rematch_of(self, table_id: str) -> dict[str, object] | None:
        """Returns what a finished table's pages are told of its rematch: from the rematch in memory,
        else from storage."""
        live = self.tables.get(table_id)
        return rematch_json(live.record) if live else stored_rematch(self.store.engine, table_id)

    async def _next_table(self, table: LiveTable, seat: int) -> str:
        """Returns the finished table's next table, made now (waiting for the accepts of every person
        but the asker, for a week) unless it exists; one request at a time makes it here, and the
        stored link's compare-and-set (Store.create) makes one of several processes' requests win. A
        seat whose account was deleted counts as declined (ruling S-3)."""
        async with self.again_lock:
            old = table.record
            if old.next_table is None:
                self._check_room()
                now = self.clock.now()
                record = TableRecord(
                    id=secrets.token_urlsafe(TABLE_ID_BYTES),
                    game=old.game,
                    players=old.players,
                    options=dict(old.options),
                    seed=secrets.randbits(62),
                    spectator_hash=old.spectator_hash,
                    spectators=old.spectators,
                    seats=[_rotated(old, number, seat) for number in range(old.players)],
                    created=now,
                    rated=old.rated,
                    **Pace.of(old).fields(),
                )
                gone = self.store.deleted_seats(old.id)
                left = [s.seat for s in record.seats if s.kind == "human" and not s.accepted]
                deleted = [n for n in left if (n + 1) % old.players in gone]
                if deleted:  # nobody can sign in to that seat's account any more: it cannot say yes
                    record.status, record.declined_by = DECLINED, deleted[0]
                elif left:
                    record.status, record.expires = WAITING, now + EXPIRES  # others are still to accept
                old.next_table = (await self._open(record, old.id)).record.id
            made = old.next_table
        table.rematch = self._rematch_of(made)
        await table.broadcast()
        if table.passive and self.relay is not None:  # a finished table is nobody's: tell the others
            self.relay.changed(table)
        return made

    async def expired(self, table_id: str) -> None:
        """Adopts the scheduler's expiry of a waiting rematch (rematch.expire_due) in the table in
        memory, if any, and tells its pages and the finished table's."""
        new = self.tables.get(table_id)
        if new is None:
            for old in list(self.tables.values()):
                if old.record.next_table == table_id:
                    old.rematch = stored_rematch(self.store.engine, table_id)
                    await old.broadcast()
            return
        async with new.lock:
            if new.record.status == WAITING:
                new.record.status, new.record.declined_by = DECLINED, None
        await new.broadcast()
        if new.passive and self.relay is not None:  # the owner and the other nodes read it again
            self.relay.changed(new)
        await self._tell_previous(new)

    def _check_room(self, pace: object = None) -> None:
        """Refuses a new table (503) while its pace's most games in play are in memory: MAX_PLAYING
        live ones, MAX_TURN_BASED turn-based ones (each pace counts only its own; None, play again:
        either full refuses)."""
        playing = [
            t.record.pace == "turn-based" for t in self.tables.values() if not _done(t) and not t.passive
        ]
        full = {
            "live": playing.count(False) >= MAX_PLAYING,
            "turn-based": playing.count(True) >= MAX_TURN_BASED,
        }
        for kind, most in (("live", MAX_PLAYING), ("turn-based", MAX_TURN_BASED)):
            if full[kind] and pace in (None, kind):
                raise Refusal(503, f"the server is full ({most} {kind} games in play): try again later")

    def _seats(self, game: Game, given: object) -> tuple[list[SeatRecord], dict[int, str]]:
        """Returns the seats of a request (humans get tokens, bots are checked by name)."""
        if not isinstance(given, list) or not game.min_players <= len(given) <= game.max_players:
            raise Refusal(400, f"seats must be a list of {game.min_players} to {game.max_players} seats")
        seats: list[SeatRecord] = []
        tokens: dict[int, str] = {}
        for number, seat in enumerate(given):
            if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot"):
                raise Refusal(400, f"seat {number}: kind must be 'human' or 'bot'")
            unknown = set(seat) - {"kind", "bot", "auto_pass", "ask", "name"}
            if unknown:
                raise Refusal(400, f"seat {number}: unknown field {sorted(unknown)[0][:40]!r}")
            if seat["kind"] == "bot":
                if seat.get("name") is not None:
                    raise Refusal(400, f"seat {number}: a bot keeps its bot's name")
                if "ask" in seat or "auto_pass" in seat:
                    raise Refusal(
                        400, f"seat {number}: a bot answers every window itself (no ask, no auto_pass)"
                    )
                bot = seat.get("bot")
                if isinstance(bot, str) and bot.startswith(BOT_SEAT):
                    seats.append(bot_seat(number, bot))  # a server bot account (botaccounts/seating.py)
                    continue
                try:
                    check_bot(game, bot, len(given))
                except Refusal as refusal:
                    raise Refusal(400, f"seat {number}: {refusal.message}") from None
                seats.append(SeatRecord(number, "bot", bot=bot))
            else:
                ask = _seat_ask(number, seat)
                name = _seat_name(number, seat.get("name"))
                token = new_token()
                tokens[number] = token
                seats.append(
                    SeatRecord(number, "human", token_hash=hash_token(token), ask=ask.to_text(), name=name)
                )
        return seats, tokens

    def lobby(self) -> list[dict[str, object]]:
        """Returns the newest 100 tables for the front page, newest first, each seat with its person's
        name and the game's name of the seat (``called``, for a table in memory)."""
        listed = []
        for record in self.store.tables(limit=100):
            live = self.tables.get(record.id)
            if not record.spectators and record.status != "over":
                continue  # a table without a spectators' link is its seats' alone until it ends
            listed.append(
                {
                    "table": record.id,
                    "game": record.game,
                    "players": record.players,
                    "status": record.status,
                    "version": live.record.version if live else record.version,
                    "seats": [
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "bot": s.bot,
                            "name": s.name,
                            "bot_account": s.bot_account,
                            "called": called,
                        }
                        for s, called in zip(record.seats, _seat_names(live, record.players), strict=True)
                    ],
                    "created": record.created,
                }
            )
        return listed

    def status(self, table_id: object) -> dict[str, object]:
        """Returns a table's public status for "my tables": whose turn it is, who is asked, who won;
        nothing a spectator of the table does not see (its seats, names and public summary)."""
        table = self.get(table_id)
        state, record = table.state, table.record
        over = state.is_over()
        if not record.spectators and not over:  # its seats' alone: not even its pace is public
            return {
                "table": record.id,
                "game": record.game,
                "status": record.status,
                "over": False,
                "private": True,
            }
        now = self.clock.now()
        deadline = None if over else record.deadline
        unplayed = table.unplayed()
        return {
            "table": record.id,
            "game": record.game,
            "status": record.status,
            "over": over,
            "version": record.version,
            "turn": state.turns_played(),
            "turn_player": state.turn_player(),
            "deciders": [] if over or unplayed else list(state.deciders()),
            "waiting_for": waiting_for(record),
            "declined_by": record.declined_by,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "bot_account": s.bot_account,
                    "called": called,
                }
                for s, called in zip(record.seats, _seat_names(table, record.players), strict=True)
            ],
            "winners": list(state.winners()) if over else [],
            "rated": record.rated,
            "pace": record.pace,
            "move_seconds": record.move_seconds,
            "deadline": deadline,
            "time_left": None if deadline is None else max(0.0, deadline - now),
            "now": now,
        }

    def close(self) -> None:
        """Stops every table's planned automatic moves."""
        for table in self.tables.values():
            table.close()


def _seat_names(live: LiveTable | None, players: int) -> list[str | None]:
    """Returns how a table's game calls each seat ("Venus"), known once the table is in memory (every
    game in play is); None for each seat of a table read from storage alone."""
    if live is None:
        return [None] * players
    return [live.state.seat_name(seat) for seat in range(players)]


def _done(table: LiveTable) -> bool:
    """Returns whether a table in memory is finished for good: its game over, or its rematch declined."""
    return table.state.is_over() or table.record.status == DECLINED


def _rotated(old: TableRecord, number: int, asker: int) -> SeatRecord:
    """Returns seat ``number`` of a finished table's next one: the old seat ``number + 1`` (no
    stand-in, a full clock); a person's seat has accepted only if it is the ``asker``'s (a bot's has)."""
    seat = old.seats[(number + 1) % old.players]
    human = seat.kind == "human"
    time_left, away_left = (old.game_seconds, old.away_seconds) if human else (None, None)
    return dataclasses.replace(
        seat,
        seat=number,
        stand_in=None,
        time_left=time_left,
        away_left=away_left,
        timeouts=0,
        votes=[],
        replaced=False,
        accepted=not human or seat.seat == asker,
    )


def _seat_name(number: int, given: object) -> str | None:
    """Returns the name a person's seat is created with (None: none given), refusing a bad one."""
    if given is None:
        return None
    try:
        return check_name(given)
    except Refusal as refusal:
        raise Refusal(400, f"seat {number}: {refusal.message}") from None


def _seat_ask(number: int, seat: dict[str, object]) -> AskMe:
    """Returns the reaction-window setting a person's seat is created with: ``ask`` ({"mode", "cards"}),
    or the older ``auto_pass`` (true: "playable", false: "always"); "playable" when neither is given."""
    if "ask" in seat and "auto_pass" in seat:
        raise Refusal(400, f"seat {number}: give ask or auto_pass, not both")
    if "auto_pass" in seat:
        auto = seat["auto_pass"]
        if not isinstance(auto, bool):
            raise Refusal(400, f"seat {number}: auto_pass must be true or false")
        return AskMe("playable" if auto else "always")
    given = seat.get("ask", {"mode": "playable"})
    if not isinstance(given, dict) or set(given) - {"mode", "cards"}:
        raise Refusal(400, f'seat {number}: ask is {{"mode": MODE, "cards": [NAME, ...]}}')
    try:
        return check_ask(given.get("mode"), given.get("cards"))
    except AskError as err:
        raise Refusal(400, f"seat {number}: {err}") from None


def _slow_settings(seats: list[SeatRecord], given: list[Any], pace: str, spectators: bool) -> None:
    """At a turn-based table others watch (a spectators' link, or two people), a person's setting is
    ``never`` unless they asked for ``always``; one that looks at the hand is refused (ruling S-2)."""
    people = [s for s in seats if s.kind == "human"]
    if pace != "turn-based" or not (spectators or len(people) > 1):
        return
    for seat in people:
        if "ask" not in given[seat.seat] and "auto_pass" not in given[seat.seat]:
            seat.ask = "never"
            continue
        try:
            slow_modes_only(AskMe.from_text(seat.ask).mode)
        except AskError as err:
            raise Refusal(400, f"seat {seat.seat}: {err}") from None


def _check_ask_cards(seats: list[SeatRecord], known: list[str]) -> None:
    """Refuses a seat whose "only" setting names a card the table's content set cannot play in a window."""
    for seat in seats:
        try:
            AskMe.from_text(seat.ask).check_cards(known)
        except AskError as err:
            raise Refusal(400, f"seat {seat.seat}: {err}") from None


CLOCK_FIELDS = ("move_seconds", "game_seconds", "pace", "move_hours", "window_hours", "away_days")
"""A table request's clock fields: a live table's seconds, or a turn-based table's hours and days."""
MOVE_HOURS = (1.0, 336.0)
"""A turn-based table's time per move (hours): an hour to two weeks."""
WINDOW_HOURS = (0.1, 72.0)
"""A turn-based table's time for a reaction window (hours; at most its time per move)."""
DEFAULT_WINDOW_HOURS = 2.0
"""A turn-based table's window time when the request gives none (at most its time per move)."""
MAX_AWAY_DAYS = 30.0
"""The longest away reserve a turn-based table gives each person (days)."""


@dataclass(frozen=True)
class Pace:
    """How a table is clocked, in seconds: live (``move_seconds``, ``game_seconds``, each optional) or
    turn-based (a move's and a reaction window's time, and each person's away reserve)."""

    pace: str = "live"
    move_seconds: float | None = None
    game_seconds: float | None = None
    window_seconds: float | None = None
    away_seconds: float | None = None

    @classmethod
    def of(cls, record: TableRecord) -> Pace:
        """Returns a stored table's clock."""
        return cls(*(getattr(record, f.name) for f in dataclasses.fields(cls)))

    def fields(self) -> dict[str, Any]:
        """Returns the clock as a TableRecord's fields (they have the same names)."""
        return dataclasses.asdict(self)


def bot_pace(pace: Pace, seats: list[SeatRecord]) -> Pace:
    """Returns the table's clock: a live one seating a bot account always has a move clock
    (botaccounts/seating.py)."""
    if pace.pace == "live" and pace.move_seconds is None and any(is_bot_seat(s) for s in seats):
        return dataclasses.replace(pace, move_seconds=BOT_SECONDS)
    return pace


def check_pace(spec: dict[str, object]) -> Pace:
    """Returns the clock a table request asks for (hostile input: one-line refusals)."""
    pace = spec.get("pace", "live")
    if pace not in ("live", "turn-based"):
        raise Refusal(400, "pace must be 'live' or 'turn-based'")
    if pace == "live":
        for name in ("move_hours", "window_hours", "away_days"):
            if name in spec:
                raise Refusal(400, f'{name} is for a turn-based table ("pace": "turn-based")')
        move = _seconds(spec.get("move_seconds"), "move_seconds")
        return Pace("live", move, _seconds(spec.get("game_seconds"), "game_seconds"))
    for name in ("move_seconds", "game_seconds"):
        if name in spec:
            raise Refusal(
                400, f"a turn-based table is timed in move_hours, window_hours and away_days, not {name}"
            )
    move_hours = _number(spec.get("move_hours", 24), "move_hours", *MOVE_HOURS)
    low, high = WINDOW_HOURS[0], min(WINDOW_HOURS[1], move_hours)
    window_hours = _number(
        spec.get("window_hours", min(DEFAULT_WINDOW_HOURS, move_hours)), "window_hours", low, high
    )
    away_days = _number(spec.get("away_days", 0), "away_days", 0.0, MAX_AWAY_DAYS)
    away = away_days * 86_400.0 if away_days else None
    return Pace("turn-based", move_hours * 3600.0, None, window_hours * 3600.0, away)


def _number(value: object, name: str, low: float, high: float) -> float:
    """Returns a number from ``low`` to ``high``, refusing anything else with one line."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise Refusal(400, f"{name} must be a number from {low:g} to {high:g}")
    return float(value)


def _seconds(value: object, name: str) -> float | None:
    """Returns a clock setting in seconds (None: no clock); refuses anything else."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 1 <= value <= MAX_SECONDS:
        raise Refusal(400, f"{name} must be a number of seconds from 1 to {MAX_SECONDS:g}, or null")
    return float(value)
