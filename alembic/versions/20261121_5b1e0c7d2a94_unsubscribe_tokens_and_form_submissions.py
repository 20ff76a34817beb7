"""Unsubscribe links (hashed tokens per mailed link) and the public forms' submission log.

Revision ID: 5b1e0c7d2a94
Revises: d47f06f8058a
Create Date: 2026-11-21 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "5b1e0c7d2a94"
down_revision: str | None = "d47f06f8058a"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "unsubscribe_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subscriber_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["subscriber_id"],
            ["subscribers.id"],
            name="fk_unsubscribe_tokens_subscriber_id",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_unsubscribe_tokens"),
        sa.UniqueConstraint("token_hash", name="uq_unsubscribe_tokens_token_hash"),
    )
    op.create_index("ix_unsubscribe_tokens_subscriber_id", "unsubscribe_tokens", ["subscriber_id"])
    op.create_table(
        "form_submissions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("form", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("client", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("submitted_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_form_submissions"),
    )
    op.create_index(
        "ix_form_submissions_form_client_time", "form_submissions", ["form", "client", "submitted_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_form_submissions_form_client_time", table_name="form_submissions")
    op.drop_table("form_submissions")
    op.drop_index("ix_unsubscribe_tokens_subscriber_id", table_name="unsubscribe_tokens")
    op.drop_table("unsubscribe_tokens")
