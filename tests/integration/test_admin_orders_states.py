"""The orders screens' handlers, called the way Reflex calls them (the raw event channel): a
signed-out client and a customer read nothing and change nothing, even with an order id in a
stale tab; an admin lists, opens, ships, refunds in part and in full, and cancels (real refunds
on the shop's simulator); forged refund events get a clear error and change nothing."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

import pytest
import reflex as rx
from reflex.istate.data import ReflexURL
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus
from shop_app.models import AdminRole, Order, OrderItem, OrderStatusChange, OutgoingMail, Product, User
from shop_app.services import cart, checkout, sessions
from shop_app.services.cart import CartOwner
from shop_app.services.square.gateway import square_gateway
from shop_app.settings import get_settings
from shop_app.square_simulator.app import shared_simulator, simulator_ledger
from shop_app.state.admin.order_detail import AdminOrderState
from shop_app.state.admin.orders import AdminOrdersState
from shop_app.state.auth import AuthState
from tests.support.checkout import FORM

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")


@pytest.fixture
def shop(app_env: Callable[..., None], engine: Engine, session: Session) -> dict[str, Any]:
    """A customer's and an admin's sessions, and a paid order on the shop's own simulator."""
    app_env(MAIL_BACKEND="outbox", SQUARE_ENVIRONMENT="local")
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan", last_name="Shopper")
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner", last_name="Admin")
    candle = Product(name="Soy Candle - Cedar", base_price_cents=3000, stock_quantity=8)
    session.add_all([customer, admin, candle])
    session.commit()
    session.add(AdminRole(user_id=admin.id))
    customer_session = sessions.start(session, user=customer, remember_me=False)
    admin_session = sessions.start(session, user=admin, remember_me=False)
    owner = CartOwner(token="cart-states")
    cart.add_item(session, owner, product_id=candle.id, quantity=2)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    paid = checkout.pay(
        order_id=placed.order_id,
        source_id="cnon:card-nonce-ok",
        gateway=square_gateway(get_settings()),
        owner=owner,
        engine=engine,
    )
    assert paid.succeeded
    return {
        "nobody": None,
        "customer": customer_session.state_key,
        "admin": admin_session.state_key,
        "order_id": placed.order_id,
        "candle": candle.id,
        "engine": engine,
    }


async def state_of(kind: type[rx.State], session_key: str | None) -> Any:
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_key = session_key or ""
    return await root.get_state(kind)


def at_url(state: Any, order_id: int) -> None:
    """As if the tab were on /admin/orders/{order_id}."""
    url = ReflexURL(f"http://localhost:3000/admin/orders/{order_id}")
    state.router = dataclasses.replace(state.router, url=url)


async def run(handler: Any) -> list[Any]:
    """Run an event handler (plain or generator) to the end; return what it yielded or returned."""
    if hasattr(handler, "__aiter__"):
        return [item async for item in handler]
    return [await handler] if inspect.isawaitable(handler) else [handler]


def _now(shop: dict[str, Any]) -> tuple[str, int, int, int]:
    with Session(shop["engine"]) as fresh:
        order = fresh.get(Order, shop["order_id"])
        return (
            order.status,
            fresh.get(Product, shop["candle"]).stock_quantity,
            len(fresh.exec(select(OrderStatusChange)).all()),
            len(fresh.exec(select(OutgoingMail).where(OutgoingMail.kind == "order_status")).all()),
        )


@pytest.mark.parametrize("who", ["nobody", "customer"])
async def test_non_admins_read_nothing_and_change_nothing(who: str, shop: dict[str, Any]) -> None:
    before = _now(shop)
    refunds_before = len(simulator_ledger(shared_simulator()).refunds())
    listing = await state_of(AdminOrdersState, shop[who])
    await run(listing.load())
    await run(listing.set_search("fan"))
    await run(listing.set_status("pending"))
    await run(listing.go_to_page(2))
    await run(listing.toggle_selected(shop["order_id"], True))
    assert (listing.rows, listing.loaded, listing.search, listing.status) == ([], False, "", "all")
    assert listing.selected == []

    detail = await state_of(AdminOrderState, shop[who])
    at_url(detail, shop["order_id"])
    await run(detail.load())
    assert (detail.found, detail.order.number, detail.allowed) == (False, "", [])

    detail._order_id, detail._status = shop["order_id"], OrderStatus.PENDING.value  # a stale admin tab
    await run(detail.mark("processing"))
    await run(detail.open_ship())
    await run(detail.set_ship_field("carrier", "UPS"))
    await run(detail.set_ship_field("tracking", "1Z999AA10123456784"))
    await run(detail.save_ship())
    await run(detail.open_confirm("cancelled"))
    detail.confirm_target = "refunded"
    await run(detail.confirm())
    await run(detail.open_refund())
    await run(detail.set_refund_mode("rest"))
    detail.refund_open = True  # as if the dialog were open
    await run(detail.confirm_refund())

    assert _now(shop) == before
    assert len(simulator_ledger(shared_simulator()).refunds()) == refunds_before
    assert not detail.ship_open and not detail.confirm_open


async def test_an_admin_ticks_orders_of_the_page_to_print_them_together(shop: dict[str, Any]) -> None:
    listing = await state_of(AdminOrdersState, shop["admin"])
    await run(listing.load())
    page_url = listing.print_invoices_url
    await run(listing.toggle_selected(shop["order_id"] + 1000, True))  # not an order of this page
    assert (listing.selected, listing.print_scope) == ([], "This page's orders:")
    await run(listing.toggle_selected(shop["order_id"], True))
    await run(listing.set_search("nobody-like-this"))  # the ticked order stays ticked
    assert listing.selected == [shop["order_id"]] and listing.print_scope == "1 selected order:"
    assert listing.print_invoices_url == page_url  # the same order, whatever the page shows
    await run(listing.clear_selected())
    assert listing.selected == []


async def test_an_admin_lists_opens_ships_and_cancels(shop: dict[str, Any]) -> None:
    listing = await state_of(AdminOrdersState, shop["admin"])
    await run(listing.load())
    assert [row.id for row in listing.rows] == [shop["order_id"]]
    assert (listing.rows[0].status_label, listing.rows[0].item_count) == ("Pending", 2)
    await run(listing.set_search("nobody-like-this"))
    assert (listing.rows, listing.empty_text) == ([], "Try another search or status filter.")

    detail = await state_of(AdminOrderState, shop["admin"])
    at_url(detail, shop["order_id"])
    await run(detail.load())
    assert detail.found and detail.allowed == ["processing", "cancelled", "refunded"]
    assert detail.order.payment_id and detail.order.lines[0].quantity == 2

    events = await run(detail.mark("processing"))
    assert "is now Processing" in str(events[-1]) and detail.order.status_label == "Processing"

    await run(detail.open_ship())
    await run(detail.set_ship_field("carrier", "UPS"))
    await run(detail.save_ship())  # no tracking number: the dialog stays open with the reason
    assert detail.ship_open and detail.ship_error == "Enter the tracking number to mark the order as shipped."
    await run(detail.set_ship_field("carrier", "Canada Post"))
    await run(detail.set_ship_field("tracking", "rr 123 456 789 ca"))
    await run(detail.save_ship())
    assert not detail.ship_open and detail.order.status_label == "Shipped"
    assert detail.order.tracking_url.endswith("RR123456789CA")
    assert detail.allowed == ["delivered", "refunded"]

    await run(detail.open_refund())  # shipped: "Return items to stock" starts unticked
    assert (detail.refund_open, detail.refund_mode, detail.refund_restock) == (True, "items", False)
    # $60 + $15 + $9.00 tax (12 % of both)
    assert detail.refund_remaining == "$84.00" and detail.refund_total == ""
    await run(detail.set_refund_mode("rest"))
    assert (detail.refund_total, detail.refund_after, detail.refund_button) == (
        "$84.00",
        "$0.00",
        "Refund $84.00",
    )
    await run(detail.set_refund_note("Damaged in transit"))
    events = await run(detail.confirm_refund())

    assert "is now Refunded; $84.00 was refunded" in str(events[-1]) and not detail.refund_open
    status, stock, changes, mails = _now(shop)
    assert (status, stock, changes, mails) == ("refunded", 6, 3, 3)  # with the customer: not restocked
    assert [h.change for h in detail.order.history] == [
        "Shipped → Refunded",
        "Processing → Shipped",
        "Pending → Processing",
    ]
    assert detail.order.history[0].note == "Damaged in transit" and detail.allowed == []
    assert [(r.amount, r.stock, r.by) for r in detail.order.refunds] == [
        ("$84.00", "Not returned to stock", "Owner Admin")
    ]
    payment_id = detail.order.payment_id
    assert [r["payment_id"] for r in simulator_ledger(shared_simulator()).refunds()].count(payment_id) == 1


async def test_a_change_made_meanwhile_in_another_tab_is_refused_and_shown(shop: dict[str, Any]) -> None:
    first = await state_of(AdminOrderState, shop["admin"])
    second = await state_of(AdminOrderState, shop["admin"])
    for tab in (first, second):
        at_url(tab, shop["order_id"])
        await run(tab.load())

    await run(first.mark("processing"))
    await run(second.open_confirm("cancelled"))
    events = await run(second.confirm())

    assert "Someone else changed this order meanwhile" in str(events[-1])
    assert second.order.status_label == "Processing"  # what is true now
    assert _now(shop)[0] == "processing"


async def test_a_not_charged_order_is_found_by_its_filter_and_a_forged_refund_is_refused(
    shop: dict[str, Any], session: Session, engine: Engine
) -> None:
    owner = CartOwner(token="cart-paypal")
    cart.add_item(session, owner, product_id=shop["candle"], quantity=1)
    session.commit()
    placed = checkout.place_order(
        owner=owner, user_id=None, form=FORM, provider=PaymentProvider.PAYPAL_SIMULATED, engine=engine
    )
    assert not checkout.pay_simulated_paypal(order_id=placed.order_id, owner=owner, engine=engine).charged

    listing = await state_of(AdminOrdersState, shop["admin"])
    await run(listing.load())
    assert [row.id for row in listing.rows] == [shop["order_id"]] and listing.total == 1  # paid only
    await run(listing.set_status("not_charged"))
    assert [(row.id, row.not_charged, row.payment_label) for row in listing.rows] == [
        (placed.order_id, True, "Not charged")
    ]

    detail = await state_of(AdminOrderState, shop["admin"])
    at_url(detail, placed.order_id)
    await run(detail.load())
    assert detail.found and detail.order.not_charged and not detail.charged
    assert detail.allowed == ["processing", "cancelled"]
    refunds_before = len(simulator_ledger(shared_simulator()).refunds())

    await run(detail.open_confirm("refunded"))  # no button offers these: forged events
    assert await run(detail.confirm()) == [] and not detail.confirm_open
    await run(detail.open_refund())
    assert not detail.refund_open
    detail.refund_open, detail.refund_mode = True, "rest"  # even with the dialog open
    assert await run(detail.confirm_refund()) == [] and detail.refund_total == ""
    with Session(engine) as fresh:
        order = fresh.get(Order, placed.order_id)
        assert (order.status, order.payment_status) == ("pending", PaymentStatus.NOT_CHARGED)
    assert len(simulator_ledger(shared_simulator()).refunds()) == refunds_before

    await run(detail.open_confirm("cancelled"))
    assert "Nothing was charged" in detail.confirm_text
    events = await run(detail.confirm())
    assert "is now Cancelled" in str(events[-1]) and detail.order.not_charged and detail.allowed == []


async def _refund_dialog(shop: dict[str, Any]) -> Any:
    detail = await state_of(AdminOrderState, shop["admin"])
    at_url(detail, shop["order_id"])
    await run(detail.load())
    await run(detail.open_refund())
    return detail


def _ledger_refunds() -> int:
    return len(simulator_ledger(shared_simulator()).refunds())


async def test_forged_refund_events_get_a_clear_error_and_change_nothing(
    shop: dict[str, Any], session: Session, engine: Engine
) -> None:
    other = CartOwner(token="cart-other")
    cart.add_item(session, other, product_id=shop["candle"], quantity=1)
    session.commit()
    foreign = checkout.place_order(owner=other, user_id=None, form=FORM, engine=engine)
    with Session(engine) as fresh:
        foreign_item = fresh.exec(select(OrderItem.id).where(OrderItem.order_id == foreign.order_id)).one()
    before, refunds_before = _now(shop), _ledger_refunds()
    detail = await _refund_dialog(shop)
    (line,) = detail.refund_lines
    assert (line.refundable, line.chosen, detail.refund_restock) == (2, "0", True)  # pending: ticked

    await run(detail.set_refund_quantity(foreign_item, "1"))  # another order's line
    assert detail.refund_error == M.REFUND_NOT_A_LINE.value
    for huge in ("3", "99999999999", "-1", "1.5", "²", ""):
        await run(detail.set_refund_quantity(line.item_id, huge))
        assert detail.refund_error == M.REFUND_QUANTITY_INVALID.format(name="Soy Candle - Cedar", n=2)
    assert detail.refund_lines[0].chosen == "0" and detail.refund_total == ""
    await run(detail.set_refund_mode("everything"))
    assert detail.refund_error == M.REFUND_MODE_INVALID.value and detail.refund_mode == "items"

    await run(detail.set_refund_mode("amount"))
    await run(detail.set_refund_amount("-5"))
    assert (detail.refund_problem, detail.refund_total) == ("The amount cannot be negative", "")
    events = await run(detail.confirm_refund())  # sent anyway
    assert M.REFUND_AMOUNT_TOO_SMALL.value in str(events[-1]) and detail.refund_open
    await run(detail.set_refund_amount("84.01"))
    assert detail.refund_problem == M.REFUND_AMOUNT_TOO_MUCH.format(remaining="$84.00")
    events = await run(detail.confirm_refund())
    assert M.REFUND_AMOUNT_TOO_MUCH.format(remaining="$84.00") in str(events[-1])
    await run(detail.set_refund_restock(True))  # an amount returns no items, whatever is sent
    assert detail.refund_problem == M.REFUND_AMOUNT_TOO_MUCH.format(remaining="$84.00")

    assert _now(shop) == before and _ledger_refunds() == refunds_before


async def test_an_admin_refunds_one_item_then_the_rest_and_a_retried_click_refunds_nothing_more(
    shop: dict[str, Any],
) -> None:
    refunds_before = _ledger_refunds()
    detail = await _refund_dialog(shop)
    line = detail.refund_lines[0]

    await run(detail.set_refund_quantity(line.item_id, "1"))
    assert (detail.refund_total, detail.refund_after) == ("$33.60", "$50.40")  # $30 + $3.60 tax
    await run(detail.set_refund_restock(False))
    events = await run(detail.confirm_refund())

    assert "$33.60 was refunded to the customer" in str(events[-1]) and "$50.40 remains charged" in str(
        events[-1]
    )
    assert not detail.refund_open and detail.order.partially_refunded
    assert (detail.order.payment_status, detail.order.refunded, detail.order.still_charged) == (
        "Partially refunded",
        "$33.60",
        "$50.40",
    )
    assert await run(detail.confirm_refund()) == []  # the same click again: the dialog is closed
    assert _ledger_refunds() == refunds_before + 1
    assert _now(shop)[:2] == ("pending", 6)  # not restocked
    listing = await state_of(AdminOrdersState, shop["admin"])
    await run(listing.load())
    assert listing.rows[0].payment_label == "Partially refunded"

    await run(detail.open_refund())
    assert [line.refundable for line in detail.refund_lines] == [1]
    await run(detail.set_refund_mode("rest"))
    events = await run(detail.confirm_refund())

    assert "is now Refunded; $50.40 was refunded" in str(events[-1])
    assert _now(shop)[:2] == ("refunded", 7)  # pending: the rest went back to stock
    assert [(r.amount, r.what, r.stock) for r in detail.order.refunds] == [
        ("$33.60", "1 × Soy Candle - Cedar", "Not returned to stock"),
        ("$50.40", "1 × Soy Candle - Cedar", "Returned to stock"),
    ]
    assert _ledger_refunds() == refunds_before + 2
