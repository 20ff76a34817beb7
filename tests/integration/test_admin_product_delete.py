"""Deleting a product (docs/spec/admin-products.md#delete): Square first, order lines block it, image files
last.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set; Square is the real SDK on the
in-process simulator.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from sqlmodel import Session, select

from shop_app.models import Product, ProductImage
from shop_app.services import media
from shop_app.services.admin import products as svc
from shop_app.services.admin.products import DeleteOutcome, ProductNotFoundError, SquareDeletion
from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.admin_products import add_order_for, add_product
from tests.support.square import checked_catalog

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")


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
