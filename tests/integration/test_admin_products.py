"""Manage Products services: the list, stats, edits, status and deletion (seed 001 §2, §4, §5, §8).

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from sqlmodel import Session, select

from shop_app.models import Category, Order, OrderItem, Product, ProductImage
from shop_app.services import media
from shop_app.services.admin import products as svc
from shop_app.services.admin.products import (
    DeleteOutcome,
    EditRefusedError,
    ProductChanges,
    ProductNotFoundError,
    SquareDeletion,
)
from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.services.square.sim_state import SimulatorLedger
from tests.support.square import checked_catalog

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
_clock = itertools.count()
_numbers = itertools.count(1)


def add_product(session: Session, name: str, **fields: Any) -> Product:
    """A product created one minute after the previous one (so "newest first" is defined)."""
    values = {
        "base_price_cents": 2000,
        "stock_quantity": 10,
        "created_at": T0 + timedelta(minutes=next(_clock)),
        **fields,
    }
    product = Product(name=name, **values)
    session.add(product)
    session.flush()
    return product


def add_order_for(session: Session, product: Product) -> None:
    """A paid order with one line of ``product``."""
    order = Order(
        order_number=f"ORD-T{next(_numbers):05d}",
        email="buyer@example.com",
        subtotal_cents=2000,
        tax_cents=240,
        shipping_cents=1500,
        total_cents=3740,
    )
    session.add(order)
    session.flush()
    session.add(
        OrderItem(
            order_id=order.id,
            product_id=product.id,
            quantity=1,
            unit_price_cents=2000,
            total_price_cents=2000,
        )
    )
    session.flush()


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


def changes(**fields: Any) -> ProductChanges:
    values = {
        "name": "Amber Jar - Vanilla",
        "description": "Warm",
        "base_price": "24.00",
        "sale_price": "",
        "category_id": "",
        "subcategory_id": "",
        "stock_quantity": "7",
        "is_active": True,
        "is_featured": False,
        "is_new_arrival": False,
    }
    return ProductChanges(**{**values, **fields})


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


# --------------------------------------------------------------------------- edit


def test_update_applies_the_dialog_and_the_seed_rules(
    session: Session, categories: dict[str, Category]
) -> None:
    product = add_product(session, "Old", sale_price_cents=900, category_id=categories["body"].id)

    svc.update_product(
        session,
        product.id,
        changes(
            name="  8oz Amber Soy Candle - Vanilla ",
            base_price="$24.50",
            sale_price="0",
            category_id=str(categories["candles"].id),
            subcategory_id="",
            stock_quantity="lots",
            is_active=False,
            is_featured=True,
            is_new_arrival=True,
        ),
    )

    session.expire_all()
    saved = session.get(Product, product.id)
    assert saved.name == "8oz Amber Soy Candle - Vanilla"
    assert saved.group_key == "8oz|soy candle"
    assert "vanilla" in saved.search_text
    assert (saved.base_price_cents, saved.sale_price_cents, saved.stock_quantity) == (2450, None, 0)
    assert (saved.category_id, saved.subcategory_id) == (categories["candles"].id, None)
    assert (saved.is_active, saved.is_featured, saved.is_new_arrival) == (False, True, True)


def test_a_positive_sale_price_is_kept_and_an_unparsable_one_is_null(session: Session) -> None:
    product = add_product(session, "Jar")

    svc.update_product(session, product.id, changes(sale_price="19.99"))
    assert session.get(Product, product.id).sale_price_cents == 1999
    svc.update_product(session, product.id, changes(sale_price="abc"))
    assert session.get(Product, product.id).sale_price_cents is None


@pytest.mark.parametrize(
    ("name", "price"), [("", "10"), ("   ", "10"), ("Jar", "0"), ("Jar", "-3"), ("Jar", "x")]
)
def test_update_is_refused_without_a_name_or_a_positive_base_price(
    session: Session, name: str, price: str
) -> None:
    product = add_product(session, "Jar", base_price_cents=1000)

    assert not svc.can_update(name, price)
    with pytest.raises(EditRefusedError):
        svc.update_product(session, product.id, changes(name=name, base_price=price))
    assert session.get(Product, product.id).name == "Jar"


def test_editing_a_missing_product_says_so(session: Session) -> None:
    with pytest.raises(ProductNotFoundError):
        svc.update_product(session, 999_999, changes())
    with pytest.raises(ProductNotFoundError):
        svc.set_active(session, 999_999, False)


def test_archive_and_activate(session: Session) -> None:
    product = add_product(session, "Jar")

    assert svc.set_active(session, product.id, False) == "Jar"
    assert not session.get(Product, product.id).is_active
    svc.set_active(session, product.id, True)
    assert session.get(Product, product.id).is_active


# --------------------------------------------------------------------------- delete


def _stored(media_dir: Path) -> str:
    return media.store_pil_image(
        Image.new("RGB", (400, 400), "orange"), media_dir=media_dir, folder="products"
    ).url


def _file(url: str, media_dir: Path) -> Path:
    return media_dir / url.removeprefix(f"{media.MEDIA_URL}/")


def test_delete_removes_the_product_its_images_and_then_its_files(session: Session, media_dir: Path) -> None:
    product = add_product(session, "Jar")
    url = _stored(media_dir)
    session.add(ProductImage(product_id=product.id, image_url=url, is_primary=True))
    session.commit()

    outcome = svc.delete_product(session, product.id, square=None, media_dir=media_dir)

    assert outcome == DeleteOutcome(name="Jar", deleted=True, square=SquareDeletion.NOT_LINKED)
    assert session.get(Product, product.id) is None
    assert session.exec(select(ProductImage)).all() == []
    assert not _file(url, media_dir).exists()


def test_delete_keeps_files_another_product_still_shows(session: Session, media_dir: Path) -> None:
    first, second = add_product(session, "Jar - Rose"), add_product(session, "Jar - Oud")
    url = _stored(media_dir)
    session.add_all(
        [ProductImage(product_id=first.id, image_url=url), ProductImage(product_id=second.id, image_url=url)]
    )
    session.commit()

    svc.delete_product(session, first.id, square=None, media_dir=media_dir)

    assert _file(url, media_dir).exists()
    svc.delete_product(session, second.id, square=None, media_dir=media_dir)
    assert not _file(url, media_dir).exists()


@pytest.fixture
def ledger() -> SimulatorLedger:
    return SimulatorLedger()


@pytest.fixture
def square(ledger: SimulatorLedger) -> SquareCatalog:
    """The real SDK on a fresh simulator, every exchange checked against Square's OpenAPI subset."""
    return checked_catalog(ledger)


def on_square(square: SquareCatalog, name: str) -> str:
    created = square.create_item(
        name=name, description="", sku=None, price_cents=2000, stock_quantity=1, idempotency_key=f"k-{name}"
    )
    assert created.ok and created.item_id
    return created.item_id


def test_delete_removes_the_item_on_square_first(
    session: Session, media_dir: Path, square: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = add_product(session, "Linked", square_item_id=on_square(square, "Linked"))
    session.commit()

    outcome = svc.delete_product(session, product.id, square=square, media_dir=media_dir)

    assert (outcome.deleted, outcome.square) == (True, SquareDeletion.DELETED)
    assert ledger.catalog_objects() == []
    assert session.get(Product, product.id) is None


def test_delete_continues_locally_when_square_fails(
    session: Session, media_dir: Path, square: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = add_product(session, "Failing", square_item_id=on_square(square, "Failing"))
    session.commit()
    ledger.fail_next("/v2/catalog/object/{object_id}", kind="http_500", times=3, method="DELETE")

    outcome = svc.delete_product(session, product.id, square=square, media_dir=media_dir)

    assert outcome == DeleteOutcome(
        name="Failing",
        deleted=True,
        square=SquareDeletion.FAILED,
        square_error="An injected fault (simulator).",
    )
    assert len(ledger.catalog_objects()) == 2  # the item and its variation are still on Square
    assert session.get(Product, product.id) is None


def test_without_square_settings_a_linked_product_is_deleted_here_and_reported(
    session: Session, media_dir: Path
) -> None:
    product = add_product(session, "Orphan", square_item_id="SQITEM")
    session.commit()

    outcome = svc.delete_product(session, product.id, square=None, media_dir=media_dir)

    assert (outcome.deleted, outcome.square, outcome.square_error) == (
        True,
        SquareDeletion.FAILED,
        svc.SQUARE_UNAVAILABLE,
    )


def test_a_product_without_a_square_id_is_only_deleted_here(
    session: Session, media_dir: Path, square: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = add_product(session, "Local only")
    session.commit()

    outcome = svc.delete_product(session, product.id, square=square, media_dir=media_dir)

    assert (outcome.deleted, outcome.square) == (True, SquareDeletion.NOT_LINKED)
    assert ledger.requests() == []


def test_an_ordered_product_is_not_deleted_anywhere(
    session: Session, media_dir: Path, square: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = add_product(session, "Best Seller", square_item_id=on_square(square, "Best Seller"))
    url = _stored(media_dir)
    session.add(ProductImage(product_id=product.id, image_url=url))
    add_order_for(session, product)
    session.commit()

    outcome = svc.delete_product(session, product.id, square=square, media_dir=media_dir)

    assert outcome == DeleteOutcome(name="Best Seller", deleted=False, referenced_by_orders=True)
    assert len(ledger.catalog_objects()) == 2
    assert session.get(Product, product.id) is not None
    assert _file(url, media_dir).exists()


def test_an_order_placed_after_the_check_still_blocks_the_delete(
    session: Session, media_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    product = add_product(session, "Racing")
    add_order_for(session, product)
    session.commit()
    answers = iter([False])  # the first check misses the order, as if it came a moment later
    real = svc.is_ordered
    monkeypatch.setattr(svc, "is_ordered", lambda s, pid: next(answers, None) or real(s, pid))

    outcome = svc.delete_product(session, product.id, square=None, media_dir=media_dir)

    assert outcome.referenced_by_orders and not outcome.deleted
    assert session.get(Product, product.id) is not None


def test_deleting_a_missing_product_says_so(session: Session) -> None:
    with pytest.raises(ProductNotFoundError):
        svc.delete_product(session, 424242, square=None)
