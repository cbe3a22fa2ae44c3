"""The bot accounts' table (migration 0017): owner, token hash, stream and presence lease."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.storage import Base


class BotAccountRow(Base):
    """A bot account: its account row (``accounts.id``, no password), its owner, its token's SHA-256."""

    __tablename__ = "bot_accounts"
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_id: Mapped[int] = mapped_column(Integer, index=True)
    """The person's account that made it (and alone may revoke it)."""
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    """The SHA-256 of its API token (the token itself is shown once, never stored)."""
    created: Mapped[float] = mapped_column(Float)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether its owner revoked it: its token opens nothing any more, it is seated nowhere new."""
    stream: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The id of its one open stream (a newer stream replaces it; null: none)."""
    online_until: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    """The stream's presence lease (server clock): renewed by its heartbeat, online while in the future."""
