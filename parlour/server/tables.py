"""Live tables: the engine's state of each game in play, who is listening, bots and clocks.

A move is checked by the engine, applied to a copy, committed to storage, and only then becomes the
table's state and is broadcast: a server killed at any moment has lost nothing it accepted. Bots think
in a worker pool off the event loop; the auto policy (auto-pass, a stand-in bot, a clock running out)
acts through the same door as a person.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Protocol

from parlour.bots.ismcts import IsmctsBot
from parlour.bots.registry import make_bot
from parlour.core.agents import Agent
from parlour.core.errors import IllegalActionError, ParlourError
from parlour.core.game import Game
from parlour.core.log import GameLog
from parlour.core.record import GameRecord, replay
from parlour.core.registry import load_game
from parlour.core.state import PASS_TEXT, GameState
from parlour.server.asking import MODES, SLOW_MODES, AskError, AskMe, check_ask, slow_modes_only
from parlour.server.clock import Clock
from parlour.server.limits import TABLE_CHAT_BURST, TABLE_CHAT_RATE, Bucket
from parlour.server.notify.outbox import Asked, notify_asked
from parlour.server.ratings import rate_table
from parlour.server.rematch import DECLINED, WAITING, waiting_for, waiting_text
from parlour.server.replays import Replayer
from parlour.server.storage import MoveRecord, SeatRecord, Stale, Store, TableRecord
from parlour.server.views import SeatJSON, score_timeline, seat_view

LOG = logging.getLogger("parlour.server")
MAX_ERROR = 300
"""The longest error text sent (characters)."""


class Refusal(Exception):
    """A request refused: the HTTP status, a one-line reason, and the table's version where it matters."""

    def __init__(self, status: int, message: str, version: int | None = None) -> None:
        one_line = " ".join(message.split())
        if len(one_line) > MAX_ERROR:  # an engine's reason may quote a long input back
            one_line = one_line[: MAX_ERROR - 1] + "…"
        super().__init__(one_line)
        self.status, self.message, self.version = status, one_line, version

    def to_json(self) -> dict[str, object]:
        """Returns the error message sent to the client."""
        body: dict[str, object] = {"type": "error", "status": self.status, "error": self.message}
        if self.version is not None:
            body["version"] = self.version
        return body


@dataclass
class Timing:
    """How the table paces automatic moves (seconds)."""

    think: float = 0.6
    """A bot's move lands no sooner than this after the decision opened (people can follow)."""
    pass_delay: float = 1.5
    """Every pass in a reaction window, typed or automatic, lands no sooner than this after the seat
    was asked: an auto-pass and a person's quick pass look alike, and a person holding a card who
    answers within it shows nothing by their timing (one who takes longer shows it, as at a table)."""
    window_pause: float = 0.25
    """A run of reaction windows answered by bots (and by persons' settings where nobody else watches,
    or "never") lands this long after it began: one short pause for the whole run, whatever the bots
    hold, so a window nobody needs to think in does not hold the game up."""
    clock_bot: str = "random"
    """The bot that moves for a person whose clock ran out where passing is not legal."""
    away: float = 60.0
    """How long a connected person may be asked without answering before the others may put a bot in
    (a table without a clock must not wait for ever)."""
    grace: float = 15.0
    """How long a person's seat must have been without a connection before others may put a bot in
    (a reload is quick); counted from the table's start, or the server's, for a seat never connected."""


PRESENCE_SECONDS = 10.0
"""How long another node's word on which seats are connected there holds (it repeats it every few
seconds: a node that died stops counting after this)."""
MAX_SPECTATORS = 100
"""Spectators' connections one table takes at once (more are refused with 503); seats never wait for them."""
MAX_SEAT_CONNECTIONS = 4
"""Connections one seat may hold at once (tabs, a hot-seat screen); a newer one closes the oldest (4409)."""
MAX_STORED_CHAT = 2000
"""Chat lines one table stores from spectators: beyond them its chat is full to them (429)."""
CLOCK_NOTE = "the clock ran out"
"""The note of a move the auto policy made for a person whose time ran out."""
TIMEOUTS_AWAY = 3
"""After this many timeouts a person counts as away: any other person may put a bot in for them, and
the others may vote to replace them by a bot for the rest of the game (votes.py)."""
MAX_BOT_MILLISECONDS = 2000
"""The longest search a server bot may make for one move (a table's bots are chosen by strangers)."""


def check_bot(game: Game, name: object, players: int) -> Agent:
    """Returns the bot a table of ``players`` asks for, refusing unknown names, searches the server will
    not run and a learned policy that cannot read the table."""
    if not isinstance(name, str) or not 1 <= len(name) <= 64:
        raise Refusal(400, "a bot needs a name such as 'greedy'")
    try:
        agent = make_bot(game, name, 0, players=players)
    except ParlourError as err:
        raise Refusal(400, str(err)) from None
    if isinstance(agent, IsmctsBot):
        budget = agent.budget
        if budget.iterations or not 0 < budget.milliseconds <= MAX_BOT_MILLISECONDS:
            raise Refusal(
                400,
                f"a search bot here thinks for a time of at most {MAX_BOT_MILLISECONDS} ms, like ismcts:1s",
            )
    return agent


MAX_NAME = 24
"""The longest name a person may give their seat (characters)."""


def check_name(text: object) -> str:
    """Returns a seat's name stripped, refusing anything but 1 to MAX_NAME printable characters."""
    if not isinstance(text, str) or len(text) > 4 * MAX_NAME:
        raise Refusal(400, f"a name is 1 to {MAX_NAME} printable characters")
    name = text.strip()
    surrogate = any("\ud800" <= c <= "\udfff" for c in name)
    if not 1 <= len(name) <= MAX_NAME or surrogate or not name.isprintable():
        raise Refusal(400, f"a name is 1 to {MAX_NAME} printable characters")
    return name


def core_record(r: TableRecord) -> GameRecord:
    """Returns a stored table's moves as a core game record (what ``parlour replay`` reads)."""
    record = GameRecord(r.game, r.players, r.seed, r.options, [s.bot or "human" for s in r.seats])
    for move in r.moves:
        record.add(move.seat, move.action)
    record.scores = r.scores
    return record


def hash_token(token: str) -> str:
    """Returns the stored form of a seat's token (only hashes are stored); any text hashes, a lone
    surrogate included."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def choose_in_worker(game_name: str, position: dict[str, object], bot: str, seed: int, seat: int) -> str:
    """Returns a bot's move in notation, computed in a worker from the table's position."""
    game = load_game(game_name)
    state = game.state_from_position(position)
    agent = make_bot(game, bot, seed)
    if hasattr(agent, "steady"):
        agent.steady = True  # a search spends its budget in a window even with only a pass to play
    return state.format_action(agent.choose(state, seat))


@dataclass(eq=False)
class Listener:
    """One connection watching a table: the seat it speaks for (None: a spectator) and its outbox of
    JSON texts; ``gone`` is set when the table drops a connection that reads nothing."""

    seat: int | None
    guest: bool = False
    """A visitor of a finished table without a link (who may watch, not chat)."""
    address: str = "unknown"
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=64))
    seen: int = 0
    """The log entries this connection already has."""
    gone: asyncio.Event = field(default_factory=asyncio.Event)
    close_code: int = 4429
    """Why the table dropped it: 4429 it read nothing for too long, 4409 a newer connection of its seat."""
    joined: float = field(default_factory=time.monotonic)

    def send(self, message: dict[str, object]) -> None:
        """Queues a message; a connection whose outbox is full is marked gone (it will be closed)."""
        self.put(encode(message))

    def put(self, text: str) -> None:
        """Queues an encoded message (see ``send``)."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.gone.set()


def asked_seats(state: GameState) -> list[int]:
    """Returns the seats whose decision the game waits for (none once it is over): a table's ``asked``."""
    return [] if state.is_over() else list(state.deciders())


def encode(message: dict[str, object]) -> str:
    """Returns a message as compact JSON text."""
    return json.dumps(message, separators=(",", ":"))


class Relay(Protocol):
    """Where a cluster's node tells the other nodes of a table's changes (cluster.py; None: alone)."""

    def changed(self, table: LiveTable) -> None:
        """The table changed (committed): the other nodes showing it read it again."""

    def chat(self, table: LiveTable, line: str) -> None:
        """A chat line was stored at the table: the other nodes send it to their connections."""

    def presence(self, table: LiveTable) -> None:
        """The seats connected here changed: the other nodes learn which they are."""


class LiveTable:
    """One table in play (or finished) in memory, rebuilt from storage by replaying its moves."""

    def __init__(
        self, record: TableRecord, store: Store, pool: Executor, timing: Timing, clock: Clock | None = None
    ) -> None:
        self.record, self.store, self.pool, self.timing = record, store, pool, timing
        self.clock = clock or Clock()
        """The server's time (clock.py): deadlines, pacing and the moves' times are read from it."""
        self.game: Game = load_game(record.game)
        self.log = GameLog()
        self.state = self._rebuild()
        record.asked = asked_seats(self.state)  # filled for a table stored before 0012, written next commit
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self.opened = record.moves[-1].at if record.moves else record.started or record.created
        """When the decision now open began (the last accepted move, the game's start, or the server's)."""
        self.window_opened = self.opened
        """When the run of reaction windows open now began: passes keep it, any other move starts
        afresh. Bots (and "never" settings) answer a whole run after one pause from here."""
        self.window_pace = timing.window_pause
        self._ask_changed: dict[int, float] = {}
        """When each seat last changed its window setting (a change while asked is paced as a pass)."""
        """That pause: ``Timing.window_pause``, or ``think`` after a card played or an offer made in a
        window (people read it before the answers come)."""
        self.left: dict[int, float] = {}
        """When each person's seat last lost its last connection (for the stand-in grace period)."""
        self.loaded = self.clock.now()
        """When this server took the table up (a seat never connected since is in its grace from here)."""
        self.chat_bucket = Bucket(TABLE_CHAT_RATE, TABLE_CHAT_BURST)
        self._chat_stored: int | None = None
        self.notes = {m.number: m.note for m in record.moves if m.note}
        """What the server said about an automatic move, by move number ("the clock ran out")."""
        self._generation = 0
        self._task: asyncio.Task[None] | None = None
        self._timeline: list[dict[str, object]] | None = None
        self._planned: tuple[object, ...] | None = None
        self.replayer: Replayer | None = None
        """The replay viewer's checkpoints, made at the first replay request."""
        self.replay_lock = asyncio.Lock()
        self._card_texts: dict[str, str] | None = None
        self._reaction_cards: list[str] | None = None
        self.window_base: int | None = self.record.version if _asks_several(self.state) else None
        """The version at which the window asking several seats now open began (None: no such window)."""
        self.queued: dict[int, asyncio.Future[int]] = {}
        """Typed passes waiting for their window's answers to land (by seat)."""
        self._table_content: dict[str, object] | None = None
        self.rematch: dict[str, object] | None = None
        """A finished table's rematch as its pages are told (rematch.rematch_json; set by the hall)."""
        self.passive = False
        """A copy of a table another node of a cluster owns: it serves views and connections only (no
        move, setting or automatic move is made here; they go to the owner: orders.py)."""
        self.relay: Relay | None = None
        """Where its changes are told to a cluster's other nodes (None: a single server)."""
        self.lease_held: Callable[[], bool] | None = None
        """Whether this cluster node's leases surely still run (None: a single server, always)."""
        self.elsewhere: dict[str, tuple[frozenset[int], float]] = {}
        """The seats connected to the table at a cluster's other nodes, by node, with when that node
        last said so (time.monotonic()); a node silent for PRESENCE_SECONDS counts for none."""

    def connected(self) -> set[int]:
        """Returns the seats with a connection open: here, or at another node of a cluster."""
        seats = {listener.seat for listener in self.listeners if listener.seat is not None}
        if self.elsewhere:
            fresh = time.monotonic() - PRESENCE_SECONDS
            for node_seats, heard in self.elsewhere.values():
                if heard >= fresh:
                    seats |= node_seats
        return seats

    def here(self) -> list[int]:
        """Returns the seats with a connection open at this server (what it tells the other nodes)."""
        return sorted({listener.seat for listener in self.listeners if listener.seat is not None})

    def hear_presence(self, node: str, seats: frozenset[int]) -> bool:
        """Adopts another node's connected seats (or, with ``node`` empty, forgets the silent nodes');
        notes when a seat is left with no connection anywhere; returns whether any seat's state changed."""
        before = self.connected()
        if node:
            self.elsewhere[node] = (seats, time.monotonic())
        fresh = time.monotonic() - PRESENCE_SECONDS
        self.elsewhere = {n: entry for n, entry in self.elsewhere.items() if entry[1] >= fresh}
        after = self.connected()
        for seat in before - after:
            self.left[seat] = self.clock.now()
        return before != after

    def adopt(self, record: TableRecord) -> None:
        """Takes up the table as stored now (another node moved it): the moves beyond those known are
        applied one by one (all replayed if the stored ones do not continue them), the rest copied.
        The caller holds the lock, or the table is passive."""
        known = self.record.moves
        ahead = record.moves[: len(known)]
        if len(record.moves) >= len(known) and [m.number for m in ahead] == [m.number for m in known]:
            for move in record.moves[len(known) :]:
                self.log.apply(self.state, self.state.parse_action(move.action), move.seat)
        else:
            self.log = GameLog()
            self.record = record
            self.state = self._rebuild()
        self.record = record
        record.asked = asked_seats(self.state)
        self.opened = record.moves[-1].at if record.moves else record.started or record.created
        self.window_opened = self.opened
        self.notes = {m.number: m.note for m in record.moves if m.note}
        self._timeline, self.replayer = None, None
        self.window_base = record.version if _asks_several(self.state) else None

    def _rebuild(self) -> GameState:
        """Returns the state after every stored move, filling the log on the way."""
        return replay(self.game, self.game_record(), log=self.log)

    def game_record(self) -> GameRecord:
        """Returns the table's moves as a core game record (what ``parlour replay`` reads)."""
        return core_record(self.record)

    # ----------------------------------------------------------------- what is sent
    def seats_json(self) -> list[SeatJSON]:
        """Returns the public description of every seat (who plays it, whether connected, clocks)."""
        connected = self.connected()
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "stand_in": s.stand_in,
                "connected": s.kind == "bot" or s.seat in connected,
                "time_left": s.time_left,
                "name": s.name,
                "bot_account": s.bot_account,
                "timeouts": s.timeouts,
                "away_left": s.away_left,
                "votes": list(s.votes),
                "replaced": s.replaced,
            }
            for s in self.record.seats
        ]

    def view(self, seat: int | None, since: int = 0, full: bool = True) -> dict[str, object]:
        """Returns the table as ``seat`` may see it, with the log from entry ``since``; a ``full`` view
        (the first a connection gets) also carries what never changes, the card texts."""
        view = seat_view(
            self.state, self.log, seat, self.record.version, self.seats_json(), since, self.notes
        )
        view["table"] = self.record.id
        view["moved_at"] = self.record.moves[-1].at if self.record.moves else None
        view["clock"] = {
            "asked_since": self.opened,
            "away_after": self.timing.away,
            "move_seconds": self.record.move_seconds,
            "game_seconds": self.record.game_seconds,
            "deadline": self.record.deadline,
            "now": self.clock.now(),
            "pace": self.record.pace,
            "window_seconds": self.record.window_seconds,
        }
        view["window"] = self._window()
        view["next_table"] = self.record.next_table  # "play again": where its players went on
        view["rematch"] = self.rematch if self.record.next_table else None
        view["status"] = self.record.status
        view["waiting_for"] = waiting_for(self.record)  # a rematch's persons still to accept
        view["declined_by"] = self.record.declined_by
        if self.unplayed():  # nobody is asked until every person accepted
            view.update(asked=False, legal=[], ends_turn=[], only_pass=False, deciders=[])
        if full:
            view["card_texts"] = self.card_texts()  # the content set's public texts, for hovering
            view["table_content"] = self.table_content()  # what a drawn table needs (public)
        if seat is not None:  # the seat's own setting, and whether the server answers for it now
            ask = AskMe.from_text(self.record.seats[seat].ask)
            view["ask"] = ask.to_json()
            view["auto_pass"] = ask.mode != "always"
            view["answered_for_you"] = self._is_person(seat) and ask.passes_for(self.state, seat)
            view["ask_modes"] = list(SLOW_MODES if self.slow() else MODES)
        if full:
            view["reaction_cards"] = self.reaction_cards()
        results = view.get("results")
        if self.state.is_over() and isinstance(results, dict):
            results["seed"] = self.record.seed
            results["timeline"] = self.timeline()
        return view

    def _window(self) -> dict[str, object] | None:
        """Returns the open reaction window's public countdown: who is still asked, in order, and when
        the first answer may land (every answer, typed or automatic, waits for the pass delay)."""
        if self.state.is_over() or not self.state.passing_window():
            return None
        return {
            "opened": self.opened,
            "answer_at": self._answer_at(),
            "waiting": list(self.state.waiting()),
        }

    def reaction_cards(self) -> list[str]:
        """Returns the names of the cards playable in this table's windows (public), worked out once."""
        if self._reaction_cards is None:
            self._reaction_cards = self.state.reaction_cards()
        return self._reaction_cards

    def card_texts(self) -> dict[str, str]:
        """Returns the text of every card of the table's content set (public), worked out once."""
        if self._card_texts is None:
            self._card_texts = self.state.card_texts()
        return self._card_texts

    def table_content(self) -> dict[str, object]:
        """Returns the game's unchanging public facts for its drawn table, worked out once."""
        if self._table_content is None:
            self._table_content = self.state.table_content()
        return self._table_content

    def timeline(self) -> list[dict[str, object]]:
        """Returns a finished game's scores over time (worked out once)."""
        if self._timeline is None:
            self._timeline = score_timeline(self.game, self.game_record())
        return self._timeline

    async def broadcast(self, skip: Listener | None = None, local: bool = False) -> None:
        """Sends every listener (but ``skip``) its own view (only the log entries it does not have yet);
        each view is built and encoded once for all the listeners of one seat that have the same log.
        A cluster's owner then tells the other nodes, unless ``local`` (a change only of who is
        connected: the nodes tell each other that themselves)."""
        made: dict[tuple[int | None, int], str] = {}
        for listener in list(self.listeners):
            if listener is skip:
                continue
            key = (listener.seat, listener.seen)
            if key not in made:
                made[key] = encode(self.view(listener.seat, listener.seen, full=False))
            listener.seen = len(self.log)
            listener.put(made[key])
            if listener.gone.is_set():
                self.listeners.discard(listener)  # a client that reads nothing is dropped, not waited for
        if self.relay is not None and not self.passive and not local:
            self.relay.changed(self)

    # ----------------------------------------------------------------- moves
    async def act(
        self,
        seat: int,
        text: object,
        version: object = None,
        note: str | None = None,
        automatic: bool = False,
        generation: int | None = None,
        queued: bool = False,
    ) -> int:
        """Applies a move for ``seat`` if it is legal now; returns the new version; refuses with a reason.
        ``queued``: a typed pass that waited for its window's answers (a person's, not automatic)."""
        if not isinstance(text, str) or not text or len(text) > 200:
            raise Refusal(400, "an action is a text of 1 to 200 characters")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise Refusal(400, "version must be a whole number")
        self.check_played()
        if not automatic and not queued and text.strip() == PASS_TEXT:
            waiting = self._queue_pass(seat, version)
            if waiting is not None:
                return await asyncio.shield(waiting)  # a client gone meanwhile does not take its pass back
            await self._pace_pass()
        async with self.lock:
            if generation is not None and generation != self._generation:
                raise Refusal(409, "the seat's settings changed while the move was planned")
            new_version = await self._accept(seat, text, version, note, automatic)
        await self.broadcast()
        self.schedule()
        self._notify(None if automatic else seat)
        return new_version

    def _queue_pass(self, seat: int, version: int | None) -> asyncio.Future[int] | None:
        """In a window asking several seats at once, a pass typed before the answers land waits for
        them: every pass then lands together in the asked order, so neither its time nor its place
        tells whether the seat could have played (docs/security.md). Returns the future of its
        version, or None where the pass goes the usual way."""
        if self.window_base is None or not self.watched():
            return None
        if self.clock.now() >= self.opened + self.timing.pass_delay:
            return None
        if seat not in self.state.deciders():
            return None  # refused the usual way
        if (
            version is not None
            and version != self.record.version
            and not self._same_window(PASS_TEXT, version)
        ):
            raise Refusal(
                409, f"the table has moved on: it is at version {self.record.version}", self.record.version
            )
        if seat in self.queued:
            raise Refusal(409, "your pass is already waiting for the window's answers")
        self.queued[seat] = asyncio.get_running_loop().create_future()
        self.schedule()
        return self.queued[seat]

    def drop_queue(self, why: str) -> None:
        """Refuses every pass still waiting (its window closed before it landed)."""
        for future in self.queued.values():
            if not future.done():
                future.set_exception(Refusal(409, why, self.record.version))
        self.queued.clear()

    async def _pace_pass(self) -> None:
        """Holds a typed pass until the pass delay since the decision opened (as an automatic one)."""
        if self.state.passing_window() and self.watched():
            wait = self.opened + self.timing.pass_delay - self.clock.now()
            if wait > 0:
                await asyncio.sleep(wait)

    async def _accept(
        self, seat: int, text: str, version: int | None, note: str | None, automatic: bool
    ) -> int:
        """Checks, applies to a copy, commits, then adopts the move (the caller holds the lock)."""
        record = self.record
        self.check_owned()
        self.check_played()
        if version is not None and version != record.version and not self._same_window(text, version):
            raise Refusal(409, f"the table has moved on: it is at version {record.version}", record.version)
        if self.state.is_over():
            raise Refusal(422, "the game is over")
        try:
            action = self.state.parse_action(text)
        except ParlourError as err:
            raise Refusal(422, str(err)) from None
        trial = self.state.clone()
        turn, turn_player = trial.turns_played(), trial.turn_player()
        try:
            events = trial.apply(action, seat)  # the engine's one legality check, on the copy
        except IllegalActionError as err:
            raise Refusal(422, str(err)) from None
        now = self.clock.now()
        continuing = self._continues_window(seat, text, trial)
        opened = self.opened if continuing else now
        passed_on = self.state.passing_window() and trial.passing_window() and text.strip() == PASS_TEXT
        window_opened = self.window_opened if passed_on else opened
        # A card played or an offer made in a window is read at a move's pace; passes need one short pause.
        window_pace = self.window_pace if passed_on else self._pace_after(text)
        move = MoveRecord(record.version + 1, seat, trial.format_action(action), [], now, note)
        # The new table fields go to storage first; the live table adopts them only once committed,
        # so no view ever shows a version whose move is not in the log.
        pending = dataclasses.replace(record, seats=[dataclasses.replace(s) for s in record.seats], moves=[])
        pending.version += 1
        if not automatic or note is not None:  # a person's own time, or the clock running out
            passing = self.state.passing_window() and text.strip() == PASS_TEXT
            self._charge_clock(pending.seats[seat], now, self.timing.pass_delay if passing else 0.0)
            self._charge_away(pending.seats[seat], now)
        if note == CLOCK_NOTE:
            pending.seats[seat].timeouts += 1
        if trial.is_over():
            pending.status, pending.scores = "over", list(trial.scores())
            pending.ranks = list(trial.ranking())
        pending.deadline = self._deadline(trial, opened, pending.seats)
        pending.asked = asked_seats(trial)
        try:
            changed = zip(pending.seats, record.seats, strict=True)
            clocks = [new.seat for new, old in changed if _clock(new) != _clock(old)]
            await self.store.write(self.store.add_move, pending, move, clocks, table=record.id)
        except Stale:
            raise await self._stale() from None
        except Exception:
            LOG.exception("could not store a move of table %s", record.id)
            raise Refusal(503, "the move could not be saved; try again") from None
        record.version, record.status, record.scores = pending.version, pending.status, pending.scores
        record.revision = pending.revision
        record.ranks, record.asked = pending.ranks, pending.asked
        if record.status == "over" and record.rated:
            await self._rate()
        record.deadline = pending.deadline
        for live, stored in zip(record.seats, pending.seats, strict=True):
            live.time_left, live.away_left = stored.time_left, stored.away_left
            live.timeouts = stored.timeouts
        self.state, self.opened, self.window_opened, self.window_pace = (
            trial,
            opened,
            window_opened,
            window_pace,
        )
        self.log.add(seat, move.action, events, turn, turn_player)
        record.moves.append(move)
        if note:
            self.notes[move.number] = note
        own = self.queued.pop(seat, None) if text.strip() == PASS_TEXT else None
        if own is not None and not own.done():
            own.set_result(record.version)  # the seat's waiting pass is in (landed now, or by a stand-in)
        if not continuing:  # a new decision: a new window (or none), and no pass waits for the old one
            self.window_base = record.version if _asks_several(trial) else None
            self.drop_queue("the window closed before your pass landed")
        return record.version

    async def _rate(self) -> None:
        """Rates the finished table (ratings.py: once, in its own transaction); a failure is logged and
        left to the next start's ``rate_pending``, never to the move."""
        try:
            # The first lane, not the table's: two tables rating one identity (a bot's) must not
            # read and write its rating at once (ratings.py reads, then writes back).
            await self.store.write(rate_table, self.store.engine, self.record.id)
        except Exception:
            LOG.exception("could not rate table %s (the next start tries again)", self.record.id)

    def _same_window(self, text: str, version: int) -> bool:
        """Returns whether a pass sent against ``version`` was meant for the window open now (the
        others' passes that landed since change nothing for it)."""
        base = self.window_base
        return base is not None and text.strip() == PASS_TEXT and base <= version <= self.record.version

    def _continues_window(self, seat: int, text: str, trial: GameState) -> bool:
        """Returns whether this move is a pass that leaves the window asking several seats open for
        the others (its answers keep the window's time)."""
        if self.window_base is None or text.strip() != PASS_TEXT or not trial.passing_window():
            return False
        left = set(trial.deciders())
        return bool(left) and left == set(self.state.deciders()) - {seat}

    # ----------------------------------------------------------------- clocks
    def _charge_clock(self, stored: SeatRecord, now: float, free: float = 0.0) -> None:
        """Takes the time a person spent on this decision off their game clock (not a stand-in's),
        but its first ``free`` seconds: a pass in a window costs only the time beyond the pass delay,
        so a typed quick pass costs what an auto-pass does (nothing) and the public clocks tell nothing."""
        if stored.kind == "human" and stored.stand_in is None and stored.time_left is not None:
            stored.time_left = max(0.0, stored.time_left - max(0.0, now - self.opened - free))

    def _charge_away(self, stored: SeatRecord, now: float) -> None:
        """Takes the time a person of a turn-based table spent on a move beyond its allowance off
        their away reserve (a reaction window has only its own time)."""
        allowed = self._allowance(self.state)
        if self.state.passing_window() or allowed is None:
            return
        if stored.kind == "human" and stored.away_left is not None:
            stored.away_left = max(0.0, stored.away_left - max(0.0, now - self.opened - allowed))

    def _allowance(self, state: GameState) -> float | None:
        """Returns a turn-based table's time for the decision open in ``state``: a reaction window's
        own (``window_seconds``) or a move's (None: a live table)."""
        if self.record.pace != "turn-based":
            return None
        window = self.record.window_seconds
        return window if window is not None and state.passing_window() else self.record.move_seconds

    def _deadline(self, state: GameState, now: float, seats: list[SeatRecord] | None = None) -> float | None:
        """Returns when the clock of the person now asked runs out (None: no clock, or nobody asked).
        It depends on public facts only (who is asked, the public clocks), and in a watched window it
        is never sooner than the pass delay, when a quick pass would land (docs/security.md)."""
        seats = seats if seats is not None else self.record.seats
        if state.is_over():
            return None
        humans = [s for s in state.deciders() if self._is_person(s)]
        if not humans:
            return None
        allowed = self._allowance(state)
        if allowed is not None:  # a turn-based table: a move may draw on the away reserve, a window not
            reserve = 0.0 if state.passing_window() else seats[humans[0]].away_left or 0.0
            return self._not_before_passes(state, now, now + allowed + reserve)
        limits = []
        if self.record.move_seconds is not None:
            limits.append(self.record.move_seconds)
        left = seats[humans[0]].time_left
        if left is not None:
            limits.append(left)
        return self._not_before_passes(state, now, now + min(limits)) if limits else None

    def _not_before_passes(self, state: GameState, now: float, deadline: float) -> float:
        """Returns a deadline moved to no sooner than the pass delay in a watched reaction window: the
        clock's pass never lands before a quick one would, whatever the person holds."""
        if state.passing_window() and self.watched():
            return max(deadline, now + self.timing.pass_delay)
        return deadline

    # ----------------------------------------------------------------- a rematch's accepts
    def unplayed(self) -> bool:
        """Returns whether the table is not in play: a rematch waiting for its persons to accept, or
        one a person declined (rematch.py). Nothing moves there and no clock runs."""
        return self.record.status in (WAITING, DECLINED)

    def check_owned(self) -> None:
        """Refuses (503) a change at a copy of a table another node owns (it moved there meanwhile), or
        while this node's lease may have run out unnoticed (its last renewal is too old)."""
        if self.passive or (self.lease_held is not None and not self.lease_held()):
            raise Refusal(503, "the table moved to another server: try again")

    async def save(self) -> None:
        """Stores the table's status, clocks and seats (no move) the caller changed, holding the lock;
        if another node wrote the table meanwhile, nothing is stored: the table is read again and the
        change refused (Stale's refusal)."""
        try:
            await self.store.write(self.store.update, self.record, table=self.record.id)
        except Stale:
            raise await self._stale() from None

    async def _stale(self) -> Refusal:
        """After a write refused because the stored table moved on (another node wrote it): reads the
        table again (the caller holds the lock) and returns the refusal to give."""
        LOG.warning("table %s was written by another server: read again", self.record.id)
        known = self.record.version
        record = await asyncio.to_thread(self.store.load, self.record.id)
        if record is not None:
            self.drop_queue("the table moved on at another server")
            self.adopt(record)
        if self.record.version == known:  # the lease is another node's: the change goes there
            return Refusal(503, "the table moved to another server: try again")
        return Refusal(
            409, f"the table moved on: it is at version {self.record.version}", self.record.version
        )

    def check_played(self) -> None:
        """Refuses (409) anything that needs the game in play at a rematch not in play, naming who is
        still to accept or who declined."""
        if self.unplayed():
            names = [self.state.seat_name(s) for s in range(self.record.players)]
            raise Refusal(409, waiting_text(self.record, names))

    def start(self, now: float) -> None:
        """Adopts a rematch's start (its last accept, stored): the first decision opens now (the
        caller holds the lock and has stored the status and deadline)."""
        self.opened = self.window_opened = now
        self.window_base = self.record.version if _asks_several(self.state) else None

    async def began(self, by: int) -> None:
        """After a rematch's start: tells the table, plans its first automatic move and notifies the
        persons asked now (but ``by``, whose accept started it: they know)."""
        await self.broadcast()
        self.schedule()
        self._notify(by)

    def _is_person(self, seat: int) -> bool:
        """Returns whether a person (not a bot, not a stand-in) plays the seat now."""
        stored = self.record.seats[seat]
        return stored.kind == "human" and stored.stand_in is None

    def unseen_asked(self) -> tuple[int, ...]:
        """Returns the persons' seats asked now that no connection of their own shows it and whose
        setting does not answer for them: whom a notification is for (queued, and checked again when
        it is sent: notify/deliver.py)."""
        if self.state.is_over() or self.unplayed():
            return ()  # a rematch waiting for its accepts asks nobody (ruling S-3)
        connected = self.connected()
        return tuple(
            seat
            for seat in self.state.deciders()
            if self._is_person(seat)
            and seat not in connected
            and not self._ask(seat).passes_for(self.state, seat)
        )

    def _notify(self, mover: int | None) -> None:
        """Queues notifications (notify/) for the persons asked now whom no connection of their seat
        shows it and whose setting does not answer for them, but the ``mover`` (who just moved, and so
        knows); in the background, never in the move's way."""
        asked = tuple(seat for seat in self.unseen_asked() if seat != mover)
        if asked:
            kind = "window" if self.state.passing_window() else "turn"
            notify_asked(self.store, Asked(self.record.id, self.game.title, asked, kind), self.clock.now())

    # ----------------------------------------------------------------- the auto policy
    def schedule(self) -> None:
        """Plans the next automatic move: a bot's, an auto-pass, or the clock's. A plan already under
        way for the same move (same version, seat, mover and time) is kept, so a setting changed back
        and forth never starts a bot's search again."""
        if self.passive:
            return  # the owner plans the table's automatic moves
        plan = None if self.state.is_over() or self.unplayed() else self._plan()
        if plan is not None and plan.mover == "clock":
            plan = None  # the scheduler acts on the stored deadline (scheduler.py, run_out)
        key = None if plan is None else (self.record.version, plan.seat, plan.note, plan.mover, plan.when)
        if key is not None and key == self._planned and self._task is not None and not self._task.done():
            return
        self._generation += 1
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task, self._planned = None, key
        if plan is not None:
            self._task = asyncio.get_running_loop().create_task(self._run(self._generation, plan))

    def resume(self) -> None:
        """After a restart: at a live table the decision open now begins afresh (the downtime is
        nobody's thinking time); a turn-based table keeps its stored deadline (hours, not seconds: a
        restart takes nothing from anyone). Its automatic moves are planned again."""
        if self.record.pace != "turn-based" or self.record.deadline is None:
            self.opened = self.window_opened = self.clock.now()
            self.window_pace = self.timing.think  # people take the table up again: a move's pace
            self.record.deadline = self._deadline(self.state, self.opened)
        self.window_base = self.record.version if _asks_several(self.state) else None
        self.schedule()

    async def run_out(self, version: int) -> bool:
        """The scheduler's door (scheduler.py): the deadline of the person asked at ``version`` has
        passed, so the auto policy moves for them (a pass where legal, else the clock bot), noted "the
        clock ran out". Nothing happens if the table moved on, the deadline moved, or an automatic move
        of the table's own (a bot's, a pass at its time) comes first. Returns whether it moved."""
        if version != self.record.version or self.state.is_over() or self.unplayed():
            return False
        deadline = self.record.deadline
        if deadline is None or deadline > self.clock.now():
            return False
        plan = self._plan()
        if plan is None or plan.mover != "clock":
            return False
        generation = self._generation
        text = plan.choose()
        if asyncio.isfuture(text) or asyncio.iscoroutine(text):
            text = await text
        await self.act(plan.seat, text, version, plan.note, automatic=True, generation=generation)
        return True

    def _plan(self) -> Plan | None:
        """Returns the next automatic move, if any. In a window asking several seats at once, bots
        answer first (at their pace, in the asked order), then every person's pass that is ready (an
        auto-pass, a typed pass waiting) lands at the window's ``answer_at`` in the asked order: neither
        the time nor the place of a pass depends on whether its seat could have played."""
        several = self.window_base is not None
        if self.state.passing_window():
            paced = self.window_opened + self.window_pace
        else:
            paced = self.opened + self.timing.think
        for seat in self.state.deciders():
            bot = self._bot_of(seat)
            if bot is not None:
                return Plan(paced, seat, self._bot_choice(seat, bot), bot)
            if self._is_person(seat) and self._ask(seat).mode == "never" and self.state.passing_window():
                return Plan(self._never_at(seat, paced), seat, _pass, "never")  # blind to the hand
            if not several:
                found = self._auto_pass(seat)
                if found is not None:
                    return found
        for seat in self.state.deciders() if several else ():
            found = self._auto_pass(seat)
            if found is not None:
                return found
        if self.record.deadline is not None:
            seat = next(s for s in self.state.deciders() if self._is_person(s))
            return Plan(self.record.deadline, seat, self._clock_choice(seat), "clock", CLOCK_NOTE)
        return None

    def _bot_of(self, seat: int) -> str | None:
        """Returns the bot playing ``seat`` now (its own, or a stand-in), if any."""
        stored = self.record.seats[seat]
        return stored.bot if stored.kind == "bot" else stored.stand_in

    def watched(self) -> bool:
        """Returns whether anyone but the one person at the table could watch its pace: it has a
        spectators' link, or two people. Only then do passes wait for the pass delay (docs/security.md,
        "A table nobody watches")."""
        return self.record.spectators or sum(s.kind == "human" for s in self.record.seats) > 1

    def _answer_at(self) -> float:
        """Returns when a person's pass in the window open now lands (made by a setting, or typed
        sooner): the pass delay after the seat was asked, or, where nobody else watches, the bots'
        pace (docs/security.md, ruling S-1)."""
        if self.watched():
            return self.opened + self.timing.pass_delay
        return self.window_opened + self.window_pace

    def _never_at(self, seat: int, paced: float) -> float:
        """Returns when a "never" setting's pass lands: at the bots' pace (it does not look at the hand),
        but no sooner than a quick typed pass where the seat chose "never" while asked at a watched
        table (a pass at once would show the change of mind, likely over a card)."""
        if self.watched() and self._ask_changed.get(seat, 0.0) >= self.opened:
            return max(paced, self.opened + self.timing.pass_delay)
        return paced

    def _pace_after(self, text: str) -> float:
        """Returns the pause before the answers to the decision a move opens, if a window: a move's
        pace after a move made inside a window (not a pass), else the short window pause."""
        inside = self.state.passing_window() and text.strip() != PASS_TEXT
        return self.timing.think if inside else self.timing.window_pause

    def _ask(self, seat: int) -> AskMe:
        """Returns the seat's reaction-window setting."""
        return AskMe.from_text(self.record.seats[seat].ask)

    def _auto_pass(self, seat: int) -> Plan | None:
        """Returns the pass of a person's seat that is ready to land (typed and waiting, or made by its
        setting), ``pass_delay`` after the seat was asked: when a quick typed pass would land."""
        answer_at = self._answer_at()
        if seat in self.queued:
            return Plan(answer_at, seat, _pass, "typed")
        if self._ask(seat).passes_for(self.state, seat):
            return Plan(answer_at, seat, _pass, "auto-pass")
        return None

    def _bot_choice(self, seat: int, bot: str) -> Callable[[], object]:
        """Returns an awaitable-making callable: the bot's move, computed in the worker pool."""
        position = self.state.to_position()
        # From the table's secret seed: nobody can foresee a bot's choices from the public table id.
        key = str(self.record.seed).encode()
        seed = int.from_bytes(hmac.digest(key, f"bot:{self.record.version}".encode(), "sha256")[:4])

        def choose() -> object:
            loop = asyncio.get_running_loop()
            return loop.run_in_executor(
                self.pool, choose_in_worker, self.record.game, position, bot, seed, seat
            )

        return choose

    def _clock_choice(self, seat: int) -> Callable[[], object]:
        """Returns the move made for a person whose clock ran out: a pass where legal, else the clock bot."""
        legal = [self.state.format_action(a) for a in self.state.legal_actions(seat)]
        if PASS_TEXT in legal:
            return lambda: PASS_TEXT
        return self._bot_choice(seat, self.timing.clock_bot)

    async def _run(self, generation: int, plan: Plan) -> None:
        """Waits until the plan's time, makes its move and applies it, unless the table moved on."""
        try:
            # The choice first, then the wait: a move lands at ``when`` however long the bot took.
            text = plan.choose()
            if asyncio.isfuture(text) or asyncio.iscoroutine(text):
                text = await text
            wait = plan.when - self.clock.now()
            if wait > 0:
                await asyncio.sleep(wait)
            if generation != self._generation:
                return
            version = self.record.version
            self._task = None  # this move's own schedule() must not cancel the task making it
            if plan.mover == "typed":
                await self._land_queued(plan.seat, version)
            else:
                await self.act(plan.seat, text, version, plan.note, automatic=True, generation=generation)
        except asyncio.CancelledError:
            raise
        except Refusal as refusal:
            LOG.info("automatic move at table %s dropped: %s", self.record.id, refusal.message)
        except RuntimeError as err:  # the bots' pool shut down under a move (the server is stopping)
            LOG.info("automatic move at table %s not made: %s", self.record.id, err)
        except Exception:
            LOG.exception("automatic move at table %s failed", self.record.id)

    async def _land_queued(self, seat: int, version: int) -> None:
        """Lands a typed pass that waited for its window's answers (``_accept`` answers its sender with
        the new version); a refusal is passed on to the sender. No setting changed meanwhile undoes it."""
        future = self.queued.get(seat)
        try:
            await self.act(seat, PASS_TEXT, version, queued=True)
        except Refusal as refusal:
            if future is not None and not future.done() and self.queued.get(seat) is future:
                del self.queued[seat]
                future.set_exception(refusal)
            raise

    # ----------------------------------------------------------------- seat settings
    def _drop_plan_of(self, seat: int) -> None:
        """Cancels the planned automatic move if it is ``seat``'s (its setting is changing): even a
        move already chosen and waiting for the lock will not land (the caller holds the lock)."""
        if self._planned is not None and self._planned[1] == seat:
            self._generation += 1
            self._planned = None

    async def set_auto_pass(self, seat: int, on: object) -> None:
        """The older switch: on is the setting "playable" (pass where I may only pass), off "always"."""
        if not isinstance(on, bool):
            raise Refusal(400, 'auto_pass needs "on": true or false')
        if on and self.slow():
            raise Refusal(400, "at a turn-based table others watch, a window setting is 'always' or 'never'")
        await self._store_ask(seat, AskMe("playable" if on else "always"))

    async def set_ask(self, seat: int, mode: object, cards: object) -> None:
        """Sets when a person's seat is asked in reaction windows (asking.AskMe); refuses a bad setting."""
        try:
            ask = check_ask(mode, cards, self.reaction_cards())
            if self.slow():
                slow_modes_only(ask.mode)
        except AskError as err:
            raise Refusal(400, str(err)) from None
        await self._store_ask(seat, ask)

    def slow(self) -> bool:
        """Returns whether the table is turn-based and watched: its settings may not look at the hand
        (ruling S-2)."""
        return self.record.pace == "turn-based" and self.watched()

    async def _store_ask(self, seat: int, ask: AskMe) -> None:
        """Stores a seat's setting, dropping a pass it had planned, and tells the table."""
        async with self.lock:
            self.check_owned()
            if ask.to_text() != self.record.seats[seat].ask:
                self._drop_plan_of(seat)
                self._ask_changed[seat] = self.clock.now()
            self.record.seats[seat].ask = ask.to_text()
            await self.save()
        await self.broadcast()
        self.schedule()

    async def set_name(self, seat: int, text: object) -> None:
        """Gives a person's seat the name they typed (public: everyone at the table sees it)."""
        name = check_name(text)
        if self.state.is_over():
            raise Refusal(409, "the game is over: its names stay as they were")
        async with self.lock:
            self.check_owned()
            self.record.seats[seat].name = name
            await self.save()
        await self.broadcast()

    async def set_stand_in(self, by: int, seat: object, bot: object) -> None:
        """Puts a bot in for a person who left (any person at the table may), or gives the seat back
        to its person (only that person: ``bot`` null)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.record.players:
            raise Refusal(400, f"seat must be 0 to {self.record.players - 1}")
        stored = self.record.seats[seat]
        if stored.kind != "human":
            raise Refusal(422, f"seat {seat} is a bot's")
        self.check_played()
        if bot is None:
            if by != seat:
                raise Refusal(403, "only the seat's own person takes it back")
            if stored.replaced:
                raise Refusal(409, "the others voted a bot in for your seat for the rest of the game")
        else:
            check_bot(self.game, bot, len(self.record.seats))
            if by != seat:
                self._check_away(seat)
        async with self.lock:
            self.check_owned()
            stored.stand_in = None if bot is None else str(bot)  # check_bot refused any other value
            self.replan_seat(seat)
            await self.save()
        await self.broadcast()
        self.schedule()

    def replan_seat(self, seat: int) -> None:
        """After a seat changed hands (a stand-in in or out): drops its planned move and works the
        deadline out again (the caller holds the lock and stores the record)."""
        self._drop_plan_of(seat)
        self.record.deadline = None if self.unplayed() else self._deadline(self.state, self.opened)

    def admit(self, listener: Listener) -> None:
        """Adds a connection: a spectator within the spectators' budget (else 503); a seat always, its
        oldest connection closed (4409) when it holds MAX_SEAT_CONNECTIONS already."""
        if listener.seat is None:
            if sum(other.seat is None for other in self.listeners) >= MAX_SPECTATORS:
                raise Refusal(503, f"this table has {MAX_SPECTATORS} spectators already")
        else:
            own = [other for other in self.listeners if other.seat == listener.seat]
            if len(own) >= MAX_SEAT_CONNECTIONS:
                oldest = min(own, key=lambda other: other.joined)
                oldest.close_code = 4409
                oldest.gone.set()
                self.listeners.discard(oldest)
        self.listeners.add(listener)
        if listener.seat is not None and self.relay is not None:
            self.relay.presence(self)

    async def chat(self, seat: int | None, text: str) -> None:
        """Stores a chat line and sends it to everyone; spectators within the table's budgets (else 429),
        so that they can never crowd its players out of their own chat."""
        if self._chat_stored is None:
            self._chat_stored = await asyncio.to_thread(self.store.chat_count, self.record.id)
        if seat is None and self._chat_stored >= MAX_STORED_CHAT:
            raise Refusal(429, f"this table's chat is full ({MAX_STORED_CHAT} lines)")
        if seat is None and not self.chat_bucket.take():
            raise Refusal(429, "the table's chat is busy: slow down")
        self._chat_stored += 1
        at = await self.store.write(self.store.add_chat, self.record.id, seat, text, table=self.record.id)
        line = encode({"type": "chat", "seat": seat, "text": text, "at": at})
        self.tell(line)
        if self.relay is not None:
            self.relay.chat(self, line)

    def tell(self, line: str) -> None:
        """Sends an encoded message (a chat line) to every connection."""
        for listener in list(self.listeners):
            listener.put(line)

    def _check_away(self, seat: int) -> None:
        """Refuses a bot for another person's seat unless that person is away: without a connection for
        the grace period, or asked and silent for ``Timing.away`` seconds (a table without a clock
        must not wait for ever; the person takes the seat back on return)."""
        now = self.clock.now()
        if self.record.seats[seat].timeouts >= TIMEOUTS_AWAY:
            return  # a person whose clock ran out again and again may be replaced (for a while)
        if seat in self.connected():
            silent = now - self.opened
            if seat not in self.state.deciders() or silent < self.timing.away:
                wait = f"{self.timing.away:.0f} s"
                raise Refusal(422, f"seat {seat} is here: a bot may play for it once it was asked {wait} ago")
            return
        left = now - self.left.get(seat, self.loaded)
        if left < self.timing.grace:
            raise Refusal(
                422, f"seat {seat} left {left:.0f} s ago: wait {self.timing.grace:.0f} s, it may be reloading"
            )

    def leave(self, listener: Listener) -> None:
        """Forgets a connection; notes when a person's seat is left with none."""
        self.listeners.discard(listener)
        if listener.seat is not None and listener.seat not in self.connected():
            self.left[listener.seat] = self.clock.now()
        if listener.seat is not None and self.relay is not None:
            self.relay.presence(self)

    def close(self) -> None:
        """Stops the table's planned automatic move."""
        self._generation += 1
        if self._task is not None:
            self._task.cancel()


@dataclass(frozen=True)
class Plan:
    """The next automatic move: when it lands, whose it is, how it is chosen, who moves, and its note."""

    when: float
    seat: int
    choose: Callable[[], object]
    mover: str
    """A bot's name, "auto-pass", "never" (a person's setting), "typed" (a person's pass waiting for
    its window) or "clock"."""
    note: str | None = None


def _pass() -> str:
    """Returns the pass (an auto-pass's or a waiting typed pass's choice)."""
    return PASS_TEXT


def _clock(seat: SeatRecord) -> tuple[float | None, float | None, int]:
    """Returns what a move may change of a seat's row: its clock, its away reserve, its timeouts."""
    return seat.time_left, seat.away_left, seat.timeouts


def _asks_several(state: GameState) -> bool:
    """Returns whether the decision open is a reaction window asking several seats at once."""
    return not state.is_over() and state.passing_window() and len(state.deciders()) > 1


def new_token() -> str:
    """Returns an unguessable token for a seat link."""
    return secrets.token_urlsafe(24)
