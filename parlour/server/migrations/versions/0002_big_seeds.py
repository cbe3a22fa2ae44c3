"""Seeds are 62-bit numbers: a 64-bit column (SQLite stores either alike; PostgreSQL's INTEGER is 32-bit).

On PostgreSQL 0001 makes the column INTEGER and this widens it to BIGINT in the same upgrade (a new
database goes through both at once), so no 62-bit seed ever meets the narrow column.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

INT32 = (-(1 << 31), (1 << 31) - 1)
"""The values a 32-bit INTEGER column holds on PostgreSQL."""


def upgrade() -> None:
    """Widens tables.seed to a 64-bit integer."""
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("seed", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=False)


def downgrade() -> None:
    """Narrows tables.seed back (only for databases whose seeds fit: refused on PostgreSQL otherwise)."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":  # SQLite's INTEGER holds 64 bits: nothing to check there
        wide = sa.text("SELECT count(*) FROM tables WHERE seed < :low OR seed > :high")
        found = bind.execute(wide, {"low": INT32[0], "high": INT32[1]}).scalar()
        if found:
            raise RuntimeError(
                f"{found} tables have seeds wider than 32 bits: a downgrade would lose their games"
            )
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("seed", type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=False)
