"""Known browsers: a browser that has signed in to an account before is held back only by its own
failed sign-ins (``sign_in_attempts.browser_hash``), never by other clients' (services/rate_limit.py),
so guessing from elsewhere, or from behind the same address, cannot lock its owner out.

Revision ID: d5a9c2e7b813
Revises: c81f3a9d5e42
Create Date: 2026-11-25 22:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "d5a9c2e7b813"
down_revision: str | None = "c81f3a9d5e42"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sign_in_attempts") as batch:
        batch.add_column(sa.Column("browser_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
    op.create_table(
        "known_browsers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("browser_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("last_signed_in_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "browser_hash", name="uq_known_browsers_user_browser"),
    )


def downgrade() -> None:
    op.drop_table("known_browsers")
    with op.batch_alter_table("sign_in_attempts") as batch:
        batch.drop_column("browser_hash")
