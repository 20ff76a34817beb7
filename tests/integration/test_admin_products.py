"""Manage Products services: the list, stats and status (docs/spec/admin-products.md#manage, #status).

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set. Deletion: test_admin_product_delete.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import Session

from shop_app.models import Category, Product, ProductImage
from shop_app.services.admin import products as svc
from shop_app.services.admin.products import ProductNotFoundError
from shop_app.services.catalog import search
from tests.support.admin_products import add_product


@pytest.fixture
def categories(session: Session) -> dict[str, Category]:
    candles = Category(name="Candles", slug="candles", sort_order=1)
    body = Category(name="Body Care", slug="body-care", sort_order=2)
    session.add_all([candles, body])
    session.flush()
    signature = Category(name="Signature Candle Collection", slug="signature", parent_id=candles.id)
    lotion = Category(name="Hand & Body Lotion", slug="lotion", parent_id=body.id)
    session.add_all([signature, lotion])
    session.flush()
    return {"candles": candles, "body": body, "signature": signature, "lotion": lotion}


# --------------------------------------------------------------------------- list and stats


def test_the_list_is_newest_first_with_names_image_and_flags(
    session: Session, categories: dict[str, Category]
) -> None:
    old = add_product(session, "Amber Jar - Vanilla", category_id=categories["candles"].id)
    new = add_product(
        session,
        "Lotion - Coconut",
        category_id=categories["body"].id,
        subcategory_id=categories["lotion"].id,
        sale_price_cents=1500,
        is_featured=True,
        is_new_arrival=True,
        stock_quantity=3,
        is_active=False,
    )
    session.add_all(
        [
            ProductImage(product_id=new.id, image_url="/media/p/second.webp", display_order=1),
            ProductImage(product_id=new.id, image_url="/media/p/main.webp", is_primary=True, width=1200),
        ]
    )
    session.flush()

    rows = svc.admin_products(session)

    assert [r.id for r in rows] == [new.id, old.id]
    top = rows[0]
    assert (top.category_name, top.subcategory_name) == ("Body Care", "Hand & Body Lotion")
    assert (top.image_url, top.image_width) == ("/media/p/main.webp", 1200)
    assert top.on_sale and top.low_stock and not top.is_active
    assert top.status_badge == "New"
    assert (rows[1].image_url, rows[1].subcategory_name, rows[1].status_badge) == ("", "", "Active")


def test_search_matches_name_id_or_category_ignoring_case(
    session: Session, categories: dict[str, Category]
) -> None:
    vanilla = add_product(session, "Amber Jar - Vanilla", category_id=categories["candles"].id)
    lotion = add_product(session, "Lotion - Coconut", category_id=categories["body"].id)

    def ids(**kw: Any) -> list[int]:
        return [r.id for r in svc.admin_products(session, **kw)]

    assert ids(search="VANILLA") == [vanilla.id]
    assert ids(search="body care") == [lotion.id]
    assert lotion.id in ids(search=str(lotion.id))
    assert ids(search="  ") == [lotion.id, vanilla.id]
    assert ids(category_id=categories["candles"].id) == [vanilla.id]
    assert ids(search="nothing like it") == []


def test_the_subcategory_filter_narrows_within_the_category(
    session: Session, categories: dict[str, Category]
) -> None:
    plain = add_product(session, "Candle A", category_id=categories["candles"].id)
    signature = add_product(
        session, "Candle B", category_id=categories["candles"].id, subcategory_id=categories["signature"].id
    )

    rows = svc.admin_products(session, category_id=categories["candles"].id)
    narrowed = svc.admin_products(
        session, category_id=categories["candles"].id, subcategory_id=categories["signature"].id
    )

    assert {r.id for r in rows} == {plain.id, signature.id}
    assert [r.id for r in narrowed] == [signature.id]


def test_stats_count_active_featured_and_low_stock_at_five_or_fewer(session: Session) -> None:
    add_product(session, "A", stock_quantity=5, is_featured=True)
    add_product(session, "B", stock_quantity=0, is_active=False)
    add_product(session, "C", stock_quantity=6)

    stats = svc.product_stats(svc.admin_products(session))

    assert stats == svc.ProductStats(total=3, active=2, featured=1, low_stock=2)


def test_category_choices_list_mains_and_their_subcategories(
    session: Session, categories: dict[str, Category]
) -> None:
    choices = svc.category_choices(session)

    by_name = {c.name: c for c in choices}
    assert by_name["Signature Candle Collection"].parent_id == categories["candles"].id
    assert by_name["Candles"].parent_id is None


# --------------------------------------------------------------------------- status
# (Edits of the Edit Product dialog: tests/integration/test_product_editors.py.)


def test_archiving_a_missing_product_says_so(session: Session) -> None:
    with pytest.raises(ProductNotFoundError):
        svc.set_active(session, 999_999, False)


def test_archive_and_activate(session: Session, categories: dict[str, Category]) -> None:
    product = add_product(session, "Jar", category_id=categories["candles"].id)

    assert svc.set_active(session, product.id, False) == "Jar"
    assert not session.get(Product, product.id).is_active
    svc.set_active(session, product.id, True)
    assert session.get(Product, product.id).is_active


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"category_id": None}, "Category is required"),
        ({"base_price_cents": 0}, "Price must be greater than 0"),
    ],
)
def test_a_product_the_editors_would_refuse_is_not_put_on_sale(
    session: Session, categories: dict[str, Category], fields: dict[str, object], reason: str
) -> None:
    """A stranger put a $0.00 item from Square without a category on sale, and it took an order
    that could never be paid: activating holds the product to the editors' rules."""
    values = {"category_id": categories["candles"].id, "is_active": False, **fields}
    product = add_product(session, "Till Tin", **values)

    with pytest.raises(svc.NotForSaleError, match=reason):
        svc.set_active(session, product.id, True)

    assert not session.get(Product, product.id).is_active
    assert svc.set_active(session, product.id, False) == "Till Tin"  # archiving is always allowed


def test_archiving_forgets_the_search_vocabulary_when_the_change_commits(session: Session) -> None:
    """The service, not the screen, refreshes the vocabulary; and only once the change is saved."""
    product = add_product(session, "Jar")
    session.commit()
    search.vocabulary(session)
    assert search._cache

    svc.set_active(session, product.id, False)
    assert search._cache  # not yet: a search now would cache the old words again
    session.rollback()
    assert search._cache  # nothing was saved, nothing to forget

    svc.set_active(session, product.id, False)
    session.commit()
    assert not search._cache
