"""Turn-based tables: the table's pace and window and away allowances, the scheduler's claim on a due
deadline, and per seat the clock's timeouts, the away time left and the others' votes to replace its person.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds the columns (in place, SQLite's ADD COLUMN, like 0006) and the index of due deadlines."""
    op.add_column("tables", sa.Column("pace", sa.String(length=16), nullable=False, server_default="live"))
    op.add_column("tables", sa.Column("window_seconds", sa.Float(), nullable=True))
    op.add_column("tables", sa.Column("away_seconds", sa.Float(), nullable=True))
    op.add_column("tables", sa.Column("claimed_version", sa.Integer(), nullable=True))
    op.add_column("tables", sa.Column("claimed_at", sa.Float(), nullable=True))
    op.add_column("seats", sa.Column("timeouts", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("seats", sa.Column("away_left", sa.Float(), nullable=True))
    op.add_column("seats", sa.Column("votes", sa.JSON(), nullable=False, server_default="[]"))
    op.add_column("seats", sa.Column("replaced", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_tables_deadline", "tables", ["deadline"])


def downgrade() -> None:
    """Drops them (turn-based tables become live tables with the same per-move clock)."""
    op.drop_index("ix_tables_deadline", "tables")
    for column in ("replaced", "votes", "away_left", "timeouts"):
        op.drop_column("seats", column)
    for column in ("claimed_at", "claimed_version", "away_seconds", "window_seconds", "pace"):
        op.drop_column("tables", column)
