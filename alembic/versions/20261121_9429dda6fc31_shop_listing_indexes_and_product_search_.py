"""shop listing indexes and product search text

Covering indexes for the grouped shop page (its page of groups, and the first variations of each
group by name); they make ``ix_products_active_group`` redundant. ``products.search_text`` (name
and description, case-folded: ``models.catalog.product_search_text``) is what the storefront
search matches, filled in here for the existing rows; on PostgreSQL a trigram index lets
``LIKE '%word%'`` use it, on SQLite the same index is a narrow b-tree a search scans instead of
the table.

Revision ID: 9429dda6fc31
Revises: 9839596b79f3
Create Date: 2026-11-21 03:15:26.903343

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '9429dda6fc31'
down_revision: str | None = '9839596b79f3'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 1000

_products = sa.table(
    'products',
    sa.column('id', sa.Integer()),
    sa.column('name', sa.String()),
    sa.column('description', sa.Text()),
    sa.column('search_text', sa.Text()),
)


def _search_text(name: str, description: str) -> str:
    # models.catalog.product_search_text as of this revision (a migration must not change later).
    return f"{name}\n{description or ''}".casefold()


def _fill_search_text() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(_products.c.id, _products.c.name, _products.c.description).order_by(_products.c.id)
    ).all()
    update = (
        _products.update()
        .where(_products.c.id == sa.bindparam('product_id'))
        .values(search_text=sa.bindparam('text'))
    )
    for start in range(0, len(rows), _BATCH):
        connection.execute(
            update,
            [
                {'product_id': row.id, 'text': _search_text(row.name, row.description)}
                for row in rows[start : start + _BATCH]
            ],
        )


def upgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.execute('CREATE EXTENSION IF NOT EXISTS pg_trgm')
    with op.batch_alter_table('products', schema=None) as batch_op:
        batch_op.add_column(sa.Column('search_text', sa.Text(), server_default='', nullable=False))
        batch_op.drop_index('ix_products_active_group')
        batch_op.create_index(
            'ix_products_active_group_created',
            ['is_active', 'group_key', 'created_at', 'category_id', 'subcategory_id', 'id'],
            unique=False,
        )
        batch_op.create_index(
            'ix_products_active_group_name', ['is_active', 'group_key', 'name', 'id'], unique=False
        )
    _fill_search_text()
    with op.batch_alter_table('products', schema=None) as batch_op:
        batch_op.create_index(
            'ix_products_search_text',
            ['search_text'],
            unique=False,
            postgresql_using='gin',
            postgresql_ops={'search_text': 'gin_trgm_ops'},
        )


def downgrade() -> None:
    # The pg_trgm extension stays: other objects of the database may use it.
    with op.batch_alter_table('products', schema=None) as batch_op:
        batch_op.drop_index('ix_products_search_text')
        batch_op.drop_index('ix_products_active_group_name')
        batch_op.drop_index('ix_products_active_group_created')
        batch_op.create_index('ix_products_active_group', ['is_active', 'group_key'], unique=False)
        batch_op.drop_column('search_text')
