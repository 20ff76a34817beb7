"""The baseline: the shop page the way the seed builds it, from the whole catalogue in memory.

Every request loads every active product with its images and the categories, groups the whole
catalogue with :func:`shop_app.domain.grouping.group_products`, then filters, searches, sorts and
paginates in Python. It answers the same :class:`ShopQuery` with the same cards, in the same
order, as :func:`shop_app.services.catalog.shop_page` (grouped or individual view), so the
benchmark can check that both did the same work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from shop_app.domain.grouping import ProductGroup, base_product_name, group_products, parse_product_name
from shop_app.domain.search import Term, query_terms, vocabulary_of
from shop_app.domain.slugs import resolve_category_slug
from shop_app.models import Category, Product, ProductImage
from shop_app.services.catalog import ProductCard, ShopPage, ShopQuery, Variation
from shop_app.services.catalog.listing import MAX_VARIATIONS_PER_CARD


@dataclass(frozen=True, slots=True)
class CatalogueRow:
    """A loaded product as :class:`shop_app.domain.grouping.GroupableProduct`, with its image."""

    product: Product
    image: ProductImage | None

    @property
    def id(self) -> int:
        """The product id."""
        return self.product.id or 0

    @property
    def name(self) -> str:
        """The product name."""
        return self.product.name

    @property
    def scents(self) -> Sequence[str]:
        """The product's ``variants.scents``."""
        return (self.product.variants or {}).get("scents") or ()

    @property
    def base_price_cents(self) -> int:
        """The regular price."""
        return self.product.base_price_cents

    @property
    def sale_price_cents(self) -> int | None:
        """The stored sale price."""
        return self.product.sale_price_cents


def baseline_shop_page(session: Session, query: ShopQuery) -> ShopPage:
    """One page of grouped cards, computed from the whole catalogue loaded into memory."""
    products = session.exec(select(Product).where(Product.is_active)).all()
    images = session.exec(select(ProductImage)).all()
    categories = session.exec(select(Category)).all()

    primary: dict[int, ProductImage] = {}
    for image in sorted(images, key=lambda i: (not i.is_primary, i.display_order, i.id or 0)):
        primary.setdefault(image.product_id, image)
    rows = [CatalogueRow(product, primary.get(product.id or 0)) for product in products]
    groups = group_products(rows)

    by_slug = {category.slug: category.id for category in categories}
    category_names = {category.id: category.name.casefold() for category in categories}
    vocabulary = vocabulary_of([row.name for row in rows] + [c.name for c in categories])
    terms = query_terms(query.search, vocabulary) if query.search and query.search.strip() else []
    wanted = _Filter(
        category_id=_resolve(by_slug, query.category),
        subcategory_id=_resolve(by_slug, query.subcategory),
        terms=terms,
        category_names=category_names,
    )

    matching: list[tuple[ProductGroup[CatalogueRow], list[CatalogueRow]]] = []
    for group in groups:
        variations = [row for row in group.variations if wanted.matches(row.product)]
        if variations:
            matching.append((group, variations))
    if not query.grouped:  # the individual view: every matching product is a card
        products_found = [row for _group, variations in matching for row in variations]
        products_found.sort(key=lambda row: (_created(row), row.id), reverse=True)
        page_rows = products_found[query.offset : query.offset + query.limit]
        cards = [_card(f"p{row.id}", [row], title=row.name) for row in page_rows]
        return ShopPage(cards=cards, total=len(products_found), terms=terms)
    # Newest group first (by its newest matching variation), then by key, as the SQL does.
    matching.sort(key=lambda item: item[0].group_key)
    matching.sort(key=lambda item: max(_created(row) for row in item[1]), reverse=True)
    page = matching[query.offset : query.offset + query.limit]
    cards = [_card(group.group_key, variations) for group, variations in page]
    return ShopPage(cards=cards, total=len(matching), terms=terms)


_MISSING = -1  # a category code that names no category: nothing matches


def _resolve(by_slug: dict[str, int | None], code: str | None) -> int | None:
    if not code:
        return None
    found = by_slug.get(resolve_category_slug(code))
    return _MISSING if found is None else found


@dataclass(frozen=True, slots=True)
class _Filter:
    category_id: int | None
    subcategory_id: int | None
    terms: list[Term]
    category_names: dict[int | None, str]

    def matches(self, product: Product) -> bool:
        if self.category_id is not None and self.category_id not in (
            product.category_id,
            product.subcategory_id,
        ):
            return False
        if self.subcategory_id is not None and product.subcategory_id != self.subcategory_id:
            return False
        if not self.terms:
            return True
        fields = (
            product.name.lower(),
            product.description.lower(),
            self.category_names.get(product.category_id, ""),
            self.category_names.get(product.subcategory_id, ""),
        )
        return all(
            any(spelling in text for spelling in term.spellings for text in fields) for term in self.terms
        )


def _created(row: CatalogueRow) -> datetime:
    return row.product.created_at


def _card(key: str, variations: list[CatalogueRow], *, title: str | None = None) -> ProductCard:
    shown = sorted(variations, key=lambda row: (row.name, row.id))[:MAX_VARIATIONS_PER_CARD]
    count = len(variations)
    if title is None:
        title = base_product_name(shown[0].name) if count > 1 else shown[0].name
    return ProductCard(
        key=key, title=title, variations=tuple(_variation(row) for row in shown), variation_count=count
    )


def _variation(row: CatalogueRow) -> Variation:
    product = row.product
    parsed = parse_product_name(product.name)
    options = product.variants or {}
    return Variation(
        id=row.id,
        name=product.name,
        scent=parsed.scent or "",
        vessel=parsed.vessel or "",
        description=product.description,
        base_price_cents=product.base_price_cents,
        sale_price_cents=product.sale_price_cents,
        stock_quantity=product.stock_quantity,
        is_new=product.is_new_arrival,
        is_featured=product.is_featured,
        image_url=row.image.image_url if row.image else "",
        image_width=row.image.width if row.image else None,
        has_options=bool(product.pricing) or any(options.get(k) for k in ("scents", "vessels", "sizes")),
    )
