"""The dashboard: the admin list service, and handlers that give nothing to non-admins.

As an admin: the product list is searched (name, id, category), filtered, sorted and paged;
deleting asks Square first, then deletes here; an ordered product is archived instead after the
seed's confirmation. Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from reflex.state import State
from sqlmodel import Session

from shop_app.domain.admin_messages import ProductAdminMessage
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.domain.product_sort import ProductSort
from shop_app.models import AdminRole, Category, Order, OrderItem, Product, User, WebsiteImage
from shop_app.services import sessions
from shop_app.services.admin import orders as admin_orders
from shop_app.services.admin.admins import current_admins
from shop_app.services.admin_dashboard import store_counts
from shop_app.square_simulator.state import SimulatorLedger
from shop_app.state.admin import product_views
from shop_app.state.admin.dashboard import PAGE_SIZE, AdminDashboardState, DashboardProductsState
from shop_app.state.auth import AuthState
from tests.support.square import checked_catalog

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
_minutes = itertools.count()


def _product(session: Session, name: str, **fields: Any) -> Product:
    values = {
        "base_price_cents": 2000,
        "stock_quantity": 10,
        "created_at": T0 + timedelta(minutes=next(_minutes)),
    }
    product = Product(name=name, **{**values, **fields})
    session.add(product)
    session.flush()
    return product


@pytest.fixture
def shop(app_env: Callable[..., None], session: Session) -> dict[str, Any]:
    """Two admins and a customer signed in, two categories, four products (one ordered)."""
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan")
    owner = User(email="owner@example.com", password_hash="x", first_name="Olive", last_name="Owner")
    helper = User(email="helper@example.com", password_hash="x", first_name="Hal", last_name="Helper")
    candles = Category(name="Candles", slug="candles")
    body = Category(name="Body Care", slug="body-care")
    session.add_all([customer, owner, helper, candles, body])
    session.flush()
    session.add(AdminRole(user_id=owner.id, granted_at=T0))
    session.add(AdminRole(user_id=helper.id, granted_at=T0 + timedelta(days=1)))
    session.add(AdminRole(user_id=customer.id, is_active=False))  # a withdrawn role is not listed
    amber = _product(session, "8oz Amber Soy Candle - Fig", category_id=candles.id, base_price_cents=2800)
    lotion = _product(session, "Hand & Body Lotion - Rose", category_id=body.id, sale_price_cents=1500)
    spray = _product(session, "Room Spray - Cedar", stock_quantity=2, is_new_arrival=True)
    ordered = _product(session, "16oz Frosted Candle - Pine", category_id=candles.id, base_price_cents=4800)
    order = Order(
        order_number="ORD-D0001",
        email="b@example.com",
        subtotal_cents=1,
        tax_cents=0,
        shipping_cents=0,
        total_cents=1,
    )
    session.add(order)
    session.flush()
    session.add(
        OrderItem(
            order_id=order.id, product_id=ordered.id, quantity=1, unit_price_cents=1, total_price_cents=1
        )
    )
    session.add(WebsiteImage(image_type="hero", image_url="/media/site/hero.webp", width=1200))
    session.commit()
    ids = {}
    for name, user in (("customer", customer), ("owner", owner)):
        started = sessions.start(session, user=user, remember_me=False)
        ids[name] = started.state_key
    session.commit()
    return {
        "sessions": ids,
        "owner_id": owner.id,
        "candles": candles.id,
        "products": {p.name: p.id for p in (amber, lotion, spray, ordered)},
    }


async def _states(session_key: str | None) -> tuple[AdminDashboardState, DashboardProductsState]:
    root = State(_reflex_internal_init=True)
    (await root.get_state(AuthState))._session_key = session_key or ""
    return await root.get_state(AdminDashboardState), await root.get_state(DashboardProductsState)


def _names(products: DashboardProductsState) -> list[str]:
    return [row.name for row in products.rows]


# --- the admin list ----------------------------------------------------------------------------


def test_current_admins_are_the_active_roles_newest_grant_first(
    shop: dict[str, Any], session: Session
) -> None:
    admins = current_admins(session)

    assert [(a.email, a.first_name, a.last_name, a.role) for a in admins] == [
        ("helper@example.com", "Hal", "Helper", "admin"),
        ("owner@example.com", "Olive", "Owner", "admin"),
    ]


# --- refused -----------------------------------------------------------------------------------


@pytest.mark.parametrize("who", [None, "customer"])
async def test_non_admins_get_no_data_and_change_nothing(
    who: str | None, shop: dict[str, Any], session: Session
) -> None:
    dashboard, products = await _states(shop["sessions"][who] if who else None)
    unordered = shop["products"]["Room Spray - Cedar"]

    assert await dashboard.load() is None
    await products.load()
    await products.set_search("candle")
    await products.set_sort(ProductSort.NAME_ASC.value)
    await products.ask_delete(unordered)
    products.delete_id = unordered  # as if a crafted event had opened the dialog
    await products.confirm_delete()
    products.archive_id = unordered
    await products.confirm_archive()

    assert dashboard.products == 0 and dashboard.admins == [] and dashboard.images == []
    assert products.rows == [] and products.categories == [] and products.matches == 0
    session.rollback()  # end the test session's read snapshot, read afresh
    spray = session.get(Product, unordered)
    assert spray is not None and spray.is_active


# --- as an admin ------------------------------------------------------------------------------


async def test_the_admin_sees_figures_admins_images_and_the_newest_products_first(
    shop: dict[str, Any],
) -> None:
    dashboard, products = await _states(shop["sessions"]["owner"])

    follow_up = await dashboard.load()
    assert follow_up is DashboardProductsState.load  # the list is read by its own state next
    await products.load()

    assert (dashboard.products, dashboard.low_stock, dashboard.customers) == (4, 1, 1)
    assert [(a.name, a.is_you) for a in dashboard.admins] == [("Hal Helper", False), ("Olive Owner", True)]
    assert dashboard.admins[1].granted_on == "November 1, 2026"
    assert [t.is_set for t in dashboard.images] == [True, False, False, False, False, False]
    assert dashboard.images[0].title == "Homepage hero image"
    assert _names(products) == [
        "16oz Frosted Candle - Pine",
        "Room Spray - Cedar",
        "Hand & Body Lotion - Rose",
        "8oz Amber Soy Candle - Fig",
    ]
    spray, lotion = products.rows[1], products.rows[2]
    assert (spray.status, spray.low_stock, spray.view_url) == ("New", True, f"/product/{spray.id}")
    assert spray.edit_url == f"/admin/products/edit/{spray.id}"
    assert (lotion.status, lotion.price, lotion.compare_at_price) == ("Sale", "$15.00", "$20.00")
    assert products.rows[0].status == "Active"
    assert [c["name"] for c in products.categories] == ["Body Care", "Candles"]


async def test_search_matches_name_id_or_category_whatever_the_case(shop: dict[str, Any]) -> None:
    _, products = await _states(shop["sessions"]["owner"])
    await products.load()

    await products.set_search("ROSE")
    assert _names(products) == ["Hand & Body Lotion - Rose"]
    await products.set_search("body care")  # the category's name
    assert _names(products) == ["Hand & Body Lotion - Rose"]
    await products.set_search(str(shop["products"]["Room Spray - Cedar"]))
    assert "Room Spray - Cedar" in _names(products)
    await products.set_search("nothing like this")
    assert (products.rows, products.matches, products.range_text) == ([], 0, "")


async def test_the_category_filter_and_the_sort_combine(shop: dict[str, Any]) -> None:
    _, products = await _states(shop["sessions"]["owner"])
    await products.load()

    await products.set_category(str(shop["candles"]))
    await products.set_sort(ProductSort.PRICE_DESC.value)
    assert _names(products) == ["16oz Frosted Candle - Pine", "8oz Amber Soy Candle - Fig"]
    await products.set_category("all")
    await products.set_sort(ProductSort.STOCK_ASC.value)
    assert _names(products)[0] == "Room Spray - Cedar"
    await products.set_sort("not-an-option")
    assert products.sort == ProductSort.NEWEST.value


async def test_a_long_list_is_shown_a_page_at_a_time(shop: dict[str, Any], session: Session) -> None:
    for n in range(PAGE_SIZE + 3):
        _product(session, f"Tealight {n:02d}")
    session.commit()
    _, products = await _states(shop["sessions"]["owner"])
    await products.load()

    assert len(products.rows) == PAGE_SIZE and products.page_count == 2
    assert products.range_text == f"Showing 1–{PAGE_SIZE} of {PAGE_SIZE + 7}"
    await products.turn_page(1)
    assert len(products.rows) == 7 and products.rows[-1].name == "8oz Amber Soy Candle - Fig"
    await products.turn_page(1)  # no page after the last
    assert products.page == 1
    await products.set_search("tealight")
    assert products.page == 0


async def test_delete_asks_square_first_then_removes_the_product(
    shop: dict[str, Any], session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = SimulatorLedger()
    catalog = checked_catalog(ledger)
    created = catalog.create_item(
        name="Room Spray - Cedar",
        description="",
        sku=None,
        price_cents=2000,
        stock_quantity=2,
        idempotency_key="k1",
    )
    spray_id = shop["products"]["Room Spray - Cedar"]
    session.get(Product, spray_id).square_item_id = created.item_id
    session.commit()
    monkeypatch.setattr(product_views, "catalog_or_none", lambda: catalog)
    dashboard, products = await _states(shop["sessions"]["owner"])
    await dashboard.load()
    await products.load()

    await products.ask_delete(spray_id)
    assert products.delete_name == "Room Spray - Cedar"
    result = await products.confirm_delete()

    assert products.delete_id == 0
    assert ProductAdminMessage.DELETED_EVERYWHERE.value in str(result)
    assert "Room Spray - Cedar" not in _names(products) and dashboard.products == 3
    assert created.item_id not in {o["id"] for o in ledger.catalog_objects()}
    session.rollback()  # end the test session's read snapshot, read afresh
    assert session.get(Product, spray_id) is None


async def test_when_square_fails_the_product_is_still_deleted_here(
    shop: dict[str, Any], session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = SimulatorLedger()
    catalog = checked_catalog(ledger)
    lotion_id = shop["products"]["Hand & Body Lotion - Rose"]
    session.get(Product, lotion_id).square_item_id = "SQ-LOTION"
    session.commit()
    ledger.fail_next("/v2/catalog/object/{object_id}", kind="http_500", times=3)
    monkeypatch.setattr(product_views, "catalog_or_none", lambda: catalog)
    _, products = await _states(shop["sessions"]["owner"])
    await products.load()

    await products.ask_delete(lotion_id)
    result = await products.confirm_delete()

    assert ProductAdminMessage.SQUARE_DELETE_FAILED.value in str(result)
    session.rollback()  # end the test session's read snapshot, read afresh
    assert session.get(Product, lotion_id) is None


async def test_an_ordered_product_is_archived_instead_after_the_confirmation(
    shop: dict[str, Any], session: Session
) -> None:
    ordered_id = shop["products"]["16oz Frosted Candle - Pine"]
    _, products = await _states(shop["sessions"]["owner"])
    await products.load()

    await products.ask_delete(ordered_id)
    assert await products.confirm_delete() is None
    assert products.archive_id == ordered_id
    assert products.archive_question == ProductAdminMessage.CONFIRM_ARCHIVE_INSTEAD.format(
        name="16oz Frosted Candle - Pine"
    )
    await products.set_archive_open(False)  # Cancel
    assert products.archive_id == 0
    session.rollback()  # end the test session's read snapshot, read afresh
    assert session.get(Product, ordered_id).is_active

    await products.ask_delete(ordered_id)
    await products.confirm_delete()
    result = await products.confirm_archive()

    assert ProductAdminMessage.ARCHIVED_INSTEAD.format(name="16oz Frosted Candle - Pine") in str(result)
    session.rollback()  # end the test session's read snapshot, read afresh
    assert not session.get(Product, ordered_id).is_active
    assert next(r for r in products.rows if r.id == ordered_id).archived


def test_paid_orders_are_the_orders_the_orders_screen_lists(session: Session) -> None:
    def order(number: str, status: OrderStatus, payment: PaymentStatus, **fields: Any) -> None:
        session.add(
            Order(
                order_number=number,
                email="b@example.com",
                status=status,
                payment_status=payment,
                subtotal_cents=1,
                tax_cents=0,
                shipping_cents=0,
                total_cents=1,
                **fields,
            )
        )

    order("ORD-P1", OrderStatus.PENDING, PaymentStatus.COMPLETED)
    order("ORD-P2", OrderStatus.REFUNDED, PaymentStatus.REFUNDED)
    order("ORD-P3", OrderStatus.CANCELLED, PaymentStatus.COMPLETED, paid_at=T0)
    order("ORD-X1", OrderStatus.AWAITING_PAYMENT, PaymentStatus.PENDING)
    order("ORD-X2", OrderStatus.CANCELLED, PaymentStatus.FAILED)  # declined: never paid
    order("ORD-X3", OrderStatus.PENDING, PaymentStatus.NOT_CHARGED)  # simulated PayPal: no money taken
    order("ORD-X4", OrderStatus.CANCELLED, PaymentStatus.NOT_CHARGED)
    session.commit()

    assert store_counts(session).paid_orders == 3 == admin_orders.list_orders(session).total
