"""The back office's product lists, one page at a time (docs/spec/admin-products.md#manage, #grouped;
docs/spec/admin.md#dashboard-products; issue 17, acceptance 8).

Manage Products (individual view) and the dashboard's Product Management tab are searched,
filtered, sorted, counted and paged by the database, like the orders list: one statement counts
the matches, one finds the page's ids (both read only narrow indexes when nothing is searched), a
third reads those rows with their categories and images. The
search follows :func:`shop_app.domain.admin_listing.matches_search` exactly: a part of the name
(case-folded, as the stored ``products.name_folded`` holds it), of the id, or of
the main category's name (the categories are few: they are matched in Python and the products
filtered by id).

The grouped view groups by vessel (the text before ``" - "``, ``domain.grouping.group_by_vessel``),
which the stored ``products.vessel_key`` holds case-folded (``models.catalog.product_vessel_key``).
The database keeps one summary row per group (``product_vessel_groups``: its size and newest
variation, by triggers), so a page of groups reads those rows, searched, ordered by each group's
newest variation, counted and paged in one statement; then only the page's groups are read whole:
their newest variation, or the first variations of an opened group. A group matches when its key
or a variant's name contains the search (``variants.search_groups``). The figures are counted from
the summary and short ranges of the stock index.

A name search never goes through a list of the matching ids (a one-letter search matches nearly
every product): PostgreSQL's trigram index serves ``LIKE``; on SQLite a count scans the narrow name
index, a page walks its sort's index (``ix_products_created_name`` holds the name beside the
creation order) and stops once full, and a group's variations are read from the vessel index,
which holds their names too.

Every function trusts that the caller has already checked the admin role.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.admin_listing import (
    GROUP_PAGE_SIZE,
    PAGE_SIZE,
    VARIANTS_HELD,
    VARIANTS_SHOWN,
    clamp_page,
    page_count,
    search_needle,
    searches_ids,
)
from shop_app.domain.grouping import scent_variants_label, split_scent, vessel_group_name
from shop_app.domain.product_sort import DEFAULT_SORT, ProductSort
from shop_app.domain.stock import LOW_STOCK_THRESHOLD
from shop_app.models import Category, Product, ProductVesselGroup
from shop_app.models.catalog import display_price_sql
from shop_app.services.admin.products import AdminProductRow, ProductStats, product_rows
from shop_app.services.admin.variants import GroupedStats
from shop_app.services.catalog.filters import contains_text

# --------------------------------------------------------------------------- SQL pieces


def _sortable_name(dialect: str) -> Any:
    """The case-folded name, compared by code point on both databases (as Python compares it)."""
    name = col(Product.name_folded)
    return name.collate("C") if dialect == "postgresql" else name


_GROUPS = ProductVesselGroup  # the vessel groups' summary, which the database keeps


def _named(needle: str) -> sa.ColumnElement[bool]:
    """Products whose case-folded name contains the (case-folded) needle: on PostgreSQL by its
    trigram index; on SQLite where the statement walks an index holding the name."""
    return contains_text(col(Product.name_folded), needle)


def _display_price() -> sa.ColumnElement[int]:
    """What the customer pays: the expression ``ix_products_display_price`` indexes."""
    return display_price_sql(col(Product.sale_price_cents), col(Product.base_price_cents))


def _order(sort: ProductSort, dialect: str) -> tuple[sa.ColumnElement, ...]:
    """``ORDER BY`` of a sort option (``domain.product_sort``): ties always end with the id."""
    pid, created = col(Product.id), col(Product.created_at)
    keys: dict[ProductSort, tuple[Any, bool]] = {
        ProductSort.NEWEST: (created, True),
        ProductSort.OLDEST: (created, False),
        ProductSort.NAME_ASC: (_sortable_name(dialect), False),
        ProductSort.NAME_DESC: (_sortable_name(dialect), True),
        ProductSort.PRICE_ASC: (_display_price(), False),
        ProductSort.PRICE_DESC: (_display_price(), True),
        ProductSort.STOCK_ASC: (col(Product.stock_quantity), False),
    }
    key, descending = keys.get(sort, keys[DEFAULT_SORT])
    return (key.desc(), pid.desc()) if descending else (key.asc(), pid.asc())


def _search_condition(needle: str, categories: list[int]) -> sa.ColumnElement[bool] | None:
    """Products matching the search: the name, the id (a needle of digits), or one of the main
    ``categories`` whose name matched (:func:`_categories_named`).

    Never through a list of matching ids (a one-letter needle matches nearly every product, and
    such a list of 20,000 ids cost more than the rest of the request): PostgreSQL finds the names
    by its trigram index; on SQLite a count scans one narrow index that holds the name, the main
    category and the id, and a page walks its sort's index (``ix_products_created_name`` holds the
    name and the category beside the creation order) and stops once the page is full."""
    if not needle:
        return None
    found: list[sa.ColumnElement[bool]] = [_named(needle)]
    if searches_ids(needle):
        found.append(contains_text(sa.cast(col(Product.id), sa.String), needle))
    if categories:
        found.append(col(Product.category_id).in_(categories))
    return sa.or_(*found)


def _categories_named(session: Session, needle: str) -> list[int]:
    """The categories whose name contains the needle (they are few: matched in Python)."""
    if not needle:
        return []
    return [
        row.id
        for row in session.execute(select(col(Category.id), col(Category.name))).all()
        if needle in row.name.casefold()
    ]


def _dialect(session: Session) -> str:
    return session.get_bind().dialect.name


# --------------------------------------------------------------------------- the individual list


@dataclass(frozen=True, slots=True)
class ProductPage:
    """One page of a product list, and how many products match in all."""

    rows: tuple[AdminProductRow, ...]
    total: int  # matching products
    page: int  # 1-based, within 1..pages
    pages: int  # at least 1


def list_products(
    session: Session,
    *,
    search: str = "",
    category_id: int | None = None,
    subcategory_id: int | None = None,
    sort: ProductSort = DEFAULT_SORT,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> ProductPage:
    """A page of products, active or archived, matching the search and the filters.

    Args:
        search: A part of the name, the id or the main category's name, any letter case
            (``domain.admin_listing.search_needle``).
        category_id: Only products of this main category (None: every one).
        subcategory_id: Only products of this subcategory (None: every one).
        sort: The order (newest first by default); ties end with the id.
        page: The 1-based page wanted; beyond the last page gives the last page.
        page_size: Products per page.
    """
    dialect = _dialect(session)
    needle = search_needle(search)
    categories = _categories_named(session, needle)

    def matching(*, in_order: bool) -> list[sa.ColumnElement[bool]]:
        category: Any = col(Product.category_id)
        subcategory: Any = col(Product.subcategory_id)
        if needle and in_order and dialect == "sqlite":
            # With a search, SQLite would read a category's every row through its index, then
            # sort the matches; "+ 0" keeps it off that index, so a page is read in the sort's
            # own order and stops at 20 matches (Candles + "vanilla" at 20,000 products: 8 ms to
            # 0.4 ms).
            category, subcategory = category + 0, subcategory + 0
        conditions: list[sa.ColumnElement[bool]] = []
        if category_id is not None:
            conditions.append(category == category_id)
        if subcategory_id is not None:
            conditions.append(subcategory == subcategory_id)
        found = _search_condition(needle, categories)
        if found is not None:
            conditions.append(found)
        return conditions

    counted = matching(in_order=False)
    total = (
        session.execute(select(sa.func.count()).select_from(Product).where(*counted)).scalar_one()
        if counted
        else catalogue_size(session)
    )
    page = clamp_page(page, page_count(total, page_size))
    hits: list[int] = []
    if total:
        hits = list(
            session.execute(
                select(col(Product.id))
                .where(*matching(in_order=True))
                .order_by(*_order(sort, dialect))
                .limit(page_size)
                .offset((page - 1) * page_size)
            ).scalars()
        )
    rows = product_rows(session, hits)
    return ProductPage(rows=tuple(rows), total=total, page=page, pages=page_count(total, page_size))


def product_counts(session: Session) -> ProductStats:
    """The individual view's cards over the whole catalogue: Total Products, Active, Featured,
    Low Stock (5 units or fewer, docs/spec/limits.md#back-office). Each count but the total is a
    short range of an index (the archived, the featured, the low stock), not a pass over every row."""
    total, archived, featured, low = session.execute(
        select(
            _counted_products(),
            select(sa.func.count()).where(sa.not_(col(Product.is_active))).scalar_subquery(),
            select(sa.func.count()).where(col(Product.is_featured)).scalar_subquery(),
            select(sa.func.count())
            .where(col(Product.stock_quantity) <= LOW_STOCK_THRESHOLD)
            .scalar_subquery(),
        )
    ).one()
    return ProductStats(total=total, active=total - archived, featured=featured, low_stock=low)


def catalogue_size(session: Session) -> int:
    """How many products there are, active or archived."""
    return session.execute(select(_counted_products())).scalar_one()


def _counted_products() -> sa.ScalarSelect[int]:
    """How many products there are, as the sum of the vessel groups' sizes: every product is in
    exactly one group (its ``vessel_key``, "" included), and the groups are few, where counting
    the products reads all of them (PostgreSQL: 3 ms at 20,000)."""
    return select(sa.func.coalesce(sa.func.sum(col(_GROUPS.variations)), 0)).scalar_subquery()


def product_row(session: Session, product_id: int) -> AdminProductRow | None:
    """One product as the lists show it (None: it no longer exists)."""
    found = product_rows(session, [product_id])
    return found[0] if found else None


# --------------------------------------------------------------------------- the grouped view


def _vessel_search(needle: str) -> sa.ColumnElement[bool]:
    """Groups whose key (the base name, case-folded) or a variant's name contains the needle: for
    each group of the summary, its variations in the vessel index (which holds their names) until
    one matches."""
    key = col(_GROUPS.vessel_key)
    variant_named = sa.exists().where(col(Product.vessel_key) == key, _named(needle))
    return sa.or_(contains_text(key, needle), variant_named)


def _newest_first() -> tuple[sa.ColumnElement, ...]:
    """Groups in order of their newest variation (``domain.grouping.group_by_vessel`` over the
    products newest first)."""
    return col(_GROUPS.newest_created_at).desc(), col(_GROUPS.newest_id).desc()


@dataclass(frozen=True, slots=True)
class GroupRow:
    """A vessel group of a page.

    Attributes:
        key: The group's case-folded base name (what identifies it).
        base_name: Its base name as the newest product spells it.
        label: 'Single product', '1 scent variant' or 'N scent variants'.
        expandable: More than one variation (docs/spec/admin-products.md#grouped).
        first: The newest variation (price, category and image of the group; Add Scent's model).
        variant_count: How many variations it has.
        variants: The variations shown, newest first: every one of an opened group up to the
            number asked for, the one of a single product, none of a closed group.
    """

    key: str
    base_name: str
    label: str
    expandable: bool
    first: AdminProductRow
    variant_count: int
    variants: tuple[AdminProductRow, ...]


@dataclass(frozen=True, slots=True)
class GroupPage:
    """One page of vessel groups, how many groups match, and the figures of the whole catalogue."""

    groups: tuple[GroupRow, ...]
    total: int  # matching groups
    page: int
    pages: int
    stats: GroupedStats


def list_groups(
    session: Session,
    *,
    search: str = "",
    opened: Mapping[str, int] | None = None,
    page: int = 1,
    page_size: int = GROUP_PAGE_SIZE,
) -> GroupPage:
    """A page of vessel groups whose base name or a variant's name contains ``search``.

    Args:
        search: Any letter case; blank: every group.
        opened: Keys of the opened groups, each with how many of its variants to show.
        page: The 1-based page wanted (clamped to the pages there are).
        page_size: Groups per page.
    """
    opened = opened or {}
    needle = search_needle(search)
    conditions = [_vessel_search(needle)] if needle else []
    total, page, shown = _group_page(session, conditions, page, page_size)
    wanted: dict[str, list[int]] = {}
    for key, size, head in shown:
        many = min(opened.get(key, 0), size) if size > 1 else 1
        wanted[key] = _first_variants(session, key, many) if many > 1 else [head]
    rows = {row.id: row for row in product_rows(session, [i for ids in wanted.values() for i in ids])}
    found = []
    for key, size, _head in shown:
        listed = [rows[i] for i in wanted[key] if i in rows]
        if not listed:  # deleted between the statements
            continue
        base_name, scent = split_scent(listed[0].name)
        found.append(
            GroupRow(
                key=key,
                base_name=base_name,
                label=scent_variants_label(size, has_scent=scent is not None),
                expandable=size > 1,
                first=listed[0],
                variant_count=size,
                variants=tuple(listed) if size == 1 or opened.get(key, 0) > 0 else (),
            )
        )
    pages = page_count(total, page_size)
    return GroupPage(groups=tuple(found), total=total, page=page, pages=pages, stats=_grouped_counts(session))


def _group_page(
    session: Session, conditions: list[sa.ColumnElement[bool]], page: int, page_size: int
) -> tuple[int, int, list[tuple[str, int, int]]]:
    """How many groups match, the page shown (clamped) and its groups' key, size and newest id,
    from the summary the database keeps (``product_vessel_groups``), not from every variation.

    One statement counts and pages at once; a page past the end needs a count and a second try.
    """
    key, size, head = col(_GROUPS.vessel_key), col(_GROUPS.variations), col(_GROUPS.newest_id)

    def read(number: int) -> list[Any]:
        return list(
            session.execute(
                select(key, size, head, sa.func.count().over().label("total"))
                .where(*conditions)
                .order_by(*_newest_first())
                .limit(page_size)
                .offset((number - 1) * page_size)
            ).all()
        )

    page = max(1, page)
    rows = read(page)
    if rows:
        total = rows[0].total
    else:
        total = (
            session.execute(select(sa.func.count()).select_from(_GROUPS).where(*conditions)).scalar_one()
            if page > 1
            else 0
        )
        last = clamp_page(page, page_count(total, page_size))
        if last != page:
            page, rows = last, read(last) if total else []
    return total, page, [(row.vessel_key, row.variations, row.newest_id) for row in rows]


def _first_variants(session: Session, key: str, many: int) -> list[int]:
    """The ids of a group's ``many`` newest variations, newest first."""
    return list(
        session.execute(
            select(col(Product.id))
            .where(col(Product.vessel_key) == key)
            .order_by(col(Product.created_at).desc(), col(Product.id).desc())
            .limit(many)
        ).scalars()
    )


def _grouped_counts(session: Session) -> GroupedStats:
    """The grouped view's cards: the groups from their summary, the variations in and low in
    stock from short ranges of the stock index (stock is never below 0)."""
    stock = col(Product.stock_quantity)
    groups, variants, sold_out, low = session.execute(
        select(
            select(sa.func.count()).select_from(_GROUPS).scalar_subquery(),
            _counted_products(),
            select(sa.func.count()).where(stock <= 0).scalar_subquery(),
            select(sa.func.count()).where(stock > 0, stock <= LOW_STOCK_THRESHOLD).scalar_subquery(),
        )
    ).one()
    return GroupedStats(groups=groups, variants=variants, in_stock=variants - sold_out, low_stock=low)


def vessel_group_names(session: Session) -> list[str]:
    """The base names of every vessel group, in list order (Convert to Variant's choices)."""
    names = session.execute(
        select(col(Product.name))
        .join(_GROUPS, col(Product.id) == col(_GROUPS.newest_id))
        .order_by(*_newest_first())
    ).scalars()
    return [vessel_group_name(name) for name in names]


def more_variants(shown: int, count: int) -> int:
    """How many variants an opened group shows after "Show more": :data:`VARIANTS_SHOWN` more,
    at most all of them and at most :data:`VARIANTS_HELD`."""
    return min(count, shown + VARIANTS_SHOWN, VARIANTS_HELD)


def first_shown(count: int) -> int:
    """How many variants a group shows when it is opened."""
    return min(count, VARIANTS_SHOWN)
