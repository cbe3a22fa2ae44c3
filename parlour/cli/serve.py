"""``parlour serve``: the table server under uvicorn, with its database where the user says."""

from __future__ import annotations

import logging
import os
import re
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from sqlalchemy.exc import SQLAlchemyError

from parlour.analysis.settings import DEFAULT_SAMPLES, MAX_SAMPLES
from parlour.core.errors import OptionError
from parlour.server.accounts.mail import MailSettings, password_from_environment
from parlour.server.botaccounts.stream import STOP_SECONDS
from parlour.server.collector import tune_collector
from parlour.server.connections import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    KEEP_ALIVE,
    MAX_HEADERS,
    PER_ADDRESS,
    QUIET_LOGGERS,
    STALL_SECONDS,
    Limits,
    QuietFilter,
    budget,
    guarded_protocols,
    parse_networks,
    raise_open_files,
)
from parlour.server.limits import HTTP_BURST, HTTP_RATE, SOCKETS_PER_ADDRESS
from parlour.server.statistics import StatisticsSettings

DEFAULT_DB = Path("~/.parlour/server/parlour.db")
MAX_ANALYSIS_WORKERS = 64
"""The most processes one analysis may be judged in."""


def database_url(db: str | None, url: str | None) -> str:
    """Returns the database URL: ``url`` as given, else the SQLite file ``db`` (default under ~/.parlour)."""
    from parlour.server.storage import sqlite_url

    if url is not None and db is not None:
        raise OptionError("give --db or --database-url, not both")
    if url is not None:
        return url
    return sqlite_url((Path(db) if db is not None else DEFAULT_DB).expanduser().resolve())


def _shown(url: str) -> str:
    """Returns a database URL as printed: its password hidden (a URL that does not parse: a placeholder)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(not a database URL)"


def _reason(err: SQLAlchemyError) -> str:
    """Returns the first line of what the database or its driver said, without SQLAlchemy's wrapping."""
    cause = getattr(err, "orig", None) or err
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    return lines[0] if lines else type(cause).__name__


@dataclass(frozen=True)
class Guards:
    """What ``parlour serve`` takes from hostile clients (docs/server.md)."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    per_address: int = PER_ADDRESS
    forwarded_allow_ips: str | None = None
    """Proxies whose X-Forwarded-For header names the client (None: the header is ignored)."""
    http_rate: float = HTTP_RATE
    http_burst: float = HTTP_BURST
    stall_timeout: float = STALL_SECONDS
    sockets_per_address: int = SOCKETS_PER_ADDRESS
    """WebSockets one client address may hold open at once (the app's own count)."""


def check_guards(guards: Guards) -> None:
    """Refuses limits out of range, in one line each."""
    if not 0 < guards.header_timeout <= 3600:
        raise OptionError("--header-timeout must be over 0 and at most 3600 seconds")
    if not 0 < guards.stall_timeout <= 3600:
        raise OptionError("--stall-timeout must be over 0 and at most 3600 seconds")
    if not 0 < guards.body_timeout <= 3600:
        raise OptionError("--body-timeout must be over 0 and at most 3600 seconds")
    if not 1 <= guards.per_address <= 1_000_000:
        raise OptionError("--max-connections-per-address must be 1 to 1000000")
    if not 1 <= guards.sockets_per_address <= 1_000_000:
        raise OptionError("--max-sockets-per-address must be 1 to 1000000")
    if not 0 < guards.http_rate <= 1_000_000:
        raise OptionError("--http-rate must be over 0 and at most 1000000 requests a second")
    if not 1 <= guards.http_burst <= 1_000_000:
        raise OptionError("--http-burst must be 1 to 1000000 requests")


def limits_of(guards: Guards) -> Limits:
    """Returns the connection limits: the options' and the caps the open-files limit allows
    (raised to the hard limit first)."""
    try:
        trusted = parse_networks(guards.forwarded_allow_ips or "")
    except ValueError as exc:
        raise OptionError(f"--forwarded-allow-ips: {exc}") from None
    if guards.forwarded_allow_ips is not None and not trusted:
        raise OptionError("--forwarded-allow-ips: give at least one address")
    total, backlog = budget(raise_open_files())
    timeouts = (guards.header_timeout, guards.body_timeout)
    return Limits(*timeouts, guards.per_address, total, backlog, trusted, guards.stall_timeout)


@dataclass(frozen=True)
class Analysing:
    """How the server analyses finished games (docs/server.md "Analyse this game")."""

    workers: int = 1
    """Processes an analysis is judged in (0: none here; another server on the database analyses)."""
    budget: int = DEFAULT_SAMPLES
    """Determinisations a decision."""


def check_analysing(analysing: Analysing) -> None:
    """Refuses analysis settings out of range, in one line each."""
    if not 0 <= analysing.workers <= MAX_ANALYSIS_WORKERS:
        raise OptionError(f"--analysis-workers must be 0 to {MAX_ANALYSIS_WORKERS}")
    if not 2 <= analysing.budget <= MAX_SAMPLES:
        raise OptionError(f"--analysis-budget must be 2 to {MAX_SAMPLES} determinisations a decision")


@dataclass(frozen=True)
class StatisticsOptions:
    """Each game's designer's report in the browser (docs/report.md "In the browser")."""

    games: int = 300
    """Games a report plays (0: no statistics pages)."""
    folder: str | None = None
    """Where reports are kept (None: a ``statistics`` folder beside the SQLite database, or
    ~/.parlour/server/statistics with --database-url)."""
    on_start: bool = False
    """Whether every game's report is computed when the server starts (else on first request)."""


MAX_STATISTICS_GAMES = 100_000
"""The most games a server's report may play."""


def statistics_settings(options: StatisticsOptions, db: str | None, url: str | None) -> StatisticsSettings:
    """Returns the statistics settings, refusing a count out of range (one line)."""
    if not 0 <= options.games <= MAX_STATISTICS_GAMES:
        raise OptionError(f"--statistics-games must be 0 to {MAX_STATISTICS_GAMES:,}")
    if options.games == 0:
        return StatisticsSettings(None, 0)
    if options.folder is not None:
        folder = Path(options.folder).expanduser().resolve()
    elif url is None:
        folder = (Path(db) if db is not None else DEFAULT_DB).expanduser().resolve().parent / "statistics"
    else:
        folder = DEFAULT_DB.expanduser().parent / "statistics"
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"--statistics-dir {_shown_path(folder)} is not a folder")
    return StatisticsSettings(folder, options.games, options.on_start)


def _shown_path(path: Path) -> str:
    """Returns a path for a one-line message (control characters escaped, shortened)."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(path))
    return text if len(text) <= 120 else f"{text[:50]}…{text[-60:]}"


@dataclass(frozen=True)
class Clustering:
    """Whether the server is one node of several over one database and one Redis (docs/cluster.md)."""

    redis_url: str | None = None
    """The Redis the nodes talk through (None: a single server, nothing shared but the database)."""
    node_id: str | None = None
    """This node's name in the table leases (None: ``HOSTNAME-PID``)."""


MAX_NODE_ID = 55
"""The longest node id (characters): a running node's name in the leases' owner column (64) is its id,
"~" and 8 hexadecimal digits of its own (parlour/server/cluster.py, ``holder_name``)."""
NODE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
"""What a node id is made of: letters, digits, dots, dashes and underscores (a Redis channel's name)."""


def default_node_id() -> str:
    """Returns this process's default node id: its host name (cleaned up) and process id."""
    host = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname()).strip(".-_") or "node"
    tail = f"-{os.getpid()}"
    return host[: MAX_NODE_ID - len(tail)] + tail


def check_clustering(cluster: Clustering, url: str) -> str | None:
    """Returns the node id of a cluster node (None: a single server), refusing bad settings in one line."""
    if cluster.redis_url is None:
        if cluster.node_id is not None:
            raise OptionError("--node-id is for a node of a cluster: give --redis-url too")
        return None
    given = cluster.redis_url
    if len(given) > 1000 or not given.startswith(("redis://", "rediss://", "unix://")):
        raise OptionError(
            "--redis-url must be a redis://, rediss:// or unix:// URL (at most 1000 characters)"
        )
    if url.startswith("sqlite"):
        raise OptionError(
            "--redis-url needs a database the nodes share: give --database-url postgresql+psycopg://..."
        )
    node = cluster.node_id if cluster.node_id is not None else default_node_id()
    if not 1 <= len(node) <= MAX_NODE_ID or not NODE_ID.fullmatch(node):
        raise OptionError(
            f"--node-id must be 1 to {MAX_NODE_ID} letters, digits, dots, dashes or underscores, "
            "starting with a letter or digit"
        )
    return node


def _shown_redis(url: str) -> str:
    """Returns a Redis URL as printed: its user and password hidden (everything up to its last "@":
    a password may hold "/", ":", "?" or "@"), and a ``password`` in its query too."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "***"  # not a URL at all: show nothing of it
    if "@" in rest:
        rest = "***@" + rest.rsplit("@", 1)[1]
    where, mark, query = rest.partition("?")
    if mark:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, "***" if k.lower() == "password" else v) for k, v in pairs], safe="*")
    return f"{scheme}://{where}{mark}{query}"


def reach_redis(url: str) -> None:
    """Checks that the Redis answers (PING) before the server listens; refuses in one line if not."""
    try:
        import redis
    except ImportError:
        raise OptionError("--redis-url needs the redis package: pip install 'parlour[cluster]'") from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as err:
        reason = " ".join(str(err).split())[:200] or type(err).__name__
        raise OptionError(f"cannot reach Redis at {_shown_redis(url)}: {reason}") from None


def claim_node_id(url: str, node: str) -> str:
    """Claims the node's id on the Redis before the server listens, waiting up to ``ALIVE_SECONDS`` for
    a former life's claim (a killed node) to run out; returns this instance's token; refuses in one line
    if another node runs under the id."""
    import redis

    from parlour.server.cluster import (
        ALIVE_SECONDS,
        CLAIM,
        LET_GO,
        alive_key,
        former_life_gone,
        instance_token,
        taken_line,
    )

    token = instance_token()
    end = time.monotonic() + ALIVE_SECONDS
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            while not client.eval(CLAIM, 1, alive_key(node), token, int(ALIVE_SECONDS * 1000)):
                held = client.get(alive_key(node))
                text = held.decode(errors="replace") if isinstance(held, bytes) else ""
                if text and former_life_gone(text) and client.eval(LET_GO, 1, alive_key(node), text):
                    continue  # a killed node's claim, on this machine: not waited for
                if time.monotonic() >= end:
                    raise OptionError(taken_line(node))
                time.sleep(0.2)
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as err:
        reason = " ".join(str(err).split())[:200] or type(err).__name__
        raise OptionError(f"cannot reach Redis at {_shown_redis(url)}: {reason}") from None
    return token


def mail_settings(
    host: str | None, port: int, user: str | None, sender: str, security: str
) -> MailSettings | None:
    """Returns the SMTP settings of ``--smtp-*`` (None without a host: no e-mail), the password from
    ``PARLOUR_SMTP_PASSWORD``; refuses values out of range in one line."""
    if host is None:
        return None
    if not 0 < port < 65536:
        raise OptionError("--smtp-port must be 1 to 65535")
    if "@" not in sender or any(c in sender for c in "\r\n"):
        raise OptionError("--smtp-sender must be an e-mail address")
    return MailSettings(host, port, user, password_from_environment(), sender, security)


def push_contact(given: str | None, public_url: str, mail: MailSettings | None) -> str:
    """Returns the VAPID ``sub`` claim of ``--push-contact`` (checked), else the ``--public-url`` when it is
    https, else ``mailto:`` the ``--smtp-sender`` when e-mail is on, else ``mailto:parlour@localhost``
    (push services may refuse it: docs/server.md); refuses a bad one in one line."""
    from parlour.server.notify.push import DEFAULT_CONTACT, PushError, check_contact

    if given is not None:
        try:
            return check_contact(given)
        except PushError as err:
            raise OptionError(f"--push-contact: {err}") from None
    derived = [public_url] if public_url.startswith("https://") else []
    if mail is not None:
        derived.append(f"mailto:{mail.sender}")
    for candidate in derived:
        try:
            return check_contact(candidate)
        except PushError:
            continue  # the next one, or the default
    return DEFAULT_CONTACT


def serve(
    host: str,
    port: int,
    db: str | None,
    url: str | None,
    bot_workers: int,
    think: float = 0.6,
    pass_delay: float = 1.5,
    window_pause: float = 0.25,
    seed_key_file: str | None = None,
    guards: Guards = Guards(),
    mail: MailSettings | None = None,
    public_url: str | None = None,
    test_hooks: bool = False,
    contact: str | None = None,
    analysing: Analysing = Analysing(),
    cluster: Clustering = Clustering(),
    statistics: StatisticsOptions = StatisticsOptions(),
) -> int:
    """Runs the server until Ctrl-C or SIGTERM (a seed key that is not the database's, or a Redis it
    cannot reach: one line, no start)."""
    import uvicorn

    from parlour.server.app import Settings, create_app
    from parlour.server.storage import open_store
    from parlour.server.tables import Timing

    if not 0 <= think <= 60:
        raise OptionError("--think must be 0 to 60 seconds")
    if not 0 <= pass_delay <= 60:
        raise OptionError("--pass-delay must be 0 to 60 seconds")
    if not 0 <= window_pause <= 60:
        raise OptionError("--window-pause must be 0 to 60 seconds")
    if not 0 < port < 65536:
        raise OptionError("--port must be 1 to 65535")
    if not 0 <= bot_workers <= 64:
        raise OptionError("--bot-workers must be 0 to 64")
    check_guards(guards)
    check_analysing(analysing)
    reports = statistics_settings(statistics, db, url)
    limits = limits_of(guards)
    found = database_url(db, url)
    node = check_clustering(cluster, found)
    token: str | None = None
    key = Path(seed_key_file).expanduser().resolve() if seed_key_file is not None else None
    try:
        open_store(found, key).close()  # migrated, its key checked and its seeds sealed before listening
    except SQLAlchemyError as err:  # unreachable, refused, no such driver or database: one line
        raise OptionError(f"cannot open the database {_shown(found)}: {_reason(err)}") from None
    if node is not None and cluster.redis_url is not None:
        reach_redis(cluster.redis_url)
        token = claim_node_id(cluster.redis_url, node)
        print(f"Node {node} of a cluster (Redis {_shown_redis(cluster.redis_url)})", flush=True)
    print(f"Parlour at http://{host}:{port}/ (database {_shown(found)})", flush=True)
    print(
        f"At most {limits.total} connections ({limits.per_address} an address); request headers within "
        f"{limits.header_timeout:g} s, bodies within {limits.body_timeout:g} s",
        flush=True,
    )
    public = (public_url or f"http://{host}:{port}").rstrip("/")
    subject = push_contact(contact, public, mail)
    timing = Timing(think=think, pass_delay=pass_delay, window_pause=window_pause)
    settings = Settings(
        found,
        bot_workers,
        timing,
        http_rate=guards.http_rate,
        http_burst=guards.http_burst,
        sockets_per_address=guards.sockets_per_address,
        seed_key_file=key,
        mail=mail,
        public_url=public,
        push_subject=subject,
        test_hooks=test_hooks,
        analysis_workers=analysing.workers,
        analysis_budget=analysing.budget,
        redis_url=cluster.redis_url,
        node_id=node,
        node_token=token,
        statistics=reports,
    )
    if reports.folder is not None:
        print(f"Statistics pages kept in {_shown_path(reports.folder)}", flush=True)
    app = create_app(settings)
    http, ws = guarded_protocols(limits)
    quiet = QuietFilter()
    for name in QUIET_LOGGERS:
        logging.getLogger(name).addFilter(quiet)
    # Frames up to 64 KiB reach the app, which answers anything over MAX_BODY with its own 413.
    tune_collector()  # after the start: what it made is never scanned again
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=64 * 1024,
        http=http,
        ws=ws,
        loop="parlour.server.connections:event_loop",
        timeout_keep_alive=KEEP_ALIVE,
        timeout_graceful_shutdown=STOP_SECONDS,  # a bot's open stream does not hold the stop up
        limit_concurrency=limits.concurrency,
        h11_max_incomplete_event_size=MAX_HEADERS,
        backlog=limits.backlog,
        proxy_headers=guards.forwarded_allow_ips is not None,
        forwarded_allow_ips=guards.forwarded_allow_ips,
    )
    return 0
