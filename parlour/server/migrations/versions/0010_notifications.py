"""Notifications: the outbox of messages to deliver, each account's notification settings, its Web Push
subscriptions, and the server's VAPID key pair (made on first start)."""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates the outbox and the subscriptions, and adds the settings' columns to accounts."""
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=8), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("due", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("status", sa.String(length=8), nullable=False, server_default="pending"),
        sa.Column("sent_at", sa.Float(), nullable=True),
        sa.Column("last_error", sa.String(length=300), nullable=True),
        sa.Column("claimed_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_notifications_due", "notifications", ["status", "due"])
    op.create_index("ix_notifications_account", "notifications", ["account_id", "created"])
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), nullable=False, index=True),
        sa.Column("endpoint", sa.String(length=500), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "vapid_keys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("public_key", sa.String(length=200), nullable=False),
    )
    op.add_column(
        "accounts", sa.Column("notify_email", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "accounts", sa.Column("notify_digest", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("accounts", sa.Column("webhook_url", sa.String(length=500), nullable=True))


def downgrade() -> None:
    """Drops them."""
    for column in ("webhook_url", "notify_digest", "notify_email"):
        op.drop_column("accounts", column)
    op.drop_table("vapid_keys")
    op.drop_table("push_subscriptions")
    op.drop_index("ix_notifications_account", "notifications")
    op.drop_index("ix_notifications_due", "notifications")
    op.drop_table("notifications")
