"""A rematch's time to be accepted (ruling S-3): tables.expires, when a waiting rematch is declined."""

import time

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds tables.expires (indexed: the scheduler asks for the passed ones); a rematch already waiting
    gets a week from now."""
    # In place (SQLite's ADD COLUMN), like 0011: a batch copy would drop the table its seats refer to.
    op.add_column("tables", sa.Column("expires", sa.Float(), nullable=True))
    op.create_index("ix_tables_expires", "tables", ["expires"])
    week = time.time() + 7 * 86_400.0  # rematch.EXPIRES, as it was when this was written
    op.execute(sa.text("UPDATE tables SET expires = :at WHERE status = 'waiting'").bindparams(at=week))


def downgrade() -> None:
    """Drops it; a rematch still waiting then waits until its last accept or a decline, as before."""
    op.drop_index("ix_tables_expires", "tables")
    op.drop_column("tables", "expires")
