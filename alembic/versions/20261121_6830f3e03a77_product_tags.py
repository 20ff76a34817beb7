"""Products get the wizard's free tags (a JSON list, null when none).

Revision ID: 6830f3e03a77
Revises: c9843abeca39
Create Date: 2026-11-21 04:39:01.856308
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "6830f3e03a77"
down_revision: str | None = "c9843abeca39"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    json_type = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
    with op.batch_alter_table("products", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tags", json_type, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("products", schema=None) as batch_op:
        batch_op.drop_column("tags")
