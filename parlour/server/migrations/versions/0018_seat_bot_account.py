"""Server bot accounts (issue 36): seats.bot_account, whether a seat is a bot account's (kind "human",
bound to a bot account): the views mark it, the votes and the rematch leave it out."""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds the column, true for the seats already bound to a bot account."""
    # In place (SQLite's ADD COLUMN), like 0016: a batch copy would drop the table its moves refer to.
    op.add_column("seats", sa.Column("bot_account", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute(
        "UPDATE seats SET bot_account = true WHERE account_id IN (SELECT account_id FROM bot_accounts)"
    )


def downgrade() -> None:
    """Drops it."""
    op.drop_column("seats", "bot_account")
