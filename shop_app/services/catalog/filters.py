"""SQL building blocks shared by the catalogue queries: filters and the card image."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from shop_app.domain.search import MIN_FUZZY_LENGTH, Term, compact
from shop_app.domain.slugs import category_slug, resolve_category_slug
from shop_app.models import Category, Product, ProductImage

# Beyond this many matches a search is not narrow: not worth listing their ids (see product_filter).
MAX_RESOLVED_MATCHES = 1000

_T = TypeVar("_T")

Condition = sa.SQLColumnExpression[bool]
"""A WHERE condition: an expression, or a boolean column (``col(Product.is_active)``)."""


@dataclass(frozen=True, slots=True)
class CategoryFilter:
    """The category and subcategory a listing is narrowed to, resolved to ids.

    ``unknown`` is set when the URL names a category that does not exist: nothing matches.
    """

    category_id: int | None = None
    subcategory_id: int | None = None
    unknown: bool = False


def code_slug(code: str, slugs: Collection[str]) -> str:
    """The slug a URL's category code stands for among ``slugs`` (the categories' slugs).

    A category whose slug is the code itself wins; otherwise a legacy storefront code names its
    category (``bodycare`` → ``body-care``). So a category the back office named "Fall" (slug
    ``fall``) is reachable even though ``fall`` is also the legacy code of the Fall Candle
    Collection.
    """
    exact = category_slug(code)
    return exact if exact in slugs else resolve_category_slug(code)


def resolve_categories(session: Session, *, category: str | None, subcategory: str | None) -> CategoryFilter:
    """Resolve the URL's category codes (slugs or the storefront's legacy codes) to ids."""
    codes = [code for code in (category, subcategory) if code]
    if not codes:
        return CategoryFilter()
    wanted = {slug for code in codes for slug in (category_slug(code), resolve_category_slug(code))}
    found = dict(
        session.execute(
            select(col(Category.slug), col(Category.id)).where(col(Category.slug).in_(wanted))
        ).all()
    )
    category_id = found.get(code_slug(category, found)) if category else None
    subcategory_id = found.get(code_slug(subcategory, found)) if subcategory else None
    unknown = (category is not None and category_id is None) or (
        subcategory is not None and subcategory_id is None
    )
    return CategoryFilter(category_id, subcategory_id, unknown)


@dataclass(frozen=True, slots=True)
class ProductFilter:
    """The products a listing shows, as WHERE conditions in two equivalent forms.

    ``conditions`` suit statements that go through every matching product (the page of groups,
    the counts): a search term is a set there, ``id IN`` the products whose text matches, found
    with one pass over the search index. ``row_conditions`` suit statements that stop after a
    few rows in some index order (the first variations of a group, a page of the individual
    view): a term is tested on each row visited. ``narrow``: both are the ids of at most
    :data:`MAX_RESOLVED_MATCHES` products.
    """

    conditions: list[Condition]
    row_conditions: list[Condition]
    narrow: bool = False


def product_filter(
    session: Session, *, categories: CategoryFilter = CategoryFilter(), terms: list[Term] | None = None
) -> ProductFilter:
    """Active, listed products in the categories matching every search term.

    A category id matches a product's main category or its subcategory, so a subcategory code
    given as ``category`` still works. A term matches, case-insensitively, the product name or
    description (``Product.search_text``) or the name of its category or subcategory, in any of
    its spellings.

    A search is looked up here, once: it usually leaves a few hundred products, and when there
    are at most :data:`MAX_RESOLVED_MATCHES` the filter is their ids, so the listing's
    statements fetch those rows by primary key instead of matching the text again.
    """
    conditions = product_conditions(categories=categories)
    if not terms:
        return ProductFilter(conditions, conditions)
    names = category_names(session)
    per_row = [_term_matches(term, names, as_set=False) for term in terms]
    # The text alone first (SQLite scans its narrow search index, PostgreSQL uses the trigram
    # index), stopping past the limit; then which of those the other conditions keep.
    found = select(Product.id).where(*per_row).limit(MAX_RESOLVED_MATCHES + 1).subquery()
    rows = session.execute(
        select(col(Product.id), sa.and_(*conditions).label("kept")).where(
            col(Product.id).in_(select(found.c.id))
        )
    ).all()
    if len(rows) > MAX_RESOLVED_MATCHES:
        as_sets = [_term_matches(term, names, as_set=True) for term in terms]
        return ProductFilter([*conditions, *as_sets], [*conditions, *per_row])
    ids = [row.id for row in rows if row.kept]
    # Inline literals (integers from the database): a bound parameter per id costs more.
    listed: list[Condition] = [
        col(Product.id).in_(sa.bindparam("product_ids", ids, expanding=True, literal_execute=True))
    ]
    return ProductFilter(listed, listed, narrow=True)


def product_conditions(*, categories: CategoryFilter = CategoryFilter()) -> list[Condition]:
    """WHERE conditions: active, listed products in the categories (see :func:`product_filter`)."""
    conditions: list[Condition] = [col(Product.is_active), col(Product.is_listed)]
    if categories.unknown:
        conditions.append(sa.false())
    if categories.category_id is not None:
        conditions.append(
            sa.or_(
                col(Product.category_id) == categories.category_id,
                col(Product.subcategory_id) == categories.category_id,
            )
        )
    if categories.subcategory_id is not None:
        conditions.append(col(Product.subcategory_id) == categories.subcategory_id)
    return conditions


def category_names(session: Session) -> dict[int, str]:
    """Every category's name, case-folded, by id (a few rows: terms are matched in Python)."""
    rows = session.execute(select(Category.id, Category.name))
    return {category_id: name.casefold() for category_id, name in rows}


def _term_matches(term: Term, category_names: Mapping[int, str], *, as_set: bool) -> sa.ColumnElement[bool]:
    in_text: sa.ColumnElement[bool]
    if as_set:
        # Only search_text in the subquery: SQLite scans its narrow search index, not the table.
        matched = aliased(Product, name="matched")
        in_text = col(Product.id).in_(select(matched.id).where(_text_matches(matched, term)))
    else:
        in_text = _text_matches(Product, term)
    # A category matches with or without its spaces and punctuation: "bodycare" is "Body Care".
    in_name = [
        i
        for i, name in category_names.items()
        if any(s in name or s in compact(name) for s in term.spellings)
    ]
    if not in_name:
        return in_text
    return sa.or_(in_text, col(Product.category_id).in_(in_name), col(Product.subcategory_id).in_(in_name))


def _text_matches(product: type[Product], term: Term) -> sa.ColumnElement[bool]:
    def contains(word: str) -> sa.ColumnElement[bool]:
        return contains_text(col(product.search_text), word)

    any_spelling = sa.or_(*(contains(s) for s in term.spellings))
    shared = _shared_part(term.spellings)
    if len(term.spellings) > 1 and len(shared) >= MIN_FUZZY_LENGTH:
        # A text holding any of the spellings holds their shared part: one pass over every text
        # with it, the spellings themselves only where it occurs ("lavend" for "lavendr").
        return sa.and_(contains(shared), any_spelling)
    return any_spelling


def _shared_part(words: tuple[str, ...]) -> str:
    """The longest text every word contains ("" when none)."""
    shortest = min(words, key=len)
    for size in range(len(shortest), 0, -1):
        for start in range(len(shortest) - size + 1):
            part = shortest[start : start + size]
            if all(part in word for word in words):
                return part
    return ""


def escape_like(text: str) -> str:
    """Make LIKE wildcards in ``text`` literal (escape character: backslash)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def contains_text(column: Any, text: str) -> sa.ColumnElement[bool]:
    """``column`` contains ``text`` as it is (its ``%`` and ``_`` are no wildcards)."""
    return column.like(f"%{escape_like(text)}%", escape="\\")


def primary_image_url(product_id: sa.SQLColumnExpression[int | None]) -> sa.ScalarSelect[str]:
    """Correlated subquery: the primary image, else the first by display order."""
    return _primary_image_column(col(ProductImage.image_url), product_id)


def primary_image_width(product_id: sa.SQLColumnExpression[int | None]) -> sa.ScalarSelect[int | None]:
    """Correlated subquery: the stored width of that same image (None when unknown)."""
    return _primary_image_column(col(ProductImage.width), product_id)


def _primary_image_column(
    column: sa.SQLColumnExpression[_T], product_id: sa.SQLColumnExpression[int | None]
) -> sa.ScalarSelect[_T]:
    return (
        select(column)
        .where(col(ProductImage.product_id) == product_id)
        .order_by(col(ProductImage.is_primary).desc(), col(ProductImage.display_order), col(ProductImage.id))
        .limit(1)
        .scalar_subquery()
    )
