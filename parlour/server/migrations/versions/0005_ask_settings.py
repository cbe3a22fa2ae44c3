"""Reaction-window settings: seats.ask (asking.AskMe's text) replaces seats.auto_pass; tables.spectators
says whether a table has a spectators' link (every table so far has one).

auto_pass true becomes ``playable`` (pass for me where I may only pass), false ``always``.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Adds seats.ask from seats.auto_pass, then drops auto_pass (both in place, like 0004)."""
    column = sa.Column("ask", sa.String(length=4000), nullable=False, server_default="playable")
    op.add_column("seats", column)
    op.execute("UPDATE seats SET ask = 'always' WHERE NOT auto_pass")
    op.drop_column("seats", "auto_pass")
    op.add_column("tables", sa.Column("spectators", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    """Brings seats.auto_pass back (true but for ``always``); the ``only`` and ``never`` settings
    become true, their card lists lost."""
    op.add_column("seats", sa.Column("auto_pass", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.execute("UPDATE seats SET auto_pass = (ask <> 'always')")
    op.drop_column("seats", "ask")
    op.drop_column("tables", "spectators")
