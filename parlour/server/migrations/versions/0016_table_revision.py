"""Several nodes (issue 34): tables.revision, counting every write of a table's row, a move or not (a
name, a stand-in, a vote, a rematch's accept): what a node's catch-up compares (docs/cluster.md)."""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds the column, 0 for the tables stored before it."""
    # In place (SQLite's ADD COLUMN), like 0013: a batch copy would drop the table its seats refer to.
    op.add_column("tables", sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drops it (the catch-up then compares versions only)."""
    op.drop_column("tables", "revision")
