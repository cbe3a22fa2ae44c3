"""Who is asked (issue 32's review): the seats whose decision a table's game waits for, on each commit."""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds tables.asked, null (unknown) for the tables stored so far: the hall fills it when it loads
    one, and every commit of a table writes it."""
    op.add_column("tables", sa.Column("asked", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drops it (the older server reads whose turn it is from its tables in memory alone)."""
    op.drop_column("tables", "asked")
