"""Reconcile with Square (issue 17, acceptance 1): the differences field by field, settled per row
and in bulk either way, on the real database and the simulator through the real SDK (every
exchange checked against Square's OpenAPI subset); and the screen's handlers as Reflex calls
them, which act only for an admin and only on differences the tab was shown.
Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.domain.square_reconcile import Field, key_of
from shop_app.models import AdminRole, Product, SquareChange, User
from shop_app.services import sessions
from shop_app.services.admin.square_reconcile import Choice, differences, settle
from shop_app.services.square.catalog_sync import ItemDraft, SquareCatalog
from shop_app.square_simulator.state import SimulatorLedger
from shop_app.state.admin.square_reconcile import SquareReconcileState
from shop_app.state.auth import AuthState
from tests.support.square import checked_catalog
from tests.support.square import product_in_square as linked
from tests.support.square import reread as fresh
from tests.support.square import saved_product as add

pytestmark = [
    pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square"),
    pytest.mark.usefixtures("fast_sdk_retries"),
]


def at_the_till(catalog: SquareCatalog, product: Product, **changes: Any) -> None:
    """Square's item changed at its point of sale (the same API call the till makes)."""
    values = {
        "name": product.name,
        "description": product.description,
        "sku": product.sku,
        "price_cents": 3000,
    }
    archived = changes.pop("archived", False)
    draft = ItemDraft(**{**values, **changes})
    assert catalog.update_item(
        product.square_item_id or "",
        product.square_variation_id or "",
        draft,
        archived=archived,
        idempotency_key="till",
    ).ok


def as_shown(catalog: SquareCatalog, engine: Engine, *keys: str) -> dict[str, tuple[str, str]]:
    """The differences with these keys (all when none) as the screen shows them now."""
    return {d.key: d.shown for d in differences(catalog, engine=engine) if not keys or d.key in keys}


def table(catalog: SquareCatalog, engine: Engine) -> list[tuple[str, str, str, str]]:
    return [(d.label, d.field.value, d.shop, d.square) for d in differences(catalog, engine=engine)]


def test_agreeing_sides_show_no_difference(session: Session, engine: Engine, catalog: SquareCatalog) -> None:
    linked(session, engine, catalog, "Cedar Candle")
    linked(session, engine, catalog, "Fig Votive", sale_price_cents=2400)

    assert differences(catalog, engine=engine) == []


def test_every_field_that_differs_is_listed_with_both_values(
    session: Session, engine: Engine, catalog: SquareCatalog
) -> None:
    cedar = linked(session, engine, catalog, "Cedar Candle")
    at_the_till(catalog, cedar, name="Cedar Candle (till)", price_cents=3300, archived=True)
    assert catalog.set_stock(cedar.square_variation_id or "", 4).ok
    add(session, "Unsent Pillar")  # the shop sells it; Square never got it (nothing pushed yet)
    catalog.create_item(
        name="Till Only Tin",
        description="",
        sku=None,
        price_cents=1200,
        stock_quantity=2,
        idempotency_key="k1",
    )

    assert table(catalog, engine) == [
        ("Cedar Candle", "name", "Cedar Candle", "Cedar Candle (till)"),
        ("Cedar Candle", "price", "$30.00", "$33.00"),
        ("Cedar Candle", "for_sale", "Yes", "No"),
        ("Cedar Candle", "stock", "9", "4"),
        ("Unsent Pillar", "not_in_square", "$30.00, 9 in stock", "—"),
        ("Till Only Tin", "not_in_shop", "—", "$12.00, for sale"),
    ]


def test_use_the_shops_per_row_changes_only_that_field_in_square(
    session: Session, engine: Engine, catalog: SquareCatalog
) -> None:
    cedar = linked(session, engine, catalog, "Cedar Candle")
    at_the_till(catalog, cedar, name="Cedar Candle (till)", price_cents=3300)

    done = settle(
        catalog,
        as_shown(catalog, engine, key_of(Field.NAME, product_id=cedar.id)),
        Choice.SHOPS,
        engine=engine,
    )

    assert (done.settled, done.failed) == (1, 0)
    assert table(catalog, engine) == [("Cedar Candle", "price", "$30.00", "$33.00")]  # still the owner's call


def test_use_squares_per_row_takes_that_field_and_sends_nothing_back(
    session: Session, engine: Engine, catalog: SquareCatalog
) -> None:
    cedar = linked(session, engine, catalog, "Cedar Candle", sale_price_cents=2400)
    at_the_till(catalog, cedar, price_cents=3300)
    assert catalog.set_stock(cedar.square_variation_id or "", 4).ok

    settle(
        catalog,
        as_shown(catalog, engine, key_of(Field.PRICE, product_id=cedar.id)),
        Choice.SQUARES,
        engine=engine,
    )

    product = fresh(session, cedar.id)
    assert (product.base_price_cents, product.sale_price_cents, product.stock_quantity) == (3300, None, 9)
    assert table(catalog, engine) == [("Cedar Candle", "stock", "9", "4")]
    pending = session.exec(select(SquareChange).where(col(SquareChange.done_at).is_(None))).all()
    assert pending == []


def test_bulk_use_the_shops_makes_square_the_shops_copy(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    cedar = linked(session, engine, catalog, "Cedar Candle")
    at_the_till(catalog, cedar, description="Changed at the till.", archived=True)
    assert catalog.set_stock(cedar.square_variation_id or "", 1).ok
    pillar = add(session, "Unsent Pillar")
    catalog.create_item(
        name="Till Only Tin",
        description="",
        sku=None,
        price_cents=1200,
        stock_quantity=2,
        idempotency_key="k2",
    )
    everything = as_shown(catalog, engine)

    done = settle(catalog, everything, Choice.SHOPS, engine=engine)

    assert (done.settled, done.failed, done.changed) == (len(everything), 0, 0)
    assert differences(catalog, engine=engine) == []  # the till-only item is archived, not deleted
    assert fresh(session, pillar.id).square_item_id is not None
    tin = [
        o
        for o in ledger.catalog_objects()
        if o["type"] == "ITEM" and o["item_data"]["name"] == "Till Only Tin"
    ]
    assert tin and tin[0]["item_data"]["is_archived"] is True


def test_bulk_use_squares_makes_the_shop_squares_copy(
    session: Session, engine: Engine, catalog: SquareCatalog
) -> None:
    cedar = linked(session, engine, catalog, "Cedar Candle")
    at_the_till(catalog, cedar, name="Cedar Candle (till)", archived=True)
    assert catalog.set_stock(cedar.square_variation_id or "", 4).ok
    catalog.create_item(
        name="Till Only Tin",
        description="Tin.",
        sku="TIN-1",
        price_cents=1200,
        stock_quantity=2,
        idempotency_key="k3",
    )
    settle(catalog, as_shown(catalog, engine), Choice.SQUARES, engine=engine)

    product = fresh(session, cedar.id)
    assert (product.name, product.is_active, product.stock_quantity) == ("Cedar Candle (till)", False, 4)
    tin = session.exec(select(Product).where(Product.name == "Till Only Tin")).one()
    assert (tin.is_active, tin.sku, tin.base_price_cents, tin.stock_quantity) == (False, "TIN-1", 1200, 2)
    # Inactive until the owner reviewed it (no category, no images): the one difference left.
    assert table(catalog, engine) == [("Till Only Tin", "for_sale", "No", "Yes")]


def test_a_difference_settled_meanwhile_is_skipped_not_applied_from_a_stale_list(
    session: Session, engine: Engine, catalog: SquareCatalog
) -> None:
    cedar = linked(session, engine, catalog, "Cedar Candle")
    at_the_till(catalog, cedar, price_cents=3300)
    (shown,) = differences(catalog, engine=engine)
    product = fresh(session, cedar.id)
    product.base_price_cents = 3300  # the owner fixed it in the editor in another tab
    session.add(product)
    session.commit()

    done = settle(catalog, {shown.key: shown.shown}, Choice.SQUARES, engine=engine)

    assert (done.settled, done.changed) == (0, 1)


def test_square_failing_leaves_both_sides_as_they_were(
    session: Session, engine: Engine, catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    cedar = linked(session, engine, catalog, "Cedar Candle")
    at_the_till(catalog, cedar, price_cents=3300)
    ledger.fail_next("/v2/catalog/object", "http_500", times=10)

    done = settle(
        catalog,
        as_shown(catalog, engine, key_of(Field.PRICE, product_id=cedar.id)),
        Choice.SHOPS,
        engine=engine,
    )

    assert done.failed == 1 and done.errors
    ledger.clear_faults()
    assert table(catalog, engine) == [("Cedar Candle", "price", "$30.00", "$33.00")]


def test_a_choice_made_on_values_changed_since_is_not_applied(
    session: Session, engine: Engine, catalog: SquareCatalog
) -> None:
    """A stranger's case: tab A shows $32 vs Square's $37; tab B saves $39; tab A's "Use
    Square's" must not throw the $39 away."""
    cedar = linked(session, engine, catalog, "Cedar Candle", base_price_cents=3200)
    at_the_till(catalog, cedar, price_cents=3700)
    seen = as_shown(catalog, engine)
    product = fresh(session, cedar.id)
    product.base_price_cents = 3900  # saved in another tab; Square is down, so it waits
    session.add(product)
    session.commit()

    done = settle(catalog, seen, Choice.SQUARES, engine=engine)

    assert (done.settled, done.changed) == (0, 1)
    assert fresh(session, cedar.id).base_price_cents == 3900


def test_a_product_whose_edit_waits_for_square_cannot_take_squares_values(
    session: Session, engine: Engine, catalog: SquareCatalog
) -> None:
    cedar = linked(session, engine, catalog, "Cedar Candle")
    product = fresh(session, cedar.id)
    product.name = "Cedar Candle Large"  # recorded for Square, not sent yet
    session.add(product)
    session.commit()

    (diff,) = differences(catalog, engine=engine)
    done = settle(catalog, {diff.key: diff.shown}, Choice.SQUARES, engine=engine)

    assert diff.waiting and not diff.can_use_squares
    assert done.settled == 0 and fresh(session, cedar.id).name == "Cedar Candle Large"
    assert settle(catalog, {diff.key: diff.shown}, Choice.SHOPS, engine=engine).settled == 1


def test_squares_values_never_put_on_sale_what_the_editors_would_refuse(
    session: Session, engine: Engine, catalog: SquareCatalog
) -> None:
    catalog.create_item(
        name="Till Tin", description="", sku=None, price_cents=1200, stock_quantity=5, idempotency_key="k9"
    )
    settle(catalog, as_shown(catalog, engine), Choice.SQUARES, engine=engine)  # imported, inactive
    tin = session.exec(select(Product).where(Product.name == "Till Tin")).one()

    done = settle(
        catalog,
        as_shown(catalog, engine, key_of(Field.FOR_SALE, product_id=tin.id)),
        Choice.SQUARES,
        engine=engine,
    )

    assert done.failed == 1 and done.errors == ("Till Tin: Category is required",)
    assert fresh(session, tin.id).is_active is False


# -- the screen's handlers ------------------------------------------------------------------------


@pytest.fixture
def keys(app_env: Callable[..., None], session: Session) -> dict[str, str]:
    app_env(SQUARE_ENVIRONMENT="local", SQUARE_SIMULATOR_URL="")
    owner = User(email="owner@example.com", password_hash="x", first_name="Olive", last_name="Owner")
    fan = User(email="fan@example.com", password_hash="x", first_name="Fan", last_name="Shopper")
    session.add_all([owner, fan])
    session.commit()
    session.add(AdminRole(user_id=owner.id, granted_at=datetime.now(UTC) - timedelta(days=9)))
    session.commit()
    found = {
        name: sessions.start(session, user=user, remember_me=False).state_key
        for name, user in (("admin", owner), ("customer", fan))
    }
    session.commit()
    return found


async def _screen(session_key: str) -> SquareReconcileState:
    root = State(_reflex_internal_init=True)
    (await root.get_state(AuthState))._session_key = session_key
    return await root.get_state(SquareReconcileState)


@pytest.mark.asyncio
async def test_the_screen_lists_and_settles_for_an_admin(
    session: Session, engine: Engine, keys: dict[str, str], shared_ledger: SimulatorLedger
) -> None:
    catalog = checked_catalog(shared_ledger)
    cedar = linked(session, engine, catalog, "Cedar Candle")
    at_the_till(catalog, cedar, price_cents=3300)
    screen = await _screen(keys["admin"])

    await screen.load()
    assert [(r.product, r.field, r.shop, r.square) for r in screen.rows] == [
        ("Cedar Candle", "Price", "$30.00", "$33.00")
    ]
    await screen.use_squares(screen.rows[0].key)

    assert screen.rows == [] and fresh(session, cedar.id).base_price_cents == 3300


@pytest.mark.asyncio
async def test_the_screen_does_nothing_for_others_or_for_keys_it_did_not_show(
    session: Session, engine: Engine, keys: dict[str, str], shared_ledger: SimulatorLedger
) -> None:
    catalog = checked_catalog(shared_ledger)
    cedar = linked(session, engine, catalog, "Cedar Candle")
    at_the_till(catalog, cedar, price_cents=3300)
    key = key_of(Field.PRICE, product_id=cedar.id)
    customer = await _screen(keys["customer"])

    await customer.load()
    await customer.use_squares(key)
    await customer.use_squares_for_all()
    assert customer.rows == [] and fresh(session, cedar.id).base_price_cents == 3000

    admin = await _screen(keys["admin"])  # not loaded: it was shown nothing
    for crafted in (key, ["p1:price"], {"k": 1}, "x" * 10_000, None):
        await admin.use_squares(crafted)  # type: ignore[arg-type]
    assert fresh(session, cedar.id).base_price_cents == 3000
