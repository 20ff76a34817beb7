"""An index for the back office's customer list (newest first, a page at a time).

Revision ID: a7c31f5e9b20
Revises: 5b1e0c7d2a94
Create Date: 2026-11-22 09:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "a7c31f5e9b20"
down_revision: str | None = "5b1e0c7d2a94"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_users_created", "users", ["created_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_users_created", table_name="users")
