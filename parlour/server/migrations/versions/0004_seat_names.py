"""Seat names: seats.name, the name a person gave their seat (public; null until given)."""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds seats.name (null for the seats stored so far)."""
    # In place (SQLite's ADD COLUMN), like 0003: a batch copy would rebuild the table for nothing.
    op.add_column("seats", sa.Column("name", sa.String(length=64), nullable=True))


def downgrade() -> None:
    """Drops seats.name (the names are lost; the games are not)."""
    op.drop_column("seats", "name")  # in place (SQLite 3.35's DROP COLUMN), like the upgrade
