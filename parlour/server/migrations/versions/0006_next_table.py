"""Play again: tables.next_table, the table its players went on to (public; null until asked)."""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds tables.next_table (null for the tables stored so far)."""
    # In place (SQLite's ADD COLUMN), like 0003: a batch copy would drop the table its seats refer to.
    op.add_column("tables", sa.Column("next_table", sa.String(length=32), nullable=True))


def downgrade() -> None:
    """Drops tables.next_table (the links between tables are lost; the games are not)."""
    op.drop_column("tables", "next_table")  # in place (SQLite 3.35's DROP COLUMN), like the upgrade
