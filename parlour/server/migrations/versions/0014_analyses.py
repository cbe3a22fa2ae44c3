"""'Analyse this game' (issue 33): the analyses table, one row per finished table and view, queued for
the server's analysis worker (analyses.py, analysing.py)."""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates the analyses table (unique per table and view; indexed by status and request time for the
    worker's claims, and by requester for the per-address limit)."""
    op.create_table(
        "analyses",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("view", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("judged", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("total", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("requested", sa.Float(), nullable=False),
        sa.Column("started", sa.Float(), nullable=True),
        sa.Column("finished", sa.Float(), nullable=True),
        sa.Column("claim", sa.String(length=32), nullable=True),
        sa.Column("claimed_at", sa.Float(), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("error", sa.String(length=200), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("requester", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "view", name="uq_analyses_table_view"),
    )
    op.create_index("ix_analyses_queue", "analyses", ["status", "requested"])
    op.create_index("ix_analyses_requester", "analyses", ["requester", "requested"])


def downgrade() -> None:
    """Drops it (the analyses are lost; any can be asked for again)."""
    op.drop_index("ix_analyses_requester", "analyses")
    op.drop_index("ix_analyses_queue", "analyses")
    op.drop_table("analyses")
