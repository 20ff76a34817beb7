"""The catalogue push and the local Square at start-up (issue 17, acceptance 2), on the real
database and the simulator through the real SDK (every exchange checked against Square's OpenAPI
subset): items, variations and stock counts; a rerun that changes nothing; a restart with a fresh
ledger; the demo catalogue that Sync from Square then leaves as it is; Square failing at start-up.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import create_db_engine
from shop_app.demo import demo_catalog
from shop_app.domain.grouping import group_key
from shop_app.models import Product
from shop_app.services.admin.square_sync import sync_from_square
from shop_app.services.seeding import load_demo
from shop_app.services.square import catalog_push
from shop_app.services.square.catalog_push import PushReport, push_at_start, push_catalog
from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.settings import Settings, SquareEnvironment
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.square import checked_catalog

pytestmark = [
    pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square"),
    pytest.mark.usefixtures("fast_sdk_retries"),
]

ROOT = Path(__file__).resolve().parents[2]
LOCAL = Settings(square_environment=SquareEnvironment.LOCAL)
BATCH_UPSERT = "/v2/catalog/batch-upsert"
COUNTS = "/v2/inventory/changes/batch-create"


@pytest.fixture(scope="module")
def demo_media(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One media folder for the module: the demo artwork is drawn once."""
    return tmp_path_factory.mktemp("demo-media")


def add(session: Session, name: str, **fields: Any) -> Product:
    values: dict[str, Any] = {
        "description": f"{name}, poured by hand",
        "base_price_cents": 2400,
        "stock_quantity": 9,
    }
    product = Product(name=name, group_key=group_key(name), **{**values, **fields})
    session.add(product)
    session.commit()
    return product


def products(session: Session) -> list[Product]:
    session.commit()  # end the read transaction: the push writes through connections of its own
    session.expire_all()
    return list(session.exec(select(Product).order_by(col(Product.id))))


def items(ledger: SimulatorLedger) -> dict[str, dict[str, Any]]:
    return {o["id"]: o for o in ledger.catalog_objects() if o["type"] == "ITEM"}


def variations(ledger: SimulatorLedger) -> dict[str, dict[str, Any]]:
    return {
        o["id"]: o["item_variation_data"] for o in ledger.catalog_objects() if o["type"] == "ITEM_VARIATION"
    }


def stock_in_square(ledger: SimulatorLedger) -> dict[str, str]:
    return {
        c["catalog_object_id"]: c["quantity"] for c in ledger.inventory_counts() if c["state"] == "IN_STOCK"
    }


def writes(ledger: SimulatorLedger) -> list[str]:
    return [r.path for r in ledger.requests() if r.method != "GET"]


def snapshot(session: Session) -> list[tuple[Any, ...]]:
    """Everything Sync from Square could change of each product, and its Square link."""
    return [
        (
            p.id,
            p.name,
            p.group_key,
            p.description,
            p.sku,
            p.base_price_cents,
            p.sale_price_cents,
            p.stock_quantity,
            p.is_active,
            p.updated_at,
            p.square_item_id,
            p.square_variation_id,
        )
        for p in products(session)
    ]


def test_each_active_product_becomes_an_item_with_its_variation_price_and_stock(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    plain = add(session, "8oz Amber Jar - Fig", sku="AJ-FIG", stock_quantity=12)
    on_sale = add(session, "Tin - Cedar", sku="TIN-CED", base_price_cents=1800, sale_price_cents=1500)
    no_sku = add(session, "Room Spray - Rose", stock_quantity=0)
    hidden = add(session, "Archived Pillar", is_active=False)

    report = push_catalog(catalog, engine=engine)

    assert report == PushReport(pushed=3, counted=3)
    assert writes(ledger) == [BATCH_UPSERT, COUNTS]  # one batch of items, one request of counts
    stored, shop = items(ledger), {p.id: p for p in products(session)}
    assert shop[hidden.id].square_item_id is None  # archived and never in Square: left out
    expected = {
        plain.id: ("8oz Amber Jar - Fig", "AJ-FIG", 2400, "12"),
        on_sale.id: ("Tin - Cedar", "TIN-CED", 1500, "9"),  # the price it sells for
        no_sku.id: ("Room Spray - Rose", None, 2400, "0"),
    }
    for product_id, (name, sku, price, stock) in expected.items():
        product = shop[product_id]
        item = stored[product.square_item_id]["item_data"]
        assert (item["name"], item["description"]) == (name, f"{name}, poured by hand")
        variation = variations(ledger)[product.square_variation_id]
        assert variation["item_id"] == product.square_item_id
        assert (variation["name"], variation["pricing_type"]) == ("Regular", "FIXED_PRICING")
        assert variation.get("sku") == sku
        assert variation["price_money"] == {"amount": price, "currency": "CAD"}
        assert stock_in_square(ledger)[product.square_variation_id] == stock
    assert len(stored) == 3


def test_a_rerun_changes_nothing(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    for name in ("Votive - Fig", "Votive - Rose"):
        add(session, name)
    push_catalog(catalog, engine=engine)
    before, requests, square = snapshot(session), len(ledger.requests()), ledger.catalog_objects()

    again = push_catalog(catalog, engine=engine)

    assert again == PushReport(present=2)
    assert snapshot(session) == before
    assert ledger.catalog_objects() == square
    assert [r.method for r in ledger.requests()[requests:]] == ["GET"]  # only Square's list was read


def test_a_restart_with_an_empty_square_makes_the_linked_products_again(
    session: Session, engine: Engine, ledger: SimulatorLedger, catalog: SquareCatalog
) -> None:
    add(session, "Votive - Fig", stock_quantity=4)
    push_catalog(catalog, engine=engine)
    add(session, "Synced and archived", is_active=False, square_item_id="OLD", square_variation_id="OLDV")
    with Session(engine) as other:
        other.get(Product, products(session)[0].id).stock_quantity = 3  # sold one before the restart
        other.commit()
    fresh = SimulatorLedger()  # the shop started again: its simulator remembers nothing

    report = push_catalog(checked_catalog(fresh), engine=engine)

    assert report == PushReport(pushed=2, counted=2)
    fig, archived = products(session)
    assert set(items(fresh)) == {fig.square_item_id, archived.square_item_id}
    assert stock_in_square(fresh) == {fig.square_variation_id: "3", archived.square_variation_id: "9"}
    assert archived.square_item_id != "OLD" and not archived.is_active
    assert sync_from_square(session, checked_catalog(fresh)).synced == 2


def test_links_lost_after_square_made_the_items_get_the_same_items_again(
    session: Session,
    engine: Engine,
    catalog: SquareCatalog,
    ledger: SimulatorLedger,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The batch's key is derived from what it sends: a second push of the same products (a
    retry, or a second worker starting at the same moment) gets Square's first answer."""
    for name in ("Votive - Fig", "Votive - Rose"):
        add(session, name)
    link = catalog_push._link
    monkeypatch.setattr(catalog_push, "_link", lambda *_args: [])  # e.g. another worker linked them

    lost = push_catalog(catalog, engine=engine)
    monkeypatch.setattr(catalog_push, "_link", link)
    again = push_catalog(catalog, engine=engine)

    assert lost == PushReport(failed=2)
    assert again == PushReport(pushed=2, counted=2)
    assert len(items(ledger)) == 2  # no second set of items
    assert {p.square_item_id for p in products(session)} == set(items(ledger))


def test_two_workers_starting_together_link_the_same_items(
    session: Session,
    engine: Engine,
    catalog: SquareCatalog,
    ledger: SimulatorLedger,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("Votive - Fig", "Votive - Rose"):
        add(session, name)
    seen_by_the_second = catalog_push._candidates(engine, None)  # read before the first linked them

    first = push_catalog(catalog, engine=engine)
    linked = snapshot(session)
    monkeypatch.setattr(catalog_push, "_candidates", lambda *_args: seen_by_the_second)
    second = push_catalog(catalog, engine=engine)

    assert first == second == PushReport(pushed=2, counted=2)  # Square's first answer, twice
    assert len(items(ledger)) == 2
    assert snapshot(session) == linked


def test_batches_keep_to_squares_limits_and_a_refused_one_does_not_stop_the_others(
    session: Session,
    engine: Engine,
    catalog: SquareCatalog,
    ledger: SimulatorLedger,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(catalog_push, "ITEMS_PER_BATCH", 2)
    monkeypatch.setattr(catalog_push, "COUNTS_PER_REQUEST", 1)
    for index in range(5):
        add(session, f"Votive - Scent {index}")
    ledger.fail_next(BATCH_UPSERT, kind="drop_connection")  # the first batch never reaches Square

    first = push_catalog(catalog, engine=engine)

    assert first == PushReport(
        pushed=3, counted=3, failed=2, errors=("Could not reach Square (RemoteProtocolError)",)
    )
    assert writes(ledger) == [BATCH_UPSERT, BATCH_UPSERT, COUNTS, COUNTS, BATCH_UPSERT, COUNTS]
    assert [p.square_item_id is not None for p in products(session)] == [False, False, True, True, True]

    second = push_catalog(catalog, engine=engine)

    assert second == PushReport(pushed=2, counted=2, present=3)
    assert len(items(ledger)) == 5 and all(p.square_item_id in items(ledger) for p in products(session))


def test_only_the_products_asked_for(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    wanted, other = add(session, "Votive - Fig"), add(session, "Votive - Rose")

    assert push_catalog(catalog, engine=engine, product_ids=[wanted.id]) == PushReport(pushed=1, counted=1)
    assert [p.square_item_id is not None for p in products(session)] == [True, False]
    assert other.id is not None


def test_after_start_the_demo_catalogue_is_in_square_and_sync_changes_nothing(
    session: Session, engine: Engine, ledger: SimulatorLedger, catalog: SquareCatalog, demo_media: Path
) -> None:
    load_demo(session, media_dir=demo_media)
    session.commit()
    shop = products(session)

    report = push_at_start(LOCAL, engine=engine, catalog=catalog)

    assert report == PushReport(pushed=len(shop), counted=len(shop))
    assert len(shop) >= len(demo_catalog.PRODUCTS)
    linked = products(session)
    assert all(p.square_item_id and p.square_variation_id for p in linked)
    assert stock_in_square(ledger) == {p.square_variation_id: str(p.stock_quantity) for p in linked}
    before = snapshot(session)

    synced = sync_from_square(session, catalog)
    session.commit()

    assert synced.synced == len(linked) and synced.kept == ()  # "Successfully synced {n} products…"
    assert snapshot(session) == before  # names, prices, stock, links and updated_at unchanged
    assert push_at_start(LOCAL, engine=engine, catalog=catalog) == PushReport(present=len(linked))


def test_square_failing_at_start_is_logged_and_the_next_start_tries_again(
    session: Session,
    engine: Engine,
    ledger: SimulatorLedger,
    catalog: SquareCatalog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    add(session, "Votive - Fig")
    ledger.fail_next(BATCH_UPSERT, kind="http_500", times=3)  # the SDK's two retries included

    with caplog.at_level(logging.WARNING, logger=catalog_push.__name__):
        failed = push_at_start(LOCAL, engine=engine, catalog=catalog)

    assert failed == PushReport(failed=1, errors=("An injected fault (simulator).",))
    assert "the next start tries again" in caplog.text and "An injected fault" in caplog.text
    assert products(session)[0].square_item_id is None and items(ledger) == {}

    fresh = SimulatorLedger()
    assert push_at_start(LOCAL, engine=engine, catalog=checked_catalog(fresh)) == PushReport(
        pushed=1, counted=1
    )
    assert products(session)[0].square_item_id in items(fresh)


def test_a_start_whose_push_cannot_even_read_the_products_is_logged_and_goes_on(
    tmp_path: Path, catalog: SquareCatalog, ledger: SimulatorLedger, caplog: pytest.LogCaptureFixture
) -> None:
    empty = create_db_engine(f"sqlite:///{tmp_path / 'not-migrated.db'}")  # no products table
    try:
        with caplog.at_level(logging.ERROR, logger=catalog_push.__name__):
            assert push_at_start(LOCAL, engine=empty, catalog=catalog) is None
    finally:
        empty.dispose()
    assert "could not be put into the local Square" in caplog.text
    assert ledger.requests() == []


@pytest.mark.parametrize("environment", [SquareEnvironment.SANDBOX, SquareEnvironment.PRODUCTION])
def test_no_square_call_at_start_outside_local_mode(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger, environment: str
) -> None:
    add(session, "Votive - Fig")

    assert push_at_start(Settings(square_environment=environment), engine=engine, catalog=catalog) is None
    assert ledger.requests() == [] and products(session)[0].square_item_id is None
