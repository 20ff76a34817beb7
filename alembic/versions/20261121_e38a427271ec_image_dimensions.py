"""image dimensions

Pixel width and height of the largest stored rendition of product and website images
(``shop_app.services.media``), so pages can give ``<img>`` explicit dimensions and a ``srcset``.
Nullable: rows written before, and external URLs, have no known size.

Revision ID: e38a427271ec
Revises: 119d927000d2
Create Date: 2026-11-21 02:28:37.655204

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'e38a427271ec'
down_revision: str | None = '119d927000d2'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('product_images', schema=None) as batch_op:
        batch_op.add_column(sa.Column('width', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('height', sa.Integer(), nullable=True))

    with op.batch_alter_table('website_images', schema=None) as batch_op:
        batch_op.add_column(sa.Column('width', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('height', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('website_images', schema=None) as batch_op:
        batch_op.drop_column('height')
        batch_op.drop_column('width')

    with op.batch_alter_table('product_images', schema=None) as batch_op:
        batch_op.drop_column('height')
        batch_op.drop_column('width')
