"""products created id index

``ix_products_created_id`` (creation time, id): the back office's product lists are newest first
by default (ties by id), so a page of a broad search ("l", a letter typed in the search box,
matches most of the catalogue) reads its 20 rows in index order instead of sorting every match:
25 ms to 0.1 ms for that page at 20,000 products on PostgreSQL (issue 17, acceptance 8).

Revision ID: e5a8c3d17f20
Revises: d162661c6772
Create Date: 2026-12-01 09:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "e5a8c3d17f20"
down_revision: str | None = "d162661c6772"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_products_created_id", "products", ["created_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_products_created_id", table_name="products")
