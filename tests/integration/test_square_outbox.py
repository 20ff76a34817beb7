"""The shop's product changes reach Square after they commit, from the outbox (issue 17,
acceptance 1), on the real database and the simulator through the real SDK (every exchange
checked against Square's OpenAPI subset): edits, sale prices, archive, delete and every stock
movement; Square failing mid-way loses nothing and a later push completes it; two pushers never
send one product at once; "Sync from Square" records nothing to send back.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.api.square_outbox import keep_square_in_step
from shop_app.models import Product, SquareChange
from shop_app.models.base import utcnow
from shop_app.models.square_outbox import record_stock
from shop_app.services.admin.square_sync import sync_from_square
from shop_app.services.square import outbox
from shop_app.services.square.catalog_push import push_catalog
from shop_app.services.square.catalog_sync import ItemDraft, SquareCatalog
from shop_app.services.square.outbox import push_pending, waiting
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.square import product_in_square as linked
from tests.support.square import reread as fresh
from tests.support.square import saved_product as add

pytestmark = [
    pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square"),
    pytest.mark.usefixtures("fast_sdk_retries"),
]

ROOT = Path(__file__).resolve().parents[2]
UPSERT = "/v2/catalog/object"
COUNTS = "/v2/inventory/changes/batch-create"
LATER = timedelta(hours=2)  # past every back-off of one failed try


def in_square(ledger: SimulatorLedger, product: Product) -> tuple[str, str, int, bool, str]:
    """(name, description, price, archived, stock) of the product's item in Square."""
    objects = {o["id"]: o for o in ledger.catalog_objects()}
    item = objects[product.square_item_id or ""]["item_data"]
    variation = objects[product.square_variation_id or ""]["item_variation_data"]
    counts = {
        c["catalog_object_id"]: c["quantity"] for c in ledger.inventory_counts() if c["state"] == "IN_STOCK"
    }
    return (
        item["name"],
        item["description"],
        variation["price_money"]["amount"],
        bool(item.get("is_archived")),
        counts.get(product.square_variation_id or "", "none"),
    )


def pending(session: Session) -> list[tuple[int, str]]:
    session.commit()
    rows = session.exec(
        select(SquareChange).where(col(SquareChange.done_at).is_(None)).order_by(col(SquareChange.id))
    )
    return [(row.product_id, row.kind) for row in rows]


def test_a_new_product_is_created_in_square_with_its_stock(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = add(session, "Cedar Candle", stock_quantity=12)
    assert pending(session) == [(product.id, "item")]

    report = push_pending(catalog, engine=engine)

    assert (report.sent, report.failed) == (1, 0)
    product = fresh(session, product.id)
    assert in_square(ledger, product) == ("Cedar Candle", "Cedar Candle, poured by hand", 3000, False, "12")
    assert pending(session) == []


def test_an_edit_reaches_square_and_a_later_sync_keeps_it(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    """The issue's case: $30 with a $24 sale set to $32 with no sale, then Sync from Square."""
    product = linked(session, engine, catalog, "Cedar Candle", sale_price_cents=2400)
    assert in_square(ledger, product)[2] == 2400
    product.base_price_cents, product.sale_price_cents, product.name = 3200, None, "Cedar Candle Large"
    session.add(product)
    session.commit()

    push_pending(catalog, engine=engine)
    sync_from_square(session, catalog)
    session.commit()

    product = fresh(session, product.id)
    assert in_square(ledger, product)[:3] == ("Cedar Candle Large", "Cedar Candle, poured by hand", 3200)
    assert (product.name, product.base_price_cents, product.sale_price_cents) == (
        "Cedar Candle Large",
        3200,
        None,
    )
    assert pending(session) == []  # the sync took nothing from Square, so sends nothing back


def test_archiving_hides_the_item_in_square_and_activating_shows_it_again(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = linked(session, engine, catalog, "Fig Votive")
    product.is_active = False
    session.add(product)
    session.commit()
    push_pending(catalog, engine=engine)
    assert in_square(ledger, fresh(session, product.id))[3] is True

    product = fresh(session, product.id)
    product.is_active = True
    session.add(product)
    session.commit()
    push_pending(catalog, engine=engine)
    assert in_square(ledger, fresh(session, product.id))[3] is False


def test_an_inactive_product_never_in_square_sends_nothing(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    add(session, "Draft Pillar", is_active=False)

    assert push_pending(catalog, engine=engine).failed == 0
    assert ledger.catalog_objects() == [] and pending(session) == []


def test_every_stock_movement_reaches_square(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = linked(session, engine, catalog, "Rose Tin", stock_quantity=20)
    with Session(engine) as other:  # an order, as the checkout's Core statement does it
        other.execute(sa.update(Product).where(col(Product.id) == product.id).values(stock_quantity=18))
        record_stock(other, [product.id or 0])
        other.commit()
    assert pending(session) == [(product.id, "stock")]
    push_pending(catalog, engine=engine)
    assert in_square(ledger, fresh(session, product.id))[4] == "18"

    product = fresh(session, product.id)
    product.stock_quantity = 30  # a restock in the editor
    session.add(product)
    session.commit()
    push_pending(catalog, engine=engine)
    assert in_square(ledger, fresh(session, product.id))[4] == "30"


def test_square_failing_mid_way_loses_nothing_and_the_next_push_completes_it(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    first = linked(session, engine, catalog, "Amber Jar - Fig")
    second = linked(session, engine, catalog, "Amber Jar - Rose")
    for product, name in ((first, "Amber Jar - Fig Leaf"), (second, "Amber Jar - Wild Rose")):
        product.name = name
        session.add(product)
    session.commit()
    ledger.fail_next(UPSERT, "http_500", times=10)  # the first item's update and every SDK retry

    report = push_pending(catalog, engine=engine)

    assert report.failed >= 1 and report.errors
    assert fresh(session, first.id).name == "Amber Jar - Fig Leaf"  # the shop keeps the edit
    still = waiting(session)
    assert still.products >= 1 and still.failing >= 1 and still.last_error
    ledger.clear_faults()
    assert push_pending(catalog, engine=engine).sent == 0  # not due yet: it backs off

    push_pending(catalog, engine=engine, now=utcnow() + LATER)

    assert in_square(ledger, fresh(session, first.id))[0] == "Amber Jar - Fig Leaf"
    assert in_square(ledger, fresh(session, second.id))[0] == "Amber Jar - Wild Rose"
    assert pending(session) == []


def test_a_stock_count_refused_after_the_item_was_updated_is_sent_again(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = linked(session, engine, catalog, "Pine Tin", stock_quantity=5)
    product.name, product.stock_quantity = "Pine Tin Large", 7
    session.add(product)
    session.commit()
    ledger.fail_next(COUNTS, "http_500", times=10)

    assert push_pending(catalog, engine=engine).failed == 1
    assert in_square(ledger, fresh(session, product.id))[0] == "Pine Tin Large"  # half of it arrived
    ledger.clear_faults()
    push_pending(catalog, engine=engine, now=utcnow() + LATER)

    assert in_square(ledger, fresh(session, product.id))[4] == "7"


def test_a_deleted_product_is_deleted_in_square_even_after_an_outage(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = linked(session, engine, catalog, "Old Pillar")
    item_id = product.square_item_id
    ledger.fail_next("/v2/catalog/object/{object_id}", "http_500", times=10)
    session.delete(product)
    session.commit()

    assert push_pending(catalog, engine=engine).failed == 1
    ledger.clear_faults()
    push_pending(catalog, engine=engine, now=utcnow() + LATER)

    assert item_id not in {o["id"] for o in ledger.catalog_objects()}
    assert pending(session) == []


def test_an_item_deleted_in_square_is_made_again_by_the_next_edit(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = linked(session, engine, catalog, "Lost Votive")
    assert catalog.delete_item(product.square_item_id or "").ok
    product.description = "Back again."
    session.add(product)
    session.commit()

    assert push_pending(catalog, engine=engine).failed == 0

    product = fresh(session, product.id)
    assert in_square(ledger, product)[:2] == ("Lost Votive", "Back again.")


def test_two_pushers_never_send_one_product_at_once(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = linked(session, engine, catalog, "Sage Tin")
    product.name = "Sage Tin Large"
    session.add(product)
    session.commit()
    now = utcnow()
    claim = outbox._claim(engine, product.id or 0, now, due_only=True)
    assert claim is not None

    assert outbox._claim(engine, product.id or 0, now, due_only=True) is None  # held by the first
    assert push_pending(catalog, engine=engine, now=now).sent == 0
    assert push_pending(catalog, engine=engine, now=now + outbox.LEASE + timedelta(seconds=1)).sent == 1


def test_a_push_asked_for_now_waits_for_the_pusher_that_holds_the_product(
    session: Session,
    engine: Engine,
    catalog: SquareCatalog,
    ledger: SimulatorLedger,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The owner's "Send now" (or the wizard) while the shop's own pusher is on the same product:
    it waits for that answer, then sends what is left, instead of reporting nothing sent."""
    product = linked(session, engine, catalog, "Sage Tin")
    product.name = "Sage Tin Large"
    session.add(product)
    session.commit()
    held = outbox._claim(engine, product.id or 0, utcnow(), due_only=True)
    assert held is not None

    def other_pusher_answers(_seconds: float) -> None:  # Square refused the other pusher's try
        outbox._settle(engine, held, "Square was busy", utcnow())

    monkeypatch.setattr(outbox, "_pause", other_pusher_answers)

    report = push_pending(catalog, engine=engine, product_ids=[product.id or 0])

    assert (report.sent, report.failed) == (1, 0)
    assert in_square(ledger, fresh(session, product.id))[0] == "Sage Tin Large"


def test_a_push_that_fails_on_the_shops_side_gives_its_claim_up(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    """The database fails while the product is claimed (its table is missing for a moment): the
    claim is settled as a failed attempt, so neither the next pusher nor the wizard waits for
    the lease's two minutes."""
    product = linked(session, engine, catalog, "Sage Tin")
    product.name = "Sage Tin Large"
    session.add(product)
    session.commit()
    session.close()  # PostgreSQL: renaming the table waits for every open transaction on it
    with engine.begin() as connection:
        connection.exec_driver_sql("ALTER TABLE products RENAME TO products_aside")
    try:
        with pytest.raises(
            sa.exc.OperationalError if engine.dialect.name == "sqlite" else sa.exc.ProgrammingError
        ):
            push_pending(catalog, engine=engine)
    finally:
        with engine.begin() as connection:
            connection.exec_driver_sql("ALTER TABLE products_aside RENAME TO products")

    assert not outbox._held(engine, product.id or 0, utcnow())
    still = waiting(session)
    assert still.failing == 1 and "The push failed here" in (still.last_error or "")
    report = push_pending(catalog, engine=engine, product_ids=[product.id or 0])
    assert (report.sent, report.failed) == (1, 0)
    assert in_square(ledger, fresh(session, product.id))[0] == "Sage Tin Large"


def test_sync_from_square_records_nothing_to_send(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    product = linked(session, engine, catalog, "Birch Candle")
    till = ItemDraft(
        name="Birch Candle (till)", description=product.description, sku=product.sku, price_cents=3000
    )
    renamed = catalog.update_item(  # renamed at Square's point of sale: the same call
        product.square_item_id or "",
        product.square_variation_id or "",
        till,
        archived=False,
        idempotency_key="till",
    )
    assert renamed.ok

    sync_from_square(session, catalog)
    session.commit()

    assert fresh(session, product.id).name == "Birch Candle (till)"
    assert pending(session) == []


def test_changes_recorded_in_a_transaction_that_rolls_back_are_not_sent(
    session: Session, engine: Engine
) -> None:
    with Session(engine) as other:
        other.add(
            Product(name="Never", group_key="never", description="", base_price_cents=100, stock_quantity=1)
        )
        other.flush()
        other.rollback()

    assert pending(session) == []


def test_the_catalogue_push_and_the_outbox_agree(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    """A product the start-up push already created is not created twice by its outbox row."""
    product = add(session, "Twice Candle")
    push_catalog(catalog, engine=engine)

    push_pending(catalog, engine=engine)

    items = [o for o in ledger.catalog_objects() if o["type"] == "ITEM"]
    assert [o["id"] for o in items] == [fresh(session, product.id).square_item_id]


async def _until(condition: Callable[[], bool], what: str, timeout_s: float = 60.0) -> None:
    """Wait for visible state (generous: a busy machine), never for a fixed time."""
    async with asyncio.timeout(timeout_s):
        while not await asyncio.to_thread(condition):
            await asyncio.sleep(0.05)
    assert condition(), what


def test_the_shops_lifespan_task_fills_the_local_square_then_sends_each_commit(
    session: Session, engine: Engine, app_env: Callable[..., None], shared_ledger: SimulatorLedger
) -> None:
    app_env(SQUARE_ENVIRONMENT="local", SQUARE_SIMULATOR_URL="")
    product = add(session, "Votive - Fig", stock_quantity=5)

    def named(name: str) -> bool:
        return any(
            o["item_data"]["name"] == name for o in shared_ledger.catalog_objects() if o["type"] == "ITEM"
        )

    async def scenario() -> None:
        task = asyncio.create_task(keep_square_in_step())
        try:
            await _until(lambda: named("Votive - Fig") and not pending(session), "the catalogue in Square")
            with Session(engine) as other:
                edited = other.get(Product, product.id)
                assert edited is not None
                edited.name = "Votive - Fig Leaf"
                other.commit()
            await _until(lambda: named("Votive - Fig Leaf"), "the edit in Square")
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    asyncio.run(scenario())

    assert in_square(shared_ledger, fresh(session, product.id))[4] == "5"
    assert pending(session) == []


def test_the_lifespan_task_is_registered_with_the_app() -> None:
    # In a process of its own: building the app configures the process's logging.
    check = (
        "from shop_app.shop_app import app; from shop_app.api.square_outbox import keep_square_in_step; "
        "assert keep_square_in_step in app.get_lifespan_tasks()"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, check=False
    )

    assert result.returncode == 0, result.stderr[-2000:]
