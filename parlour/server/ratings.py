"""Ratings (issue 32): OpenSkill (Plackett–Luce) per identity, game and player count, updated once when
a rated table ends; the leaderboard and a player's public profile.

An identity is ``account:ID`` (a person's seat bound to an account) or ``bot:NAME`` (a bot's fixed
identity). A table made rated counts only if, at its end, every person's seat is bound to an account
and no account holds two of its seats (one bot may hold several: its rating moves by the mean of its
seats' updates, as ``parlour/bots/tournament.py`` rates bots). A person whose seat the others' vote
gave to a bot (``replaced``), or that a stand-in bot plays at the end, abandoned: they rank last.
Rating a table is one transaction that first sets ``tables.rated_done`` with a compare-and-set, so a
second call, another process or a restart never rates it twice; a table whose rating did not run (the
process died between the last move and the rating) is rated by ``rate_pending`` at the next start.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from openskill.models import PlackettLuce
from sqlalchemy import Engine, Float, Integer, String, UniqueConstraint, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Mapped, Session, mapped_column

from parlour.core.state import rank
from parlour.server.accounts.rows import AccountRow, username_key
from parlour.server.botaccounts.rows import BotAccountRow
from parlour.server.rematch import DECLINED
from parlour.server.storage import Base, MoveRow, SeatRow, TableRow

LOG = logging.getLogger(__name__)

DELETED = "deleted player"
"""What a deleted account is called on the leaderboard."""
BOARD_SIZE = 100
"""How many identities a leaderboard lists, best ordinal first."""
HISTORY_SIZE = 500
"""How many points of a rating's history a profile gives (the newest)."""


class RatingRow(Base):
    """An identity's rating in a game at a player count."""

    __tablename__ = "ratings"
    identity: Mapped[str] = mapped_column(String(80), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """An identity's rating after one rated table, with its place there."""

    __tablename__ = "rating_history"
    __table_args__ = (UniqueConstraint("identity", "table_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    identity: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    table_id: Mapped[str] = mapped_column(String(32))
    at: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    place: Mapped[int] = mapped_column(Integer)


def ordinal(mu: float, sigma: float) -> float:
    """Returns the conservative estimate a leaderboard sorts by: mu − 3σ."""
    return mu - 3 * sigma


def identity_of(seat: SeatRow) -> str | None:
    """Returns a seat's identity (None: a person's seat bound to no account)."""
    if seat.kind == "bot":
        return f"bot:{seat.bot}"
    return None if seat.account_id is None else f"account:{seat.account_id}"


def abandoned(seat: SeatRow) -> bool:
    """Returns whether a person's seat was left to a bot: replaced by the vote, or a stand-in at the end."""
    return seat.kind == "human" and (seat.replaced or seat.stand_in is not None)


def places(ranks: Sequence[int], left: Sequence[bool]) -> list[int]:
    """Returns each seat's place (1 is best, ties share): by the game's ranks, every seat that was
    abandoned after every other (tied among themselves)."""
    keys = [(is_left, r) for is_left, r in zip(left, ranks, strict=True)]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def outcome(table: TableRow, seats: Sequence[SeatRow]) -> tuple[list[str], list[int]] | None:
    """Returns a finished table's identities and places (by seat), or None if it does not count (a
    person's seat bound to no account, or two seats of one account)."""
    identities = [identity_of(seat) for seat in seats]
    accounts = [i for i in identities if i is not None and i.startswith("account:")]
    if any(i is None for i in identities) or len(set(accounts)) != len(accounts):
        return None
    ranks = table.ranks if table.ranks is not None else rank(table.scores or [0.0] * len(seats))
    return [i for i in identities if i is not None], places(ranks, [abandoned(seat) for seat in seats])


ATTEMPTS = 3
"""How many times a rating is tried when another node's first rating of the same identity won the
race to insert its row (the transaction is undone whole, then tried again)."""


def rate_table(engine: Engine, table_id: str) -> bool:
    """Rates a finished rated table once, in one transaction; returns whether this call rated it (False:
    not rated, not over, already done, or it does not count). Nodes rating tables of the same people at
    once wait for each other (the rows are locked), so no result is lost."""
    for attempt in range(ATTEMPTS):
        try:
            return _rate_table(engine, table_id)
        except (IntegrityError, OperationalError):  # another rating inserted a row first, or a deadlock
            if attempt == ATTEMPTS - 1:
                raise
    return False


def _rate_table(engine: Engine, table_id: str) -> bool:
    """One attempt of ``rate_table``."""
    with Session(engine) as s, s.begin():
        claimed = s.connection().execute(
            update(TableRow)
            .where(
                TableRow.id == table_id,
                TableRow.rated.is_(True),
                TableRow.rated_done.is_(False),
                TableRow.status == "over",
            )
            .values(rated_done=True)
        )
        if claimed.rowcount != 1:
            return False
        table = s.get_one(TableRow, table_id)
        seats = s.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)).all()
        found = outcome(table, seats)
        if found is None:
            LOG.info("table %s was made rated but does not count (a seat of no account)", table_id)
            return False
        identities, placed = found
        last = s.scalar(select(func.max(MoveRow.at)).where(MoveRow.table_id == table_id))
        _update(s, table, identities, placed, float(last if last is not None else table.created))
        return True


def _update(s: Session, table: TableRow, identities: list[str], placed: list[int], at: float) -> None:
    """Applies one game's result to its identities' ratings and histories (in the caller's session)."""
    model = PlackettLuce()
    locked = s.scalars(  # locked in one order, so two ratings of the same people never deadlock
        select(RatingRow)
        .where(
            RatingRow.identity.in_(sorted(set(identities))),
            RatingRow.game == table.game,
            RatingRow.players == table.players,
        )
        .order_by(RatingRow.identity)
        .with_for_update()
    ).all()
    found = {row.identity: row for row in locked}
    rows = [found.get(identity) for identity in identities]
    teams = [
        [model.rating(mu=row.mu, sigma=row.sigma) if row is not None else model.rating()] for row in rows
    ]
    updated = model.rate(teams, ranks=[float(p) for p in placed])
    for identity in sorted(set(identities)):  # each identity once, new rows in one order (no deadlock)
        mine = [n for n, i in enumerate(identities) if i == identity]
        mu = sum(updated[n][0].mu for n in mine) / len(mine)
        sigma = sum(updated[n][0].sigma for n in mine) / len(mine)
        place = min(placed[n] for n in mine)
        row = rows[mine[0]]
        if row is None:
            row = RatingRow(identity=identity, game=table.game, players=table.players, games=0, wins=0)
            s.add(row)
        row.mu, row.sigma, row.updated = mu, sigma, at
        row.games += 1
        row.wins += place == 1
        s.add(
            RatingHistoryRow(
                identity=identity,
                game=table.game,
                players=table.players,
                table_id=table.id,
                at=at,
                mu=mu,
                sigma=sigma,
                ordinal=ordinal(mu, sigma),
                place=place,
            )
        )


def rate_pending(engine: Engine) -> int:
    """Rates every finished rated table whose rating has not run (at start-up); returns how many."""
    with Session(engine) as s:
        pending = s.scalars(
            select(TableRow.id)
            .where(TableRow.rated.is_(True), TableRow.rated_done.is_(False), TableRow.status == "over")
            .order_by(TableRow.created)
        ).all()
    return sum(rate_table(engine, table_id) for table_id in pending)


def _names(s: Session, identities: Sequence[str]) -> dict[str, tuple[str, str | None]]:
    """Returns each identity's shown name and username (None: a bot or a deleted account)."""
    ids = [int(i.split(":", 1)[1]) for i in identities if i.startswith("account:")]
    accounts = {a.id: a for a in s.scalars(select(AccountRow).where(AccountRow.id.in_(ids))).all()}
    names: dict[str, tuple[str, str | None]] = {}
    for identity in identities:
        kind, _, key = identity.partition(":")
        if kind == "bot":
            names[identity] = (key, None)
            continue
        account = accounts.get(int(key))
        if account is None or account.deleted:
            names[identity] = (DELETED, None)
        else:
            names[identity] = (account.display_name, account.username)
    return names


def _bot_accounts(s: Session, identities: Sequence[str]) -> set[str]:
    """Returns the identities among these that are server bot accounts (botaccounts/)."""
    ids = [int(i.split(":", 1)[1]) for i in identities if i.startswith("account:")]
    found = s.scalars(select(BotAccountRow.account_id).where(BotAccountRow.account_id.in_(ids))).all()
    return {f"account:{i}" for i in found}


def leaderboard(engine: Engine, game: str, players: int) -> list[dict[str, object]]:
    """Returns the best BOARD_SIZE identities of a game at a player count, by ordinal."""
    with Session(engine) as s:
        rows = s.scalars(
            select(RatingRow)
            .where(RatingRow.game == game, RatingRow.players == players)
            .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), RatingRow.identity)
            .limit(BOARD_SIZE)
        ).all()
        names = _names(s, [r.identity for r in rows])
        bots = _bot_accounts(s, [r.identity for r in rows])
    return [
        {
            "place": number,
            "name": names[r.identity][0],
            "username": names[r.identity][1],
            "bot": r.identity.startswith("bot:") or r.identity in bots,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": ordinal(r.mu, r.sigma),
            "games": r.games,
            "wins": r.wins,
        }
        for number, r in enumerate(rows, 1)
    ]


def profile(engine: Engine, username: str) -> dict[str, object] | None:
    """Returns an account's public profile (None: no such account, or a deleted one): its games played
    per game with their wins and places, its timeouts, and its ratings with their histories. Nothing
    private (no e-mail address)."""
    if not (username.isascii() and username.isprintable()):  # no username is (PostgreSQL refuses a NUL)
        return None
    with Session(engine) as s:
        account = s.scalar(select(AccountRow).where(AccountRow.username_key == username_key(username)))
        if account is None or account.deleted:
            return None
        identity = f"account:{account.id}"
        seats = s.execute(
            select(SeatRow.seat, SeatRow.timeouts, TableRow.game, TableRow.status)
            .add_columns(TableRow.ranks, TableRow.scores)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(SeatRow.account_id == account.id)
        ).all()
        played: dict[str, list[int]] = {}
        playing: dict[str, int] = {}
        timeouts = 0
        for seat, out, game, status, ranks, scores in seats:
            timeouts += out
            if status == DECLINED:
                continue  # a rematch a person declined was never played
            if status != "over":
                playing[game] = playing.get(game, 0) + 1
                continue
            final = ranks if ranks is not None else rank(scores or [])
            played.setdefault(game, []).append(final[seat] if seat < len(final) else 0)
        games = [
            {
                "game": game,
                "played": len(played.get(game, [])),
                "playing": playing.get(game, 0),
                "wins": played.get(game, []).count(1),
                "places": {str(p): played[game].count(p) for p in sorted(set(played.get(game, []))) if p},
            }
            for game in sorted({*played, *playing})
        ]
        ratings = []
        owned = select(RatingRow).where(RatingRow.identity == identity)
        for row in s.scalars(owned.order_by(RatingRow.game, RatingRow.players)).all():
            history = s.scalars(
                select(RatingHistoryRow)
                .where(
                    RatingHistoryRow.identity == identity,
                    RatingHistoryRow.game == row.game,
                    RatingHistoryRow.players == row.players,
                )
                .order_by(RatingHistoryRow.id.desc())
                .limit(HISTORY_SIZE)
            ).all()
            ratings.append(
                {
                    "game": row.game,
                    "players": row.players,
                    "mu": row.mu,
                    "sigma": row.sigma,
                    "ordinal": ordinal(row.mu, row.sigma),
                    "games": row.games,
                    "wins": row.wins,
                    "history": [
                        {
                            "at": h.at,
                            "table": h.table_id,
                            "mu": h.mu,
                            "sigma": h.sigma,
                            "ordinal": h.ordinal,
                            "place": h.place,
                        }
                        for h in reversed(history)
                    ],
                }
            )
        return {
            "username": account.username,
            "display_name": account.display_name,
            "bot": s.get(BotAccountRow, account.id) is not None,
            "since": account.created,
            "games": games,
            "timeouts": timeouts,
            "ratings": ratings,
        }
