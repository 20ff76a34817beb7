"""Storefront listings: the shop page (grouped or individual), featured products, category counts.

Every query returns one page; nothing here loads the whole catalogue. A grouped page takes two
statements whatever the size of the catalogue: the page of groups with their number, then the
first variations of those groups by name (see :func:`_grouped`). A search is looked up once per
request beforehand (``filters.product_filter``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.grouping import base_product_name, parse_product_name
from shop_app.domain.search import Term
from shop_app.models import Category, Product
from shop_app.models.base import saved_id
from shop_app.services.catalog.filters import (
    Condition,
    ProductFilter,
    primary_image_url,
    primary_image_width,
    product_filter,
    resolve_categories,
)
from shop_app.services.catalog.search import search_terms

PAGE_SIZE = 24
FEATURED_LIMIT = 12
MAX_VARIATIONS_PER_CARD = 24

_IMAGE_COLUMNS = (
    primary_image_url(col(Product.id)).label("image_url"),
    primary_image_width(col(Product.id)).label("image_width"),
)
_COLUMNS = (
    col(Product.id),
    col(Product.name),
    col(Product.description),
    col(Product.group_key),
    col(Product.base_price_cents),
    col(Product.sale_price_cents),
    col(Product.stock_quantity),
    col(Product.is_new_arrival),
    col(Product.is_featured),
    col(Product.variants),
    col(Product.pricing),
)


@dataclass(frozen=True, slots=True)
class Variation:
    """One sellable product row as a card shows it."""

    id: int
    name: str
    scent: str
    vessel: str
    description: str
    base_price_cents: int
    sale_price_cents: int | None
    stock_quantity: int
    is_new: bool
    is_featured: bool
    image_url: str
    image_width: int | None  # stored width of the image (srcset), None when unknown
    has_options: bool  # the shopper must choose options on the product page before adding


@dataclass(frozen=True, slots=True)
class ProductCard:
    """A card of the shop: a grouped product (several variations) or a single product."""

    key: str
    title: str
    variations: tuple[Variation, ...]
    variation_count: int

    @property
    def has_variants(self) -> bool:
        """Whether the shopper chooses something (a variation or options) on the product page."""
        return self.variation_count > 1 or any(v.has_options for v in self.variations)

    @property
    def shown_index(self) -> int:
        """The variation a card starts on: the first in stock (the first one when none is)."""
        return next((i for i, v in enumerate(self.variations) if v.stock_quantity > 0), 0)


@dataclass(frozen=True, slots=True)
class ShopQuery:
    """What the shop page asks for (from its URL and toggles)."""

    category: str | None = None
    subcategory: str | None = None
    search: str | None = None
    grouped: bool = True
    limit: int = PAGE_SIZE
    offset: int = 0


@dataclass(frozen=True, slots=True)
class ShopPage:
    """One page of cards and the number of cards in all."""

    cards: list[ProductCard]
    total: int
    terms: list[Term] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class CategoryCount:
    """A category pill: its name, code and number of active products."""

    id: int
    name: str
    slug: str
    parent_id: int | None
    count: int


def shop_page(session: Session, query: ShopQuery) -> ShopPage:
    """The cards of one page of the shop, newest first."""
    categories = resolve_categories(session, category=query.category, subcategory=query.subcategory)
    terms = search_terms(session, query.search)
    found = product_filter(session, categories=categories, terms=terms)
    if query.grouped:
        total, cards = _grouped(session, found, limit=query.limit, offset=query.offset)
    else:
        total, cards = _individual(session, found, limit=query.limit, offset=query.offset)
    return ShopPage(cards=cards, total=total, terms=terms)


def featured_cards(session: Session, *, limit: int = FEATURED_LIMIT) -> list[ProductCard]:
    """Up to ``limit`` featured variations, newest first, grouped by product."""
    rows = session.execute(
        sa.select(*_COLUMNS, *_IMAGE_COLUMNS)
        .where(col(Product.is_active), col(Product.is_listed), col(Product.is_featured))
        .order_by(col(Product.created_at).desc(), col(Product.id).desc())
        .limit(limit)
    ).all()
    by_key: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        by_key[row.group_key].append(row)
    return [_card(key, group, len(group)) for key, group in by_key.items()]


def category_counts(
    session: Session, *, grouped: bool = False, search: str | None = None
) -> list[CategoryCount]:
    """Active categories in display order with their number of active, listed products.

    ``grouped``: count what the grouped listing shows, one per product group (the scents of a
    range are one card), so a pill's number matches the cards under it. ``search``: count only
    the products the search finds, as the listing the pill leads to does.

    When no category is active (none set up yet, or all switched off), the categories the active
    products are filed under stand in for them (docs/spec/admin-products.md#calls: "if the table is missing or
    empty, derive categories from product categories and subcategories").
    """
    counted = (
        sa.func.count(sa.distinct(sa.func.coalesce(Product.group_key, sa.cast(Product.id, sa.String))))
        if grouped
        else sa.func.count()
    )
    found = product_filter(session, terms=search_terms(session, search)) if search else None
    listed = found.conditions if found is not None else [col(Product.is_active), col(Product.is_listed)]
    counts: dict[int, int] = defaultdict(int)
    for column in (col(Product.category_id), col(Product.subcategory_id)):
        for category_id, count in session.execute(
            select(column, counted).where(*listed, column.is_not(None)).group_by(column)
        ):
            counts[category_id] += count
    in_order = (col(Category.sort_order), col(Category.name), col(Category.id))
    categories = session.exec(select(Category).where(col(Category.is_active)).order_by(*in_order)).all()
    if not categories and counts:
        filed = select(Category).where(col(Category.id).in_(list(counts)))
        categories = session.exec(filed.order_by(*in_order)).all()
    return [
        CategoryCount(saved_id(c), c.name, c.slug, c.parent_id, counts.get(saved_id(c), 0))
        for c in categories
    ]


def active_product_count(session: Session) -> int:
    """How many products the shop sells."""
    listed = select(sa.func.count()).select_from(Product).where(Product.is_active, Product.is_listed)
    return session.execute(listed).scalar_one()


def _individual(
    session: Session, found: ProductFilter, *, limit: int, offset: int
) -> tuple[int, list[ProductCard]]:
    count = select(sa.func.count()).select_from(Product).where(*found.conditions)
    total = session.execute(count).scalar_one()
    rows = session.execute(
        sa.select(*_COLUMNS, *_IMAGE_COLUMNS)
        .where(*found.row_conditions)
        .order_by(col(Product.created_at).desc(), col(Product.id).desc())
        .limit(limit)
        .offset(offset)
    ).all()
    return total, [_card(f"p{row.id}", [row], 1, title=row.name) for row in rows]


def variation(session: Session, product_id: int) -> Variation | None:
    """The active, listed product ``product_id`` as a card shows it, or None."""
    row = session.execute(
        sa.select(*_COLUMNS, *_IMAGE_COLUMNS).where(
            col(Product.id) == product_id, col(Product.is_active), col(Product.is_listed)
        )
    ).first()
    return _variation(row) if row is not None else None


def _grouped(
    session: Session, found: ProductFilter, *, limit: int, offset: int
) -> tuple[int, list[ProductCard]]:
    """One page of groups, newest first (by their newest matching variation), then by key.

    Two statements: the page of groups with the number of groups in all, then the first
    variations of each group on the page by name, at most ``MAX_VARIATIONS_PER_CARD`` each.
    """
    key = Product.group_key
    page = session.execute(
        select(key, sa.func.count().label("variations"), sa.func.count().over().label("total_groups"))
        .where(*found.conditions)
        .group_by(key)
        .order_by(sa.func.max(Product.created_at).desc(), key)
        .limit(limit)
        .offset(offset)
    ).all()
    if not page:
        total = 0 if offset == 0 else _count_groups(session, found.conditions)
        return total, []
    keys = [row.group_key for row in page]
    shown: sa.Select | sa.CompoundSelect
    if found.narrow:
        shown = _ranked_first(found.conditions, keys)
    else:
        shown = _walked_first(found.row_conditions, keys)
    rows = session.execute(
        sa.select(*_COLUMNS, *_IMAGE_COLUMNS)
        .where(col(Product.id).in_(shown))
        .order_by(col(Product.name), col(Product.id))
    ).all()
    by_key: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        by_key[row.group_key].append(row)
    return page[0].total_groups, [_card(row.group_key, by_key[row.group_key], row.variations) for row in page]


def _walked_first(conditions: list[Condition], keys: list[str]) -> sa.CompoundSelect:
    """The ids of the first variations of each group: one short walk of the name index per group,
    stopping after ``MAX_VARIATIONS_PER_CARD``, however many variations match."""
    return sa.union_all(
        *(
            select(
                select(col(Product.id))
                .where(*conditions, col(Product.group_key) == key)
                .order_by(col(Product.name), col(Product.id))
                .limit(MAX_VARIATIONS_PER_CARD)
                .subquery()
            )
            for key in keys
        )
    )


def _ranked_first(conditions: list[Condition], keys: list[str]) -> sa.Select:
    """The same ids when the conditions are a few product ids: rank them all at once."""
    ranked = (
        select(
            col(Product.id),
            sa.func.row_number()
            .over(partition_by=col(Product.group_key), order_by=(col(Product.name), col(Product.id)))
            .label("rank"),
        )
        .where(*conditions, col(Product.group_key).in_(keys))
        .subquery()
    )
    return select(ranked.c.id).where(ranked.c.rank <= MAX_VARIATIONS_PER_CARD)


def _count_groups(session: Session, conditions: list[Condition]) -> int:
    count = select(sa.func.count(sa.distinct(col(Product.group_key)))).where(*conditions)
    return session.execute(count).scalar_one()


def _card(key: str, rows: list[Any], count: int, *, title: str | None = None) -> ProductCard:
    variations = tuple(_variation(row) for row in rows)
    if title is None:
        title = base_product_name(rows[0].name) if count > 1 else rows[0].name
    return ProductCard(key=key, title=title, variations=variations, variation_count=count)


def _variation(row: Any) -> Variation:
    parsed = parse_product_name(row.name)
    options = row.variants or {}
    return Variation(
        id=row.id,
        name=row.name,
        scent=parsed.scent or "",
        vessel=parsed.vessel or "",
        description=row.description,
        base_price_cents=row.base_price_cents,
        sale_price_cents=row.sale_price_cents,
        stock_quantity=row.stock_quantity,
        is_new=row.is_new_arrival,
        is_featured=row.is_featured,
        image_url=row.image_url or "",
        image_width=row.image_width,
        has_options=bool(row.pricing) or any(options.get(k) for k in ("scents", "vessels", "sizes")),
    )
