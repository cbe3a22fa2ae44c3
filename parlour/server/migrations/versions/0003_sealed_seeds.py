"""Sealed seeds: tables.sealed says a seed is stored sealed, and meta holds the seed key's check value.

The seeds of games already in play are sealed when the store opens with its key (storage.migrate), not
here: a migration has no key.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds tables.sealed (false for the seeds stored so far) and the meta table."""
    # In place (SQLite's ADD COLUMN): a batch copy would drop the table its seats and moves refer to.
    op.add_column("tables", sa.Column("sealed", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "meta",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    """Drops the meta table and tables.sealed (only for a database with no sealed seed: a migration has
    no key to unseal them)."""
    sealed = op.get_bind().exec_driver_sql("SELECT count(*) FROM tables WHERE sealed").scalar()
    if sealed:
        raise RuntimeError(f"{sealed} tables have sealed seeds: a downgrade would lose their games")
    op.drop_table("meta")
    op.drop_column("tables", "sealed")  # in place (SQLite 3.35's DROP COLUMN), like the upgrade
