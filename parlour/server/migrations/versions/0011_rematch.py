"""Rematch (issue 32): each seat's accept of a "play again" table, who declined it, when it started."""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds seats.accepted (true for the seats stored so far), tables.declined_by and tables.started."""
    # In place (SQLite's ADD COLUMN), like 0006: a batch copy would drop the table its seats refer to.
    op.add_column("seats", sa.Column("accepted", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.add_column("tables", sa.Column("declined_by", sa.Integer(), nullable=True))
    op.add_column("tables", sa.Column("started", sa.Float(), nullable=True))


def downgrade() -> None:
    """Drops them; a rematch still waiting, or declined, becomes a table in play (the older server
    knows no other state: its people play it or leave it)."""
    op.execute("UPDATE tables SET status = 'playing' WHERE status IN ('waiting', 'declined')")
    op.drop_column("tables", "started")
    op.drop_column("tables", "declined_by")
    op.drop_column("seats", "accepted")
