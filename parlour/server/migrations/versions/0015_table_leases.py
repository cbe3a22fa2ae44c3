"""Several nodes over one database (issue 34): the table_leases table, one row per table a node owns
(its node id and when the lease runs out), taken and renewed by compare-and-set (leases.py)."""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates table_leases (indexed by owner for the renewals, by expiry for the takeovers)."""
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"])
    op.create_index("ix_table_leases_expires", "table_leases", ["expires"])


def downgrade() -> None:
    """Drops it (a single server owns every table; a cluster's nodes take theirs again)."""
    op.drop_index("ix_table_leases_expires", "table_leases")
    op.drop_index("ix_table_leases_owner", "table_leases")
    op.drop_table("table_leases")
