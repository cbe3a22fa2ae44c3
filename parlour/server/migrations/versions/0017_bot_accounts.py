"""Server bot accounts (issue 36): bot_accounts, one row per bot account (its account row has no
password): the owner, the API token's hash, the open stream and its presence lease."""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates bot_accounts (indexed by owner for the account page, by lease for the lobby)."""
    op.create_table(
        "bot_accounts",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("stream", sa.String(length=32), nullable=True),
        sa.Column("online_until", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("account_id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_bot_accounts_owner_id", "bot_accounts", ["owner_id"])
    op.create_index("ix_bot_accounts_online_until", "bot_accounts", ["online_until"])


def downgrade() -> None:
    """Drops it."""
    op.drop_index("ix_bot_accounts_online_until", "bot_accounts")
    op.drop_index("ix_bot_accounts_owner_id", "bot_accounts")
    op.drop_table("bot_accounts")
