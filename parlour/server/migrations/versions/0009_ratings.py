"""Ratings (issue 32): OpenSkill ratings per identity, game and player count, their history, and per
table whether it is rated, whether its rating is done, and its final ranks."""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Creates the ratings' tables and adds tables.rated, rated_done and ranks (in place, like 0008)."""
    op.create_table(
        "ratings",
        sa.Column("identity", sa.String(length=80), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("identity", "game", "players"),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "players"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("identity", sa.String(length=80), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("identity", "table_id"),
    )
    op.create_index("ix_rating_history_identity", "rating_history", ["identity", "game", "players"])
    op.add_column("tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("tables", sa.Column("rated_done", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("tables", sa.Column("ranks", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drops them (the games stay; their ratings are lost)."""
    for column in ("ranks", "rated_done", "rated"):
        op.drop_column("tables", column)
    op.drop_index("ix_rating_history_identity", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
