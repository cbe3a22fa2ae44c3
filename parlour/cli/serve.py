"""``parlour serve``: the table server under uvicorn, with its database where the user says."""

from __future__ import annotations

from pathlib import Path

from parlour.core.errors import OptionError

DEFAULT_DB = Path("~/.parlour/server/parlour.db")


def database_url(db: str | None, url: str | None) -> str:
    """Returns the database URL: ``url`` as given, else the SQLite file ``db`` (default under ~/.parlour)."""
    from parlour.server.storage import sqlite_url

    if url is not None and db is not None:
        raise OptionError("give --db or --database-url, not both")
    if url is not None:
        return url
    return sqlite_url((Path(db) if db is not None else DEFAULT_DB).expanduser().resolve())


def serve(
    host: str,
    port: int,
    db: str | None,
    url: str | None,
    bot_workers: int,
    think: float = 0.6,
    pass_delay: float = 1.5,
    seed_key_file: str | None = None,
) -> int:
    """Runs the server until Ctrl-C or SIGTERM (a seed key that is not the database's: one line, no start)."""
    import uvicorn

    from parlour.server.app import Settings, create_app
    from parlour.server.storage import open_store
    from parlour.server.tables import Timing

    if not 0 <= think <= 60:
        raise OptionError("--think must be 0 to 60 seconds")
    if not 0 <= pass_delay <= 60:
        raise OptionError("--pass-delay must be 0 to 60 seconds")
    if not 0 < port < 65536:
        raise OptionError("--port must be 1 to 65535")
    if not 0 <= bot_workers <= 64:
        raise OptionError("--bot-workers must be 0 to 64")
    found = database_url(db, url)
    key = Path(seed_key_file).expanduser().resolve() if seed_key_file is not None else None
    open_store(found, key).close()  # migrated, its key checked and its seeds sealed before listening
    print(f"Parlour at http://{host}:{port}/ (database {found})", flush=True)
    timing = Timing(think=think, pass_delay=pass_delay)
    app = create_app(Settings(found, bot_workers, timing, seed_key_file=key))
    # Frames up to 64 KiB reach the app, which answers anything over MAX_BODY with its own 413.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=64 * 1024)
    return 0
