"""session browser hash

``sessions.browser_hash``: the SHA-256 of the signing-in browser's binding cookie
(``shop_browser``), so Sign Out ends every session that browser opened, not only the one whose
cookie it holds now. Two tabs of one browser that each signed in hold two sessions: the cookie is
the later one's, and the first tab kept finding its own session by its state key after the
browser had signed out (stranger-found, 2026-11-26). Sessions opened before this revision have
none and end as before (by their cookie).

Revision ID: a7c4e9b2d815
Revises: f3b9e1c2a7d4
Create Date: 2026-12-03 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a7c4e9b2d815"
down_revision: str | None = "f3b9e1c2a7d4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("sessions", sa.Column("browser_hash", sa.String(length=64), nullable=True))
    op.create_index("ix_sessions_browser_hash", "sessions", ["browser_hash"])


def downgrade() -> None:
    op.drop_index("ix_sessions_browser_hash", table_name="sessions")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("browser_hash")
