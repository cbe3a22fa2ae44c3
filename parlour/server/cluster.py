"""A node of a cluster: several ``parlour serve`` over one PostgreSQL and one Redis (docs/cluster.md).

Each table in play is owned by one node, by lease (leases.py): only the owner applies its moves and
runs its clocks and bots. Every ``RENEW`` seconds a node renews its leases, gives up those of finished
tables, takes over the tables whose lease ran out (a killed node's) and reads again the tables it shows
whose stored version is ahead of its copy (an update lost on the way). Through Redis pub/sub:

- ``parlour:tables``: after each committed change the owner publishes the table's id and version (never
  a view, never a card); a node showing that table reads it from the database and sends each of its
  connections its own seat's view. Chat lines go the same way (they are public to the table).
- ``parlour:node:HOLDER``: a seat's order (orders.py) that reached a node not owning the table goes to the
  owner's channel; the owner carries it out and answers on the asker's channel with the new version or
  the refusal. No answer within ``FORWARD_SECONDS``: a clear refusal (the table shows what landed).

Redis loses messages to a subscriber that is away; no move depends on one arriving: the database is
the truth, the renewal's catch-up reads a table again whose version moved on, and a client seeing a
gap asks for the view. A change that keeps the version (a name, a stand-in) may be missed by a copy
until the next move (docs/cluster.md, Limits).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import os
import secrets
import signal
from pathlib import Path
from typing import Any

from parlour.server.clock import Clock
from parlour.server.hall import Hall
from parlour.server.leases import (
    BATCH,
    LEASE,
    RENEW,
    orphans,
    owner_of,
    release,
    release_former,
    renew,
    revisions,
    take,
)
from parlour.server.orders import ORDERS, carry_out
from parlour.server.polling import Poller
from parlour.server.rematch import DECLINED, WAITING
from parlour.server.sockets import MAX_CHAT
from parlour.server.tables import LiveTable, Refusal, encode

LOG = logging.getLogger("parlour.server")
UPDATES = "parlour:tables"
"""The channel every node hears: tables' new versions and chat lines."""
FORWARD_SECONDS = 10.0
"""How long a forwarded order waits for the owner's answer (a pass may wait for its window first)."""
ORDER_FIELDS = ("action", "version", "mode", "cards", "on", "seat", "bot", "text")
"""The fields of a seat's message an order carries to the owner (the others are dropped)."""
MAX_OWNERS_KNOWN = 10_000
"""The most tables whose owner a node remembers for its forwarded orders (the oldest forgotten first)."""
RECONNECT = 1.0
"""How long a node waits before subscribing again after losing Redis (seconds)."""
REDIS_TIMEOUT = 5.0
"""How long a Redis connection or command may take before it fails (seconds): a Redis that stopped
answering costs a forwarded order or a publish that long, never a stuck node."""
HEALTH_SECONDS = 10.0
"""How often an idle connection to Redis is checked with a PING (seconds)."""
LISTEN_WAIT = 1.0
"""How long one read of the subscription waits before it looks again (seconds)."""
PUBLISH_BATCH = 200
"""The most queued messages published in one round trip to Redis."""
MAX_OUTGOING = 10_000
"""The most messages waiting for Redis; beyond it one is dropped with a log line (the database is the
truth: the other nodes' catch-up reads the tables again)."""


MAX_MESSAGE = 64 * 1024
"""The longest message a node reads from Redis (bytes); a longer one is dropped unread."""
MAX_SERVING = 256
"""The most forwarded orders a node carries out at once; beyond, it answers 503 at once."""
ALIVE_SECONDS = 3 * RENEW
"""How long a node's claim of its id on Redis lasts without renewal (seconds): a node killed and started
again under its id waits at most this long for its former life's claim to run out."""
CLAIM = """
local held = redis.call('get', KEYS[1])
if not held then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if held == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
"""Claims a node's id (SET … PX if nobody holds it) or renews our own claim; 0 if another instance
holds it (KEYS[1] the key, ARGV[1] our instance's token, ARGV[2] the claim's length in milliseconds)."""
LET_GO = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""
"""Deletes a node's id claim if it is still ours."""


class NodeIdTaken(Exception):
    """Another running node holds this node's id on the Redis (two nodes under one id would renew the
    same leases)."""


def alive_key(node: str) -> str:
    """Returns the Redis key that says a node runs under this id (its value one instance's token)."""
    return f"parlour:node:{node}:alive"


def instance_token() -> str:
    """Returns a new instance's token for its id's claim: this machine's boot and process namespace, its
    process id, and random bytes, so a node started again on the same machine sees its former life is
    gone (``former_life_gone``) instead of waiting for the claim to run out."""
    return f"{_machine()}/{os.getpid()}/{secrets.token_hex(8)}"


def former_life_gone(held: str) -> bool:
    """Returns whether a claim's token names a process of this machine (the same boot, the same process
    namespace) that no longer runs: a killed node's, whose claim may be dropped at once. Any doubt (a
    token from another machine or an older Parlour, a process that runs, this very process): False."""
    parts = held.split("/")
    if len(parts) != 3 or not parts[1].isdigit() or parts[0] != _machine() or parts[0] == UNKNOWN_MACHINE:
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's process: it runs
        return False
    return False


UNKNOWN_MACHINE = "unknown"


def _machine() -> str:
    """Returns this machine's boot and process namespace as a short digest ("unknown" where the system
    does not tell: then no claim is ever judged gone)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
        space = os.readlink("/proc/self/ns/pid")
    except OSError:
        return UNKNOWN_MACHINE
    return hashlib.sha256(f"{boot} {space}".encode()).hexdigest()[:16]


async def drop_former_life(redis: Any, node: str) -> bool:
    """Drops the claim of ``node``'s id if a former life on this machine holds it (its process is gone);
    returns whether it did."""
    held = await redis.get(alive_key(node))
    text = held.decode(errors="replace") if isinstance(held, bytes) else str(held or "")
    return bool(text) and former_life_gone(text) and bool(await redis.eval(LET_GO, 1, alive_key(node), text))


def taken_line(node: str) -> str:
    """Returns the one line that refuses to start a second node under a running node's id."""
    return f"another node runs as {node} on this Redis"


def node_channel(holder: str) -> str:
    """Returns the channel a running node (by its holder name) hears its forwarded orders and their
    answers on."""
    return f"parlour:node:{holder}"


HOLDER_SUFFIX = 9
"""The characters a holder name adds to its node id: "~" and 8 hexadecimal digits."""
MAX_HOLDER = 64
"""The longest holder name (the leases' owner column)."""


def holder_name(node: str) -> str:
    """Returns a new running instance's name in the leases and on Redis: its node id, "~" and random
    hexadecimal digits (a node id has no "~")."""
    return f"{node}~{secrets.token_hex((HOLDER_SUFFIX - 1) // 2)}"


def node_of(holder: str) -> str:
    """Returns the node id a holder name (or a bare node id) stands for."""
    return holder.split("~", 1)[0]


class Node(Poller):
    """This server as one node of a cluster: leases, fan-out and forwarding (see the module)."""

    what = "the cluster's lease renewal"

    def __init__(
        self,
        hall: Hall,
        redis_url: str,
        node_id: str,
        clock: Clock,
        lease: float = LEASE,
        renew_every: float = RENEW,
        token: str | None = None,
        alive: float | None = None,
        holder: str | None = None,
    ) -> None:
        super().__init__()
        self.hall, self.url, self.id, self.clock = hall, redis_url, node_id, clock
        self.lease, self.poll = lease, renew_every
        self.token = token or instance_token()
        """This instance's claim of its id on Redis (the command line may have claimed it already)."""
        if len(node_id) + HOLDER_SUFFIX > MAX_HOLDER:
            raise ValueError(f"a node id is at most {MAX_HOLDER - HOLDER_SUFFIX} characters")
        self.holder = holder or holder_name(node_id)
        """This instance's name in the leases and on Redis (its node id and a suffix of its own): a
        node cut off from Redis whose id another instance took cannot go on renewing the leases."""
        self.id_held: float | None = None
        """When this instance last held its id's claim on Redis (the event loop's clock; None: not yet)."""
        self.alive = alive if alive is not None else 3 * renew_every
        """How long the claim lasts without renewal (seconds)."""
        self.ousted = False
        """Whether another instance took this node's id: this one gave its tables up and stops."""
        self.exit_when_ousted = False
        """Whether an ousted node stops its process (SIGTERM to itself: a clean stop); a served app's."""
        self.rejected = 0
        """Messages from Redis dropped as malformed, too long or not what they claim to be."""
        self.serving = 0
        """Forwarded orders being carried out now (at most MAX_SERVING)."""
        self.redis: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._outgoing: asyncio.Queue[tuple[str, str]] = asyncio.Queue(MAX_OUTGOING)
        self.dropped = 0
        """Messages dropped because Redis could not take them fast enough."""
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._owners: dict[str, str] = {}
        """The owner each table's last forwarded order went to (dropped when it stops answering)."""
        self._refreshing: dict[str, bool] = {}
        """Tables being read again (True: another update came meanwhile, read once more)."""
        self._background: set[asyncio.Task[None]] = set()
        self.subscribed = asyncio.Event()
        self.taken = 0
        """Tables this node took over (from a node that stopped renewing, or nobody's)."""
        self.lost = 0
        """Tables whose lease this node renewed too late (another node took them)."""

    # ----------------------------------------------------------------- start and stop
    async def open(self) -> None:
        """Connects to Redis, hears its channels, becomes the hall's relay and forwarder, then starts
        renewing (its first look takes the tables nobody owns)."""
        import redis.asyncio as aioredis

        self.redis = aioredis.from_url(
            self.url,
            socket_connect_timeout=REDIS_TIMEOUT,
            socket_timeout=REDIS_TIMEOUT,
            socket_keepalive=True,
            health_check_interval=HEALTH_SECONDS,
        )
        try:
            await self._claim_id()
        except BaseException:  # the id is another's (or Redis failed): nothing of this node stays open
            with contextlib.suppress(Exception):
                await self.redis.aclose()
            self.redis = None
            raise
        hall = self.hall
        hall.node, hall.relay, hall.forward, hall.lease_seconds = self.holder, self, self.forward, self.lease
        store = hall.store
        store.node = self.holder  # its writes of a table's row need the table's lease
        hall.renewed = self.clock.now()  # no lease is held yet: each one taken from now runs longer
        # Leases under this id are a former life's (restarted, or cut off from Redis while its id's
        # claim ran out): this instance holds the id now, so they are free for the first look.
        await store.write(release_former, store.engine, self.id, self.holder)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]
        self._tasks.append(loop.create_task(self._keep_id()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.subscribed.wait(), 10.0)
        self.start()

    async def close(self) -> None:
        """Stops renewing and gives every lease up (after the hall stopped its tables), so the other
        nodes take the tables at their next look; then leaves Redis."""
        await self.stop()
        store = self.hall.store
        self.hall.owned.clear()  # nothing more is written here before another node may take them
        with contextlib.suppress(Exception):  # its holder's leases: nobody else's
            await store.write(release, store.engine, self.holder, None)
        await _cancelled(self._tasks)
        if self.redis is not None:
            if not self.ousted:
                with contextlib.suppress(Exception):
                    await self.redis.eval(LET_GO, 1, alive_key(self.id), self.token)
            with contextlib.suppress(Exception):
                await self.redis.aclose()

    # ----------------------------------------------------------------- this node's id
    async def _claim_id(self) -> None:
        """Claims this node's id on Redis, waiting up to its length for a former life's claim to run out;
        raises NodeIdTaken if another instance still holds it."""
        end = asyncio.get_running_loop().time() + self.alive
        while not await self._hold_id():
            if await drop_former_life(self.redis, self.id):
                continue  # a killed node's, on this machine: not waited for
            if asyncio.get_running_loop().time() >= end:
                self.ousted = True  # the id is another's (this instance took no lease: it has none to free)
                raise NodeIdTaken(taken_line(self.id))
            await asyncio.sleep(min(0.2, self.alive / 10))

    async def _hold_id(self) -> bool:
        """Claims or renews this node's id; returns False if another instance holds it."""
        milliseconds = max(1, math.ceil(self.alive * 1000))
        asked = asyncio.get_running_loop().time()
        held = bool(await self.redis.eval(CLAIM, 1, alive_key(self.id), self.token, milliseconds))
        if held:
            self.id_held = asked
        return held

    def sure_of_id(self) -> bool:
        """Returns whether this instance's claim of its id has surely not run out (renewed less than its
        length ago). A node cut off from Redis for longer may have a twin under its id, which freed its
        leases: it takes no table then (it keeps and renews those still its own)."""
        held = self.id_held
        return held is not None and asyncio.get_running_loop().time() - held < self.alive

    async def _keep_id(self) -> None:
        """Renews the id's claim every renewal period while it is ours; if another instance holds it,
        gives every table up and stops (docs/cluster.md, Settings)."""
        while True:
            await asyncio.sleep(self.poll)
            try:
                held = await self._hold_id()
            except asyncio.CancelledError:
                raise
            except Exception as err:  # Redis away: the next renewal tries again
                LOG.warning("node %s could not renew its id on Redis: %s", self.id, type(err).__name__)
                continue
            if not held:
                await self._step_down()
                return

    async def _step_down(self) -> None:
        """After another instance took this node's id: stops renewing and taking tables, turns every
        table passive and (in a served app) stops the process cleanly."""
        LOG.error("node %s: %s: this one gives its tables up and stops", self.id, taken_line(self.id))
        self.ousted = True
        await self.stop()
        for table_id in list(self.hall.owned):
            self.hall.lose(table_id)
        store = self.hall.store  # its leases are this instance's alone (its holder name): freed at once
        with contextlib.suppress(Exception):
            await store.write(release, store.engine, self.holder, None)
        if self.exit_when_ousted:
            signal.raise_signal(signal.SIGTERM)

    # ----------------------------------------------------------------- leases
    async def tick(self) -> int:
        """Renews this node's leases, drops the lost ones, gives up finished tables, takes over the
        tables nobody owns and reads again the tables shown here that moved on; returns how many
        tables it took."""
        hall, store = self.hall, self.hall.store
        await self._renew()
        done = [t for t in hall.owned if _finished(hall.tables.get(t))]
        if done:
            await store.write(release, store.engine, self.holder, done)
            for table_id in done:  # nobody's now: its copy here reads again what others change
                hall.lose(table_id)
        taken = 0
        nobodys: list[str] = []
        if self.sure_of_id():  # else a twin may hold the id and have freed these leases for itself
            nobodys = await asyncio.to_thread(orphans, store.engine, self.clock.now(), BATCH)
        for table_id in nobodys:
            if self.clock.now() - (hall.renewed or 0.0) >= self.poll:
                await self._renew()  # a long takeover never lets this node's own leases lapse
            if not await store.write(take, store.engine, table_id, self.holder, self.clock.now(), self.lease):
                continue
            try:
                await hall.take_over(table_id)
            except Exception:
                LOG.exception("node %s could not take table %s over: lease given up", self.id, table_id)
                hall.lose(table_id)
                with contextlib.suppress(Exception):
                    await store.write(release, store.engine, self.holder, [table_id])
                continue
            taken += 1
        if taken:
            LOG.info("node %s took over %d tables", self.id, taken)
            await self._renew()
        self.taken += taken
        self._repeat_presence()
        await self._catch_up()
        hall.drop_idle_copies()
        return taken

    async def _renew(self) -> None:
        """Renews this node's leases and drops the tables whose lease another node took."""
        hall, store = self.hall, self.hall.store
        now = self.clock.now()
        before = set(hall.owned)  # each one's lease row was committed before the renewal (one writer)
        kept = await store.write(renew, store.engine, self.holder, now, self.lease)
        hall.renewed = now
        for table_id in before - kept:
            LOG.warning("node %s lost the lease of table %s (renewed too late)", self.id, table_id)
            hall.lose(table_id)
            self.lost += 1

    async def _catch_up(self) -> None:
        """Reads again every copy shown here whose stored revision is ahead (its update was lost: a
        move, or a change without one), and every rematch owned here still waiting for its accepts
        (an accept is stored by whichever node its person reached)."""
        hall = self.hall
        shown = {
            t: c.record.revision
            for t, c in hall.tables.items()
            if (c.passive and (c.listeners or t not in hall.stale)) or c.record.status == WAITING
        }
        stored = await asyncio.to_thread(revisions, self.hall.store.engine, shown)
        for table_id, revision in stored.items():
            if revision > shown[table_id]:
                self._refresh(table_id)

    # ----------------------------------------------------------------- fan-out
    def changed(self, table: LiveTable) -> None:
        """Tells the other nodes that the table changed (its id and version only)."""
        message = {"k": "v", "t": table.record.id, "v": table.record.version, "n": self.holder}
        self._send((UPDATES, json.dumps(message)))

    def presence(self, table: LiveTable) -> None:
        """Tells the other nodes which of the table's seats are connected here now."""
        message = {"k": "p", "t": table.record.id, "s": table.here(), "n": self.holder}
        self._send((UPDATES, json.dumps(message)))

    def _repeat_presence(self) -> None:
        """Repeats which seats are connected here, for every table with one (a node's word holds
        PRESENCE_SECONDS), and forgets what silent nodes said (a node that died)."""
        shown = {t: seats for t, table in self.hall.tables.items() if (seats := table.here())}
        if shown:
            message = {"k": "P", "m": shown, "n": self.holder}
            self._send((UPDATES, json.dumps(message)))
        for table in list(self.hall.tables.values()):
            if table.elsewhere and table.hear_presence("", frozenset()):
                self._spawn(table.broadcast(local=True))

    def _heard_presence(self, node: str, table_id: str, seats: object) -> None:
        """Adopts another node's connected seats at a table shown here; its connections see the change."""
        table = self.hall.tables.get(table_id)
        if table is None or not isinstance(seats, list):
            return
        if table.hear_presence(node, frozenset(s for s in seats if isinstance(s, int))):
            self._spawn(table.broadcast(local=True))

    def chat(self, table: LiveTable, line: str) -> None:
        """Gives the other nodes a chat line stored at the table."""
        message = {"k": "c", "t": table.record.id, "l": line, "n": self.holder}
        self._send((UPDATES, json.dumps(message)))

    def _send(self, message: tuple[str, str]) -> None:
        """Queues a message for Redis; one beyond MAX_OUTGOING is dropped with a log line."""
        try:
            self._outgoing.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped += 1
            if self.dropped % 1000 == 1:
                LOG.warning("node %s dropped %d messages: Redis is not keeping up", self.id, self.dropped)

    async def _publish(self) -> None:
        """Publishes the queued messages in order, those waiting together in one round trip (a
        pipeline: a chat keeps its order); what Redis cannot take is dropped with a log line (the
        others catch up from the database)."""
        while True:
            batch = [await self._outgoing.get()]
            while len(batch) < PUBLISH_BATCH and not self._outgoing.empty():
                batch.append(self._outgoing.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
            except Exception as err:
                LOG.warning("node %s could not publish to Redis: %s", self.id, type(err).__name__)
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise asyncio.CancelledError  # a cancel the Redis client swallowed mid-command

    async def _listen(self) -> None:
        """Hears the updates and this node's orders until stopped, subscribing again after Redis went
        away (then every table shown here is read again: what was said meanwhile is lost)."""
        cut = False
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(UPDATES, node_channel(self.holder))
                self.subscribed.set()
                if cut:
                    LOG.warning("node %s hears Redis again", self.id)
                    for table_id in [t for t, table in self.hall.tables.items() if table.passive]:
                        self._refresh(table_id)
                while True:  # a bounded wait per read: the connection's health is checked between
                    message = await pubsub.get_message(timeout=LISTEN_WAIT)
                    if message is not None and message.get("type") == "message":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if not cut:
                    LOG.warning("node %s lost Redis (%s): trying again", self.id, type(err).__name__)
                cut = True
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(RECONNECT)

    def _dispatch(self, data: bytes | str) -> None:
        """Acts on one message heard; one too long, malformed or not what it claims is dropped with a
        log line (never ending the listening)."""
        if len(data) > MAX_MESSAGE:
            self._reject(f"{len(data)} bytes, over {MAX_MESSAGE}")
            return
        try:
            message = json.loads(data)
            if not isinstance(message, dict):
                raise TypeError("not an object")
            self._act_on(message)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
            self._reject(type(err).__name__)
        except Exception as err:  # anything else, still never the end of the listening
            LOG.exception("node %s could not act on a message from Redis", self.id)
            self._reject(type(err).__name__)

    def _act_on(self, message: dict[str, Any]) -> None:
        """Acts on one message heard, by its kind."""
        kind = message["k"]
        if kind == "v" and message["n"] != self.holder:
            self._refresh(str(message["t"]))
        elif kind == "p" and message["n"] != self.holder:
            self._heard_presence(str(message["n"]), str(message["t"]), message["s"])
        elif kind == "P" and message["n"] != self.holder:
            for table_id, seats in dict(message["m"]).items():
                self._heard_presence(str(message["n"]), str(table_id), seats)
        elif kind == "c" and message["n"] != self.holder:
            table = self.hall.tables.get(str(message["t"]))
            if table is not None:
                table.tell(chat_line(message["l"], table.record.players))
        elif kind == "o":
            self._order(message)
        elif kind == "r":
            future = self._waiting.get(str(message["id"]))
            if future is not None and not future.done():
                future.set_result(message)

    def _reject(self, why: str) -> None:
        """Counts a message dropped; logs the first hundred, then one in a thousand."""
        self.rejected += 1
        if self.rejected <= 100 or self.rejected % 1000 == 0:
            LOG.warning("node %s dropped a message from Redis (%s; %d so far)", self.id, why, self.rejected)

    def _order(self, message: dict[str, Any]) -> None:
        """Carries out a forwarded order in the background, or refuses it at once (503) if MAX_SERVING
        are under way already."""
        asker, ask = message["from"], message["id"]
        if not isinstance(asker, str) or not isinstance(ask, str) or len(asker) > 64 or len(ask) > 64:
            raise TypeError("an order's asker")
        if self.serving >= MAX_SERVING:
            busy = {"status": 503, "error": "the table's server is busy: try again"}
            self._send((node_channel(asker), json.dumps({"k": "r", "id": ask, "ok": False, "e": busy})))
            return
        self.serving += 1
        self._spawn(self._serve_order(message)).add_done_callback(self._served)

    def _served(self, _task: asyncio.Task[None]) -> None:
        """Counts a forwarded order as no longer under way (ended, failed or cancelled)."""
        self.serving -= 1

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        """Runs a coroutine in the background, kept until it ends; returns its task."""
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def _refresh(self, table_id: str) -> None:
        """Reads a table shown here again (once more if another update comes meanwhile)."""
        if table_id not in self.hall.tables:
            return
        if table_id in self._refreshing:
            self._refreshing[table_id] = True
            return
        self._refreshing[table_id] = False
        self._spawn(self._refresh_loop(table_id))

    async def _refresh_loop(self, table_id: str) -> None:
        try:
            while True:
                try:
                    await self.hall.refresh(table_id)
                except Exception:
                    LOG.exception("node %s could not read table %s again", self.id, table_id)
                if not self._refreshing.get(table_id):
                    return
                self._refreshing[table_id] = False
        finally:
            self._refreshing.pop(table_id, None)

    # ----------------------------------------------------------------- forwarding
    async def forward(self, table_id: str, seat: int, kind: str, message: dict[str, Any]) -> int | None:
        """Carries out a seat's order at the table's owner: here if nobody owns it (this node takes
        it), else through the owner's channel; returns the owner's answer or raises its refusal."""
        hall, store = self.hall, self.hall.store
        if self.ousted:
            raise Refusal(503, "this server is stopping: try again")
        owner = self._owners.get(table_id)  # the owner last found (a lookup a move saved)
        if owner is None:
            owner = await asyncio.to_thread(owner_of, store.engine, table_id, self.clock.now())
        if owner is None or owner == self.holder:
            now = self.clock.now()
            if table_id not in hall.owned and not self.sure_of_id():
                raise Refusal(503, "this server cannot reach the others: try another or again soon")
            if table_id in hall.owned or await store.write(
                take, store.engine, table_id, self.holder, now, self.lease
            ):
                if table_id not in hall.owned:
                    await self._take_over_now(table_id)
                return await carry_out(hall.get(table_id), seat, kind, message)
            owner = await asyncio.to_thread(owner_of, store.engine, table_id, self.clock.now())
            if owner is None:
                raise Refusal(503, "the table is changing servers: try again")
        ask = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ask] = future
        fields = {name: message[name] for name in ORDER_FIELDS if name in message}
        sent = {"k": "o", "id": ask, "from": self.holder, "t": table_id, "s": seat, "kind": kind, "m": fields}
        try:
            heard = await self.redis.publish(node_channel(owner), json.dumps(sent))
            if not heard and table_id in self._owners:  # it was: look the owner up again, once
                del self._owners[table_id]
                return await self.forward(table_id, seat, kind, message)
            if not heard:
                raise Refusal(503, "the table's server is not answering: try again in a few seconds")
            self._owners[table_id] = owner
            if len(self._owners) > MAX_OWNERS_KNOWN:
                del self._owners[next(iter(self._owners))]
            reply = await asyncio.wait_for(future, FORWARD_SECONDS)
        except TimeoutError:
            raise Refusal(
                504, "the table's server did not answer in time: the table shows whether it landed"
            ) from None
        except Refusal:
            raise
        except Exception as err:  # Redis unreachable
            raise Refusal(
                503, f"the table's server cannot be reached ({type(err).__name__}): try again"
            ) from None
        finally:
            self._waiting.pop(ask, None)
        error = reply.get("e") or {}
        if not reply.get("ok") and error.get("status") == 503:
            self._owners.pop(table_id, None)  # it moved (or is moving): look it up next time
        if reply.get("ok"):
            version = reply.get("v")
            return version if isinstance(version, int) else None
        status = error.get("status")
        raise Refusal(
            status if isinstance(status, int) and 400 <= status < 600 else 503,
            str(error.get("error", "refused by the table's server")),
            error.get("version") if isinstance(error.get("version"), int) else None,
        )

    async def _take_over_now(self, table_id: str) -> None:
        """Takes a table over for an order (its lease just won); if that fails, gives the lease up (as
        the renewal does) and refuses the order with 503."""
        try:
            await self.hall.take_over(table_id)
        except Exception:
            LOG.exception("node %s could not take table %s over: lease given up", self.id, table_id)
            self.hall.lose(table_id)
            store = self.hall.store
            with contextlib.suppress(Exception):
                await store.write(release, store.engine, self.holder, [table_id])
            raise Refusal(503, "the table is changing servers: try again") from None

    async def _serve_order(self, message: dict[str, Any]) -> None:
        """Carries out an order another node forwarded (if this node owns the table) and answers it
        (``_order`` counted it in ``serving`` and checked its asker)."""
        asker, ask = str(message["from"]), str(message["id"])
        reply: dict[str, Any] = {"k": "r", "id": ask}
        try:
            table_id, seat, kind, fields = message["t"], message["s"], message["kind"], message["m"]
            if not isinstance(table_id, str) or not self.hall.owns(table_id):
                raise Refusal(503, "the table moved to another server: try again")
            table = self.hall.get(table_id)
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.record.players:
                raise Refusal(400, "no such seat")
            if kind not in ORDERS or not isinstance(fields, dict):
                raise Refusal(400, "no such order")
            reply.update(ok=True, v=await carry_out(table, seat, kind, fields))
        except Refusal as refusal:
            reply.update(
                ok=False, e={"status": refusal.status, "error": refusal.message, "version": refusal.version}
            )
        except Exception:
            LOG.exception("node %s could not carry out a forwarded order", self.id)
            reply.update(ok=False, e={"status": 500, "error": "the table's server failed to carry it out"})
        self._send((node_channel(asker), json.dumps(reply)))


def chat_line(given: object, players: int) -> str:
    """Returns another node's chat line encoded afresh if it is one as ``LiveTable.chat`` makes them (a
    JSON object: type "chat", a seat of the table or None, a printable text of 1 to MAX_CHAT characters,
    a time); raises ValueError otherwise."""
    if not isinstance(given, str) or len(given) > MAX_MESSAGE:
        raise ValueError("a chat line is JSON text")
    line = json.loads(given)
    if not isinstance(line, dict) or set(line) != {"type", "seat", "text", "at"} or line["type"] != "chat":
        raise ValueError("not a chat line")
    seat, text, at = line["seat"], line["text"], line["at"]
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
        raise ValueError("a chat line's seat")
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_CHAT or not text.isprintable():
        raise ValueError("a chat line's text")
    if text != text.strip():
        raise ValueError("a chat line's text")
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        raise ValueError("a chat line's time")
    return encode({"type": "chat", "seat": seat, "text": text, "at": at})


async def _cancelled(tasks: list[asyncio.Task[None]]) -> None:
    """Cancels the tasks and waits for their end, cancelling again a task still running after a second
    (a cancel that arrived mid-command may be swallowed by the Redis client: the task would go on)."""
    for task in tasks:
        while not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=1.0)
        if not task.cancelled():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                task.result()


def _finished(table: LiveTable | None) -> bool:
    """Returns whether an owned table needs no owner any more (over, declined, or not in memory)."""
    return table is None or table.state.is_over() or table.record.status == DECLINED
