"""Seeds are 62-bit numbers: a 64-bit column (SQLite stores either alike; PostgreSQL's INTEGER is 32-bit)."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Widens tables.seed to a 64-bit integer."""
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("seed", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=False)


def downgrade() -> None:
    """Narrows tables.seed back (only for databases whose seeds fit)."""
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("seed", type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=False)
