"""Accounts (issue 32): accounts, sessions, e-mail tokens, rate-limit counters, and seats.account_id."""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates the accounts' tables and adds seats.account_id (null: a seat of no account)."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("username", sa.String(length=24), nullable=False),
        sa.Column("username_key", sa.String(length=24), nullable=False),
        sa.Column("display_name", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("email_confirmed", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("username_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_index("ix_sessions_expires", "sessions", ["expires"])
    op.create_table(
        "account_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(length=8), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_account_tokens_account_id", "account_tokens", ["account_id"])
    op.create_table(
        "rate_counts",
        sa.Column("key", sa.String(length=160), nullable=False),
        sa.Column("window_start", sa.Float(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    # In place (SQLite's ADD COLUMN), like 0004: a batch copy would rebuild the seats for nothing.
    op.add_column("seats", sa.Column("account_id", sa.Integer(), nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])


def downgrade() -> None:
    """Drops the accounts' tables and seats.account_id (the accounts are lost; the games are not)."""
    op.drop_index("ix_seats_account_id", "seats")
    op.drop_column("seats", "account_id")  # in place (SQLite 3.35's DROP COLUMN), like the upgrade
    op.drop_table("rate_counts")
    op.drop_index("ix_account_tokens_account_id", "account_tokens")
    op.drop_table("account_tokens")
    op.drop_index("ix_sessions_expires", "sessions")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
