"""Storefront catalogue queries: filters, search, ordering, paging, images."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import Session

from shop_app.models import Category, Product, ProductImage
from shop_app.services.catalog import featured_products, list_products

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def _category(session: Session, name: str, slug: str, parent: Category | None = None) -> Category:
    category = Category(name=name, slug=slug, parent_id=parent.id if parent else None)
    session.add(category)
    session.flush()
    return category


def _product(session: Session, name: str, *, minutes: int, **fields: object) -> Product:
    product = Product(name=name, base_price_cents=2800, created_at=T0 + timedelta(minutes=minutes), **fields)
    session.add(product)
    session.flush()
    return product


def _names(page) -> list[str]:
    return [item.name for item in page.items]


def test_lists_active_products_newest_first(session: Session) -> None:
    _product(session, "Old", minutes=1)
    _product(session, "Hidden", minutes=2, is_active=False)
    _product(session, "New", minutes=3)

    page = list_products(session)

    assert _names(page) == ["New", "Old"]
    assert page.total == 2


def test_category_filter_matches_main_category_and_subcategory(session: Session) -> None:
    candles = _category(session, "Candles", "candles")
    fall = _category(session, "Fall Candle Collection", "fall-candle-collection", candles)
    lotions = _category(session, "Body Care", "body-care")
    _product(session, "Pumpkin", minutes=1, category_id=candles.id, subcategory_id=fall.id)
    _product(session, "Cedar", minutes=2, category_id=candles.id)
    _product(session, "Lotion", minutes=3, category_id=lotions.id)

    assert _names(list_products(session, category_slug="candles")) == ["Cedar", "Pumpkin"]
    assert _names(list_products(session, category_slug="fall-candle-collection")) == ["Pumpkin"]
    assert list_products(session, category_slug="no-such-category").total == 0


def test_search_is_case_insensitive_over_name_description_and_category_names(session: Session) -> None:
    body = _category(session, "Body Care", "body-care")
    hand = _category(session, "Hand & Body Lotion", "hand-body-lotion", body)
    _product(session, "8oz Amber Soy Candle - Vanilla Bean", minutes=1)
    _product(session, "Room Spray - Fresh Linen", minutes=2, description="Smells of VANILLA and cotton")
    _product(session, "8oz Pump - Coconut Lime", minutes=3, category_id=body.id, subcategory_id=hand.id)
    _product(session, "Reed Diffuser - Cedar", minutes=4)

    assert _names(list_products(session, search="vanilla")) == [
        "Room Spray - Fresh Linen",
        "8oz Amber Soy Candle - Vanilla Bean",
    ]
    assert _names(list_products(session, search="  LOTION ")) == ["8oz Pump - Coconut Lime"]


def test_search_treats_like_wildcards_literally(session: Session) -> None:
    _product(session, "100% Soy Candle - Rose", minutes=1)
    _product(session, "Soy Candle - Plain", minutes=2)

    assert _names(list_products(session, search="100%")) == ["100% Soy Candle - Rose"]
    assert list_products(session, search="_").total == 0


def test_pages_through_results(session: Session) -> None:
    for minute in range(5):
        _product(session, f"P{minute}", minutes=minute)

    first = list_products(session, limit=2)
    third = list_products(session, limit=2, offset=4)

    assert _names(first) == ["P4", "P3"]
    assert _names(third) == ["P0"]
    assert first.total == third.total == 5


def test_card_image_is_the_primary_image_else_the_first_by_order(session: Session) -> None:
    with_primary = _product(session, "A", minutes=1)
    without_primary = _product(session, "B", minutes=2)
    _product(session, "C", minutes=3)
    session.add_all(
        [
            ProductImage(product_id=with_primary.id, image_url="/a-2.webp", display_order=0),
            ProductImage(product_id=with_primary.id, image_url="/a-1.webp", display_order=1, is_primary=True),
            ProductImage(product_id=without_primary.id, image_url="/b-2.webp", display_order=2),
            ProductImage(product_id=without_primary.id, image_url="/b-1.webp", display_order=1),
        ]
    )
    session.flush()

    images = {item.name: item.image_url for item in list_products(session).items}

    assert images == {"A": "/a-1.webp", "B": "/b-1.webp", "C": ""}


def test_featured_products_are_active_featured_and_at_most_twelve(session: Session) -> None:
    for minute in range(14):
        _product(session, f"F{minute}", minutes=minute, is_featured=True)
    _product(session, "Plain", minutes=20)
    _product(session, "Archived", minutes=21, is_featured=True, is_active=False)

    featured = featured_products(session)

    assert [p.name for p in featured] == [f"F{m}" for m in range(13, 1, -1)]
