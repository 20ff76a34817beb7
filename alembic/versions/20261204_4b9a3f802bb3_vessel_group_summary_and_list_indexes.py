"""vessel group summary and list indexes

Issue 17, acceptance 8: the back office's grouped view grouped all 20,000 variations on every
request (its first page and its search 'lavender' took 24 and 44 ms on a slow machine, against a
30 ms budget), and a name search built a list of every matching id.

- ``product_vessel_groups``: one row per vessel group (``products.vessel_key``) with its number
  of variations and its newest variation (creation time and id: what names and orders the group).
  The database keeps it, by triggers on ``products`` (insert, delete, and an update that changes
  ``vessel_key`` or ``created_at``): each recomputes the groups the row left and joined from the
  narrow vessel index, so no write path (ORM, bulk ``UPDATE``, import, a later data migration) can
  leave it behind. On PostgreSQL the recomputation first takes a transaction-scoped advisory lock
  on the group, so two transactions writing one group take turns and the later one (a new
  statement, a new snapshot under READ COMMITTED) counts what the earlier one committed.
- ``ix_products_created_name`` (SQLite: replaces ``ix_products_created_id``; with the main
  category), ``ix_products_category_created`` (SQLite), ``ix_products_display_price`` and
  ``ix_products_vessel_key_created`` hold the case-folded name too. On PostgreSQL the trigram
  index finds a search's names, and a b-tree holding them lured its planner into reading all
  20,000 (a search by name: 16 to 39 ms), so there its category index is
  ``ix_products_category_created_id``, without the name. On SQLite a search compares the name
  where the statement walks anyway (a page in its sort's order, a count, a group's variations), never
  through a list of matching ids (a one-letter search matched 19,000 of 20,000 products on
  SQLite, and building that list cost more than the rest of the request).
- ``ix_products_category_created`` (``…_created_id``) and ``ix_products_subcategory_created``: a category's page,
  newest first, read in order (SQLite sorted a category's every row for a page of 20).
- ``ix_products_stock``: the figures "in stock" and "low stock" count a short range.
- ``ix_products_display_price``: the lists by price (what the customer pays) read a page in
  order instead of sorting every product (the dashboard's page 3 by price: 17 ms to 0.03 ms).

A batch migration that recreates ``products`` on SQLite (``batch_alter_table`` with an operation
SQLite cannot ALTER) drops these triggers: recreate them after it (``tests/integration/
test_vessel_groups.py`` fails at head if they are missing).

Revision ID: 4b9a3f802bb3
Revises: a7c4e9b2d815
Create Date: 2026-12-04 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "4b9a3f802bb3"
down_revision: str | None = "a7c4e9b2d815"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# What the customer pays (models.catalog.display_price_sql renders this very expression).
_DISPLAY_PRICE = (
    "(CASE WHEN (sale_price_cents IS NOT NULL AND sale_price_cents > 0 AND sale_price_cents < base_price_cents) "
    "THEN sale_price_cents ELSE base_price_cents END)"
)


def _recompute(key: str) -> str:
    """SQL recomputing the summary row of the group whose key is the expression ``key``."""
    return f"""
    DELETE FROM product_vessel_groups WHERE vessel_key = {key};
    INSERT INTO product_vessel_groups (vessel_key, variations, newest_created_at, newest_id)
    SELECT {key}, count(*), max(created_at), (
        SELECT newest.id FROM products AS newest WHERE newest.vessel_key = {key}
        ORDER BY newest.created_at DESC, newest.id DESC LIMIT 1
    )
    FROM products WHERE vessel_key = {key} GROUP BY vessel_key;"""


_CHANGED = "OLD.vessel_key IS NOT NEW.vessel_key OR OLD.created_at IS NOT NEW.created_at"

_SQLITE_VESSEL_TRIGGERS = (
    f"""CREATE TRIGGER product_vessel_groups_insert AFTER INSERT ON products
    BEGIN {_recompute("NEW.vessel_key")}
    END""",
    f"""CREATE TRIGGER product_vessel_groups_delete AFTER DELETE ON products
    BEGIN {_recompute("OLD.vessel_key")}
    END""",
    f"""CREATE TRIGGER product_vessel_groups_update AFTER UPDATE OF vessel_key, created_at ON products
    WHEN {_CHANGED}
    BEGIN {_recompute("OLD.vessel_key")}{_recompute("NEW.vessel_key")}
    END""",
)

_POSTGRESQL_VESSEL_TRIGGERS = (
    f"""CREATE FUNCTION refresh_product_vessel_group(refreshed_key text) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended('product_vessel_groups:' || refreshed_key, 0));
        {_recompute("refreshed_key")}
    END $$""",
    """CREATE FUNCTION product_vessel_groups_refresh() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP <> 'INSERT' THEN
            PERFORM refresh_product_vessel_group(OLD.vessel_key);
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.vessel_key IS DISTINCT FROM OLD.vessel_key) THEN
            PERFORM refresh_product_vessel_group(NEW.vessel_key);
        END IF;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER product_vessel_groups_insert_delete AFTER INSERT OR DELETE ON products
    FOR EACH ROW EXECUTE FUNCTION product_vessel_groups_refresh()""",
    """CREATE TRIGGER product_vessel_groups_update AFTER UPDATE OF vessel_key, created_at ON products
    FOR EACH ROW
    WHEN (OLD.vessel_key IS DISTINCT FROM NEW.vessel_key OR OLD.created_at IS DISTINCT FROM NEW.created_at)
    EXECUTE FUNCTION product_vessel_groups_refresh()""",
)

def _fill_vessel_groups() -> None:
    op.execute(
        """INSERT INTO product_vessel_groups (vessel_key, variations, newest_created_at, newest_id)
        SELECT vessel_key, count(*), max(created_at), (
            SELECT newest.id FROM products AS newest WHERE newest.vessel_key = products.vessel_key
            ORDER BY newest.created_at DESC, newest.id DESC LIMIT 1
        )
        FROM products GROUP BY vessel_key"""
    )


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.create_table(
        "product_vessel_groups",
        sa.Column("vessel_key", sa.Text(), nullable=False),
        sa.Column("variations", sa.Integer(), nullable=False),
        sa.Column("newest_created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("newest_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("vessel_key"),
    )
    op.create_index(
        "ix_product_vessel_groups_newest", "product_vessel_groups", ["newest_created_at", "newest_id"]
    )
    _fill_vessel_groups()
    if dialect == "sqlite":
        for statement in _SQLITE_VESSEL_TRIGGERS:
            op.execute(statement)
    elif dialect == "postgresql":
        for statement in _POSTGRESQL_VESSEL_TRIGGERS:
            op.execute(statement)
    if dialect == "sqlite":  # a search's count scans it (it holds the name and the category)
        op.create_index(
            "ix_products_category_created", "products", ["category_id", "created_at", "id", "name_folded"]
        )
    else:  # PostgreSQL finds a search's names by its trigram index (see below)
        op.create_index("ix_products_category_created_id", "products", ["category_id", "created_at", "id"])
    op.create_index("ix_products_subcategory_created", "products", ["subcategory_id", "created_at", "id"])
    op.create_index("ix_products_stock", "products", ["stock_quantity"])
    op.create_index("ix_products_display_price", "products", [sa.text(_DISPLAY_PRICE), "id", "name_folded"])
    if dialect == "sqlite":
        op.drop_index("ix_products_created_id", table_name="products")
        op.create_index("ix_products_created_name", "products", ["created_at", "id", "name_folded", "category_id"])
    op.drop_index("ix_products_vessel_key_created", table_name="products")
    op.create_index(
        "ix_products_vessel_key_created",
        "products",
        ["vessel_key", "created_at", "id", "stock_quantity", "name_folded"],
    )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.drop_index("ix_products_vessel_key_created", table_name="products")
    op.create_index(
        "ix_products_vessel_key_created", "products", ["vessel_key", "created_at", "id", "stock_quantity"]
    )
    if dialect == "sqlite":
        op.drop_index("ix_products_created_name", table_name="products")
        op.create_index("ix_products_created_id", "products", ["created_at", "id"])
    op.drop_index("ix_products_display_price", table_name="products")
    op.drop_index("ix_products_stock", table_name="products")
    op.drop_index("ix_products_subcategory_created", table_name="products")
    op.drop_index(
        "ix_products_category_created" if dialect == "sqlite" else "ix_products_category_created_id",
        table_name="products",
    )
    if dialect == "sqlite":
        for trigger in (
            "product_vessel_groups_update",
            "product_vessel_groups_delete",
            "product_vessel_groups_insert",
        ):
            op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS product_vessel_groups_update ON products")
        op.execute("DROP TRIGGER IF EXISTS product_vessel_groups_insert_delete ON products")
        op.execute("DROP FUNCTION IF EXISTS product_vessel_groups_refresh()")
        op.execute("DROP FUNCTION IF EXISTS refresh_product_vessel_group(text)")
    op.drop_index("ix_product_vessel_groups_newest", table_name="product_vessel_groups")
    op.drop_table("product_vessel_groups")
