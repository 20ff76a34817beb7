"""Catalogue: categories (a two-level hierarchy), products and their images."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm.attributes import flag_modified
from sqlmodel import Field, SQLModel

from shop_app.domain.product_names import vessel_group_name
from shop_app.domain.stock import LOW_STOCK_THRESHOLD
from shop_app.models.base import JSONType, utcnow


class Category(SQLModel, table=True):
    """A main category (``parent_id`` is None) or a subcategory ("collection") under one."""

    __tablename__ = "categories"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=255)
    slug: str = Field(max_length=255, unique=True, index=True)
    description: str = Field(default="", sa_type=sa.Text)
    parent_id: int | None = Field(default=None, foreign_key="categories.id", ondelete="SET NULL", index=True)
    is_active: bool = Field(default=True)
    sort_order: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class Product(SQLModel, table=True):
    """A sellable product. Each vessel × scent variation is its own row (docs/spec/storefront.md#grouping).

    ``group_key`` is derived from the name (size and product type, see ``domain.grouping``) and
    stored so the storefront can group variations in SQL instead of loading the whole catalogue.
    ``search_text`` is what the storefront search looks in (:func:`product_search_text`), kept up
    to date on every ORM insert and update (the listeners below); a bulk ``UPDATE`` of the name or
    description written by hand must set it too. ``vessel_key`` is the back office's vessel group
    (:func:`product_vessel_key`: the text before ``" - "``, case-folded), kept in step with the name
    the same way, so the grouped view groups, orders and pages in SQL. ``name_folded`` is the name
    case-folded, kept in step the same way: what the back office's lists search and sort names by.

    ``is_listed`` is False only for the custom candle builder's vessels (``services.custom_candles``):
    active and sold, but only as a custom design from /custom-creator, never in the shop's
    listings, search, product pages or sitemap.

    ``low_stock_alerted_at`` is set when the shop was told that an order left the product at 5 units
    or fewer (``services.low_stock``), and cleared whenever its stock is seen above 5 again (the
    listener below, and the order placement's stock update), so each crossing is told once.

    Indexes: the two ``ix_products_active_group_*`` cover the grouped shop page (its page of
    groups, also joined by id to a search's matches, and the first variations of each group by
    name), listed products only; ``ix_products_search_text`` is a trigram index on PostgreSQL
    (``LIKE '%word%'`` uses it) and on SQLite a narrow b-tree that a search scans instead of the
    table. ``ix_products_vessel_key_created`` serves the back office's grouped view: an opened
    group's variations newest first, whether a group has a variant of a searched name, and the
    recomputation of a group's summary row (:class:`ProductVesselGroup`), without reading the
    table. ``ix_products_name_folded`` is the back office's name search: trigram on PostgreSQL,
    on SQLite a narrow b-tree to scan (a count); ``ix_products_created_name`` and
    ``ix_products_vessel_key_created`` hold the name too, so a page or a group's variations compare
    it where they walk.

    The database itself keeps :class:`ProductVesselGroup` in step with this table (triggers).
    """

    __tablename__ = "products"
    __table_args__ = (
        sa.CheckConstraint("stock_quantity >= 0", name="ck_products_stock_non_negative"),
        sa.CheckConstraint("base_price_cents >= 0", name="ck_products_base_price_non_negative"),
        sa.CheckConstraint(
            "sale_price_cents IS NULL OR sale_price_cents > 0", name="ck_products_sale_price_positive"
        ),
        sa.Index("ix_products_active_created", "is_active", "created_at"),
        sa.Index(
            "ix_products_active_group_created",
            "is_active",
            "is_listed",
            "group_key",
            "created_at",
            "category_id",
            "subcategory_id",
            "id",
        ),
        sa.Index("ix_products_active_group_name", "is_active", "is_listed", "group_key", "name", "id"),
        sa.Index(
            "ix_products_search_text",
            "search_text",
            postgresql_using="gin",
            postgresql_ops={"search_text": "gin_trgm_ops"},
        ),
        sa.Index(
            "ix_products_vessel_key_created",
            "vessel_key",
            "created_at",
            "id",
            "stock_quantity",
            "name_folded",
        ),
        sa.Index(
            "ix_products_name_folded",
            "name_folded",
            postgresql_using="gin",
            postgresql_ops={"name_folded": "gin_trgm_ops"},
        ),
        # The back office's lists, newest (or oldest) first: a page of a search reads this index in
        # order, comparing the names (and main categories) it holds, and stops once the page is full.
        sa.Index("ix_products_created_name", "created_at", "id", "name_folded", "category_id").ddl_if(
            dialect="sqlite"
        ),
        # (On PostgreSQL the trigram index finds a search's names; a b-tree holding them lured its
        # planner into reading all 20,000 instead.)
        sa.Index("ix_products_created_id", "created_at", "id").ddl_if(dialect="postgresql"),
        # ... and of one category or subcategory, read in that order too; a search's count scans the
        # first (it holds the name and the main category a search compares).
        sa.Index("ix_products_category_created", "category_id", "created_at", "id", "name_folded").ddl_if(
            dialect="sqlite"
        ),
        sa.Index("ix_products_category_created_id", "category_id", "created_at", "id").ddl_if(
            dialect="postgresql"
        ),
        sa.Index("ix_products_subcategory_created", "subcategory_id", "created_at", "id"),
        # The figures "in stock" and "low stock": a short range of this index, not every row.
        sa.Index("ix_products_stock", "stock_quantity"),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=255, index=True)
    description: str = Field(default="", sa_type=sa.Text)
    search_text: str = Field(default="", sa_type=sa.Text, sa_column_kwargs={"server_default": ""})
    sku: str | None = Field(default=None, max_length=64, unique=True)
    category_id: int | None = Field(
        default=None, foreign_key="categories.id", ondelete="SET NULL", index=True
    )
    subcategory_id: int | None = Field(
        default=None, foreign_key="categories.id", ondelete="SET NULL", index=True
    )
    product_type: str | None = Field(default=None, max_length=50)
    group_key: str = Field(default="", max_length=255)
    vessel_key: str = Field(default="", sa_type=sa.Text, sa_column_kwargs={"server_default": ""})
    name_folded: str = Field(default="", sa_type=sa.Text, sa_column_kwargs={"server_default": ""})
    base_price_cents: int = Field(default=0)
    sale_price_cents: int | None = Field(default=None)
    cost_price_cents: int | None = Field(default=None)
    stock_quantity: int = Field(default=0)
    is_active: bool = Field(default=True)
    is_listed: bool = Field(default=True, sa_column_kwargs={"server_default": sa.true()})
    is_featured: bool = Field(default=False, index=True)
    is_new_arrival: bool = Field(default=False)
    scent_notes: list[str] = Field(default_factory=list, sa_type=JSONType)
    # {"size": "8 oz", "burn_time": "50-55 hours", "volume": "…"}
    details: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    # {"scents": [...], "vessels": [...]} — option values offered on the product page
    variants: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    # option value -> price in cents (size replaces the price, other options add to it)
    pricing: dict[str, int] = Field(default_factory=dict, sa_type=JSONType)
    ingredients: list[str] | None = Field(default=None, sa_type=JSONType)
    tags: list[str] | None = Field(default=None, sa_type=JSONType)  # the wizard's free tags
    care_instructions: str | None = Field(default=None, sa_type=sa.Text)
    weight_oz: Decimal | None = Field(default=None, max_digits=8, decimal_places=2)
    dimensions: str | None = Field(default=None, max_length=255)
    seo_title: str | None = Field(default=None, max_length=255)
    seo_description: str | None = Field(default=None, max_length=500)
    square_item_id: str | None = Field(default=None, max_length=192, index=True)
    square_variation_id: str | None = Field(default=None, max_length=192)
    # What Square holds of the name, description and price (domain.square_agreement); None: unknown.
    square_fingerprint: str | None = Field(default=None, max_length=64)
    low_stock_alerted_at: datetime | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


def display_price_sql(sale: Any, base: Any) -> sa.ColumnElement[int]:
    """What the customer pays, in SQL (``domain.pricing.display_price_cents``): the sale price when
    it is a real discount, else the base price. Written with no bound parameter, so a query's
    ``ORDER BY`` is the very expression ``ix_products_display_price`` indexes (a database only
    uses an expression index for an identical expression)."""
    zero: sa.ColumnElement[int] = sa.literal_column("0")
    return sa.case((sa.and_(sale.is_not(None), sale > zero, sale < base), sale), else_=base)


# The back office's lists by price: a page read in this order, not a sort of every product. It is
# also the narrowest index holding the name and the main category, so a search's count (a name or
# a category, ``services.admin.product_listing``) scans it alone; with the prices' own columns,
# PostgreSQL reads a page by price from it alone too (revision c81d5e0f3a69).
_products = Product.__table__.c  # type: ignore[attr-defined]
sa.Index(
    "ix_products_display_price",
    display_price_sql(_products.sale_price_cents, _products.base_price_cents),
    _products.id,
    _products.name_folded,
    _products.category_id,
    _products.base_price_cents,
    _products.sale_price_cents,
)


def product_search_text(name: str, description: str) -> str:
    """What the storefront search matches a product on: its name and description, case-folded.

    The line break keeps a query word (never containing whitespace, see ``domain.search.words``)
    from matching across the two.
    """
    return f"{name}\n{description}".casefold()


def product_vessel_key(name: str) -> str:
    """The back office's vessel group of a name, as ``products.vessel_key`` holds it: the base name
    (``domain.grouping.vessel_group_name``, the text before ``" - "``) case-folded."""
    return vessel_group_name(name).casefold()


@sa.event.listens_for(Product, "before_insert")
@sa.event.listens_for(Product, "before_update")
def _refresh_derived_columns(_mapper: Any, _connection: Any, product: Product) -> None:
    product.search_text = product_search_text(product.name, product.description or "")
    product.vessel_key = product_vessel_key(product.name or "")
    product.name_folded = (product.name or "").casefold()


@sa.event.listens_for(Product, "before_update")
def _rearm_low_stock_alert(_mapper: Any, _connection: Any, product: Product) -> None:
    """A product saved with more than 5 in stock (an admin edit, a CSV import) may alert again.

    Written even when the loaded value is already None: the mark is set by a plain ``UPDATE``
    (``services.low_stock``) that an object loaded earlier in the session has not seen.
    """
    if (product.stock_quantity or 0) > LOW_STOCK_THRESHOLD:
        product.low_stock_alerted_at = None
        flag_modified(product, "low_stock_alerted_at")


class ProductVesselGroup(SQLModel, table=True):
    """A vessel group of the back office's grouped view (``products.vessel_key``): how many
    variations it has and its newest one (creation time, then id), which names and orders it.

    Written only by the database: triggers on ``products`` recompute a group's row whenever a
    product joins or leaves it or its creation time changes (alembic revision 4b9a3f802bb3, which
    says how PostgreSQL's concurrent writers take turns). The grouped view pages these rows
    instead of grouping every variation per request.
    """

    __tablename__ = "product_vessel_groups"
    __table_args__ = (sa.Index("ix_product_vessel_groups_newest", "newest_created_at", "newest_id"),)

    vessel_key: str = Field(primary_key=True, sa_type=sa.Text)
    variations: int
    newest_created_at: datetime
    newest_id: int


class ProductImage(SQLModel, table=True):
    """An image of a product; the gallery is ordered by ``display_order``."""

    __tablename__ = "product_images"
    __table_args__ = (sa.Index("ix_product_images_product_order", "product_id", "display_order"),)

    id: int | None = Field(default=None, primary_key=True)
    product_id: int = Field(foreign_key="products.id", ondelete="CASCADE")
    image_url: str = Field(max_length=1024)
    # Pixel size of the stored largest rendition (services.media); None for external URLs.
    width: int | None = Field(default=None)
    height: int | None = Field(default=None)
    display_order: int = Field(default=0)
    is_primary: bool = Field(default=False)
    alt_text: str = Field(default="", max_length=255)
    created_at: datetime = Field(default_factory=utcnow)
