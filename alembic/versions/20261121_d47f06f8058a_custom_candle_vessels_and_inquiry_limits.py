"""custom candle vessels and inquiry limits

``products.is_listed``: False for the custom candle builder's vessels, sold only as a custom
design and never listed; the shop page's two covering indexes gain the column right after
``is_active`` so the listing stays an index-only scan. ``order_inquiries.client_hash`` (the
SHA-256 of the sender's address) and two indexes let a burst of inquiries from one client, or to
one e-mail address, be counted cheaply.

Revision ID: d47f06f8058a
Revises: 6830f3e03a77
Create Date: 2026-11-21 05:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "d47f06f8058a"
down_revision: str | None = "6830f3e03a77"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_GROUP_CREATED = ["group_key", "created_at", "category_id", "subcategory_id", "id"]
_GROUP_NAME = ["group_key", "name", "id"]


def upgrade() -> None:
    with op.batch_alter_table("products", schema=None) as batch_op:
        batch_op.add_column(sa.Column("is_listed", sa.Boolean(), server_default=sa.true(), nullable=False))
        batch_op.drop_index("ix_products_active_group_created")
        batch_op.drop_index("ix_products_active_group_name")
        batch_op.create_index("ix_products_active_group_created", ["is_active", "is_listed", *_GROUP_CREATED])
        batch_op.create_index("ix_products_active_group_name", ["is_active", "is_listed", *_GROUP_NAME])

    with op.batch_alter_table("order_inquiries", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("client_hash", sa.String(length=64), server_default="", nullable=False)
        )
        batch_op.create_index("ix_order_inquiries_client_created", ["client_hash", "created_at"])
        batch_op.create_index("ix_order_inquiries_email_created", ["email", "created_at"])


def downgrade() -> None:
    with op.batch_alter_table("order_inquiries", schema=None) as batch_op:
        batch_op.drop_index("ix_order_inquiries_email_created")
        batch_op.drop_index("ix_order_inquiries_client_created")
        batch_op.drop_column("client_hash")

    with op.batch_alter_table("products", schema=None) as batch_op:
        batch_op.drop_index("ix_products_active_group_name")
        batch_op.drop_index("ix_products_active_group_created")
        batch_op.create_index("ix_products_active_group_created", ["is_active", *_GROUP_CREATED])
        batch_op.create_index("ix_products_active_group_name", ["is_active", *_GROUP_NAME])
        batch_op.drop_column("is_listed")
