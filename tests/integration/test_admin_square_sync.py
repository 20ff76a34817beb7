"""Sync from Square and the inventory push, on the real database and the simulator (SDK calls
checked against Square's OpenAPI subset)."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from shop_app.domain.grouping import group_key
from shop_app.domain.square_agreement import fingerprint
from shop_app.models import Product
from shop_app.services.admin.square_sync import SquareSyncError, sync_from_square, sync_inventory
from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.square import checked_catalog

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")


@pytest.fixture
def ledger() -> SimulatorLedger:
    return SimulatorLedger()


@pytest.fixture
def catalog(ledger: SimulatorLedger) -> SquareCatalog:
    return checked_catalog(ledger)


def on_square(
    catalog: SquareCatalog, name: str, *, sku: str | None = None, price: int = 2000, key: str = ""
) -> tuple[str, str]:
    created = catalog.create_item(
        name=name,
        description=f"{name} from the till",
        sku=sku,
        price_cents=price,
        stock_quantity=4,
        idempotency_key=key or f"k-{name}-{sku}",
    )
    assert created.ok
    return created.item_id or "", created.variation_id or ""


def products(session: Session) -> list[Product]:
    session.expire_all()
    return list(session.exec(select(Product).order_by(Product.id)))


def test_a_linked_product_takes_squares_name_description_and_price(
    session: Session, catalog: SquareCatalog
) -> None:
    item_id, variation_id = on_square(catalog, "8oz Amber Soy Candle - Fig", price=2600)
    product = Product(
        name="8oz Amber Soy Candle - Vanilla",
        group_key=group_key("8oz Amber Soy Candle - Vanilla"),
        description="old",
        base_price_cents=2400,
        stock_quantity=9,
        square_item_id=item_id,
        square_variation_id="OLDVARIATION",
        # Square had the shop's values (they were pushed); the till renamed and repriced it since.
        square_fingerprint=fingerprint("8oz Amber Soy Candle - Vanilla", "old", 2400),
    )
    session.add(product)
    session.commit()

    assert sync_from_square(session, catalog).synced == 1
    session.commit()

    (synced,) = products(session)
    assert synced.name == "8oz Amber Soy Candle - Fig"
    assert synced.group_key == group_key("8oz Amber Soy Candle - Fig")
    assert synced.description == "8oz Amber Soy Candle - Fig from the till"
    assert (synced.base_price_cents, synced.sale_price_cents) == (2600, None)
    assert synced.square_variation_id == variation_id
    assert synced.stock_quantity == 9 and synced.is_active


def test_a_product_is_found_by_sku_and_linked(session: Session, catalog: SquareCatalog) -> None:
    item_id, variation_id = on_square(catalog, "Room Spray - Rose", sku="RS-ROSE", price=1600)
    session.add(Product(name="Rose spray", sku="RS-ROSE", base_price_cents=1600, stock_quantity=3))
    session.commit()

    outcome = sync_from_square(session, catalog)
    session.commit()

    (synced,) = products(session)
    assert (synced.square_item_id, synced.square_variation_id) == (item_id, variation_id)
    # Never known to agree with Square: the shop's name stays, and the sync says so.
    assert synced.name == "Rose spray"
    assert outcome.kept == ("Rose spray",)


def test_a_sale_price_that_square_charges_is_kept(session: Session, catalog: SquareCatalog) -> None:
    item_id, _ = on_square(catalog, "Hand & Body Lotion - Citrus", price=1500)
    session.add(
        Product(
            name="Hand & Body Lotion - Citrus",
            base_price_cents=1800,
            sale_price_cents=1500,
            square_item_id=item_id,
        )
    )
    session.commit()

    sync_from_square(session, catalog)
    session.commit()

    (synced,) = products(session)
    assert (synced.base_price_cents, synced.sale_price_cents) == (1800, 1500)


def test_unknown_items_become_inactive_products_for_review(session: Session, catalog: SquareCatalog) -> None:
    item_id, variation_id = on_square(catalog, "Reed Diffuser - Cedar", sku="RD-CEDAR", price=3200)
    on_square(catalog, "Second with the same SKU", sku="RD-CEDAR", key="dup")

    assert sync_from_square(session, catalog).synced == 2
    session.commit()

    first, second = products(session)
    assert first.name == "Reed Diffuser - Cedar" and first.sku == "RD-CEDAR"
    assert (first.square_item_id, first.square_variation_id) == (item_id, variation_id)
    assert first.base_price_cents == 3200 and first.stock_quantity == 0
    assert not first.is_active and first.category_id is None
    assert second.sku is None and not second.is_active  # the SKU belongs to the first


def test_a_sku_already_linked_to_another_item_is_not_taken(session: Session, catalog: SquareCatalog) -> None:
    session.add(Product(name="Linked elsewhere", sku="TAKEN", square_item_id="OTHERITEM"))
    session.commit()
    on_square(catalog, "Newcomer", sku="TAKEN")

    sync_from_square(session, catalog)
    session.commit()

    linked, newcomer = products(session)
    assert linked.name == "Linked elsewhere" and linked.square_item_id == "OTHERITEM"
    assert newcomer.name == "Newcomer" and newcomer.sku is None


def test_syncing_twice_changes_nothing_more(session: Session, catalog: SquareCatalog) -> None:
    on_square(catalog, "Tealights - Lavender", sku="TL-LAV")
    sync_from_square(session, catalog)
    session.commit()

    assert sync_from_square(session, catalog).synced == 1
    session.commit()

    assert len(products(session)) == 1


def test_an_empty_catalogue_syncs_nothing(session: Session, catalog: SquareCatalog) -> None:
    assert sync_from_square(session, catalog).synced == 0


def test_a_square_failure_is_a_sync_error_and_nothing_changes(
    session: Session, catalog: SquareCatalog, ledger: SimulatorLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("square.core.http_client._retry_timeout", lambda response, retries: 0.0)
    on_square(catalog, "Lost")
    ledger.fail_next("/v2/catalog/list", kind="http_500", times=3)

    with pytest.raises(SquareSyncError, match="An injected fault"):
        sync_from_square(session, catalog)
    assert products(session) == []


def test_inventory_sync_pushes_each_linked_products_stock(
    session: Session, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    item_a, variation_a = on_square(catalog, "A")
    item_b, variation_b = on_square(catalog, "B")
    session.add_all(
        [
            Product(name="A", stock_quantity=7, square_item_id=item_a, square_variation_id=variation_a),
            Product(name="B", stock_quantity=0, square_item_id=item_b, square_variation_id=variation_b),
            Product(name="Gone", stock_quantity=2, square_item_id="X", square_variation_id="DELETEDVAR"),
            Product(name="Local only", stock_quantity=5),
        ]
    )
    session.commit()

    result = sync_inventory(session, catalog)

    gone = session.exec(select(Product).where(Product.name == "Gone")).one()
    assert (result.updated, result.total, result.failed) == (2, 3, False)
    assert result.refused == ((gone.id, "Item variation DELETEDVAR not found."),)

    counts = {
        c["catalog_object_id"]: c["quantity"] for c in ledger.inventory_counts() if c["state"] == "IN_STOCK"
    }
    assert counts == {variation_a: "7", variation_b: "0"}


def test_inventory_sync_without_linked_products(session: Session, catalog: SquareCatalog) -> None:
    result = sync_inventory(session, catalog)

    assert (result.updated, result.total, result.refused, result.failed) == (0, 0, (), False)


def test_inventory_sync_that_square_takes_none_of_has_failed(
    session: Session, catalog: SquareCatalog, ledger: SimulatorLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("square.core.http_client._retry_timeout", lambda response, retries: 0.0)
    _, variation = on_square(catalog, "A")
    session.add(Product(name="A", stock_quantity=7, square_item_id="I", square_variation_id=variation))
    session.commit()
    ledger.fail_next("/v2/inventory/changes/batch-create", kind="http_500", times=3)

    result = sync_inventory(session, catalog)

    assert (result.updated, result.total, result.failed) == (0, 1, True)
    assert result.refused[0][1] == "An injected fault (simulator)."


def _pushed(session: Session, catalog: SquareCatalog) -> Product:
    """A product the shop pushed to Square: linked, with the fingerprint of what Square holds."""
    product = Product(name="Pillar Candle - Cedar", base_price_cents=3000, sale_price_cents=2400)
    item_id, variation_id = on_square(catalog, product.name, price=2400, key="pushed")
    catalog_item = catalog.list_items()[0]
    product.description = catalog_item.description
    product.square_item_id, product.square_variation_id = item_id, variation_id
    product.square_fingerprint = fingerprint(product.name, product.description, 2400)
    session.add(product)
    session.commit()
    return product


def test_an_edit_made_in_the_shop_is_never_undone_by_a_sync(session: Session, catalog: SquareCatalog) -> None:
    """Issue 17's finding 1: $30 (sale $24) set to $32 with no sale, then Sync: it stays $32."""
    product = _pushed(session, catalog)
    product.base_price_cents, product.sale_price_cents = 3200, None
    product.name = "Pillar Candle - Cedar & Smoke"
    session.add(product)
    session.commit()

    outcome = sync_from_square(session, catalog)
    session.commit()

    (kept,) = products(session)
    assert (kept.name, kept.base_price_cents, kept.sale_price_cents) == (
        "Pillar Candle - Cedar & Smoke",
        3200,
        None,
    )
    assert outcome.kept == ("Pillar Candle - Cedar & Smoke",)
    assert outcome.synced == 1


def test_when_both_sides_agree_nothing_changes_and_they_are_known_to_agree(
    session: Session, catalog: SquareCatalog
) -> None:
    product = _pushed(session, catalog)
    product.square_fingerprint = None  # agreement unknown (a product linked before fingerprints)
    session.add(product)
    session.commit()
    before = product.updated_at

    outcome = sync_from_square(session, catalog)
    session.commit()

    (same,) = products(session)
    assert outcome.kept == () and same.updated_at == before
    assert same.square_fingerprint == fingerprint(same.name, same.description, 2400)
