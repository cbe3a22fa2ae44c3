"""Throwaway PostgreSQL and Redis servers for tests: each on a free port in a temporary folder, removed at
the end even when a test fails.

PostgreSQL refuses to run as root: as root, the cluster belongs to the ``postgres`` user Debian's
package makes (``nobody`` without one), and its commands run through ``runuser``. Nothing here depends
on a server already running; the binaries come from Debian's ``postgresql`` and ``redis-server``
packages, which ``make test`` installs when missing.
"""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text

PG_ROOT = Path("/usr/lib/postgresql")
"""Where Debian puts each PostgreSQL version's binaries (``15/bin/initdb``)."""
REDIS_SERVER = "redis-server"
START_WAIT = 30.0
"""The most a server may take to answer after its start (seconds)."""


class Missing(Exception):
    """A server's binaries are not installed (the tests needing it are skipped with this reason)."""


def free_port() -> int:
    """Returns a TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def postgres_bin() -> Path:
    """Returns the folder of the newest installed PostgreSQL's binaries, or raises Missing."""
    found = sorted(
        PG_ROOT.glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb is not None and shutil.which("pg_ctl") is not None:
        return Path(initdb).resolve().parent
    raise Missing("PostgreSQL is not installed (no initdb): `make test` installs Debian's postgresql")


def _owner() -> pwd.struct_passwd | None:
    """Returns the unprivileged user PostgreSQL runs as when we are root (None: run as ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise Missing("running as root with neither a postgres nor a nobody user to run PostgreSQL as")


@dataclass
class PostgresCluster:
    """A running throwaway cluster: its port, superuser and folder."""

    port: int
    user: str
    folder: Path

    def url(self, database: str = "parlour") -> str:
        """Returns the SQLAlchemy URL of one of the cluster's databases (psycopg 3)."""
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str | None = None) -> str:
        """Creates a new empty database (a fresh name unless given); returns its URL."""
        name = name or f"t_{uuid.uuid4().hex[:12]}"
        self._admin(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drops a database made by ``create_database``, its connections closed first."""
        name = url.rsplit("/", 1)[1]
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _admin(self, statement: str) -> None:
        engine = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as connection:
                connection.execute(text(statement))
        finally:
            engine.dispose()


def _run(args: list[str], owner: pwd.struct_passwd | None, log: Path | None = None) -> None:
    """Runs a PostgreSQL command as ``owner``; a failure raises with its output (or its log's end)."""
    command = args if owner is None else ["runuser", "-u", owner.pw_name, "--", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd="/")
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-2000:] if log is not None and log.exists() else ""
        raise RuntimeError(
            f"{' '.join(args[:2])} failed: {done.stderr.strip() or done.stdout.strip()}\n{tail}"
        )


@contextmanager
def postgres_cluster(database: str = "parlour") -> Iterator[PostgresCluster]:
    """Starts a throwaway PostgreSQL cluster (initdb in a temporary folder, unprivileged, trust logins on
    127.0.0.1 only, no fsync), with one empty ``database``; stops and removes it at the end."""
    binaries = postgres_bin()
    owner = _owner()
    folder = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
    data, log = folder / "data", folder / "server.log"
    started, reaper = False, None
    try:
        if owner is not None:
            os.chown(folder, owner.pw_uid, owner.pw_gid)
        user = "parlour"
        _run(
            [str(binaries / "initdb"), "-D", str(data), "-U", user, "-A", "trust", "-E", "UTF8", "--no-sync"],
            owner,
        )
        for _attempt in range(3):  # another process may take the free port first
            port = free_port()
            options = (
                f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off"
            )
            try:
                _run(
                    [str(binaries / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-o", options, "start"],
                    owner,
                    log,
                )
            except RuntimeError:
                if _attempt == 2:
                    raise
                continue
            started = True
            break
        stop = [str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]
        reaper = _reaper(stop if owner is None else ["runuser", "-u", owner.pw_name, "--", *stop], folder)
        cluster = PostgresCluster(port, user, folder)
        cluster.create_database(database)
        yield cluster
    finally:
        if started:
            # The folder goes anyway: a server left running dies with its data.
            with suppress(RuntimeError, subprocess.TimeoutExpired):
                _run([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"], owner)
        shutil.rmtree(folder, ignore_errors=True)
        _end(reaper)


@contextmanager
def redis_server() -> Iterator[str]:
    """Starts a throwaway Redis on a free port (no persistence), yields its URL, stops it at the end."""
    binary = shutil.which(REDIS_SERVER)
    if binary is None:
        raise Missing("Redis is not installed (no redis-server): `make test` installs Debian's redis-server")
    folder = Path(tempfile.mkdtemp(prefix="parlour-redis-"))
    port = free_port()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    args += ["--dir", str(folder), "--logfile", str(folder / "redis.log")]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    reaper = _reaper(["kill", "-9", str(process.pid)], folder)
    try:
        _wait_for_redis(port, process)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
        _end(reaper)


def _reaper(stop: list[str], folder: Path) -> subprocess.Popen[bytes]:
    """Starts a watcher in a session of its own: if this process dies without its cleanup (SIGKILL, a
    timeout's kill), it runs ``stop`` and removes ``folder``; the normal cleanup ends it first."""
    script = (
        f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done; "
        f"{shlex.join(stop)} >/dev/null 2>&1; rm -rf {shlex.quote(str(folder))}"
    )
    devnull = subprocess.DEVNULL
    return subprocess.Popen(
        ["sh", "-c", script], start_new_session=True, stdin=devnull, stdout=devnull, stderr=devnull
    )


def _end(reaper: subprocess.Popen[bytes] | None) -> None:
    """Ends a watcher whose work the normal cleanup did."""
    if reaper is not None:
        reaper.kill()
        reaper.wait(10)


def _wait_for_redis(port: int, process: subprocess.Popen[bytes]) -> None:
    """Waits until the Redis on ``port`` answers PING (raises if it exits or takes too long)."""
    end = time.monotonic() + START_WAIT
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited at its start (status {process.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(64).startswith(b"+PONG"):
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"redis-server did not answer on port {port} within {START_WAIT:g} s")
