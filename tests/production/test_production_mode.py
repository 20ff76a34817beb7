"""Production mode with two workers: one shopper's cart, sign-in and checkout are handled by both
workers (shown by the worker pid of each event in the JSON log), and the shopper carries on when
the worker serving them is killed and granian starts a new one."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, Payment, User
from tests.e2e.helpers import demo_id, with_sibling_scent
from tests.e2e.test_accounts import _register_in_dialog, _sign_in_in_dialog
from tests.production.checkout_steps import open_checkout, submit_order
from tests.production.conftest import WORKERS, ProductionShop

MAX_PAGE_LOADS = 15  # each load is a new websocket, which either worker may accept


def tab_token(page: Page) -> str:
    """The tab's Reflex state token (the event log names it by a hash)."""
    return page.evaluate("() => window.sessionStorage.getItem('token')")


def handlers_by_pid(records: list[dict]) -> dict[int, set[str]]:
    """Which event handlers each worker ran."""
    served: dict[int, set[str]] = {}
    for record in records:
        served.setdefault(record["pid"], set()).add(record["event"].rsplit(".", 1)[-1])
    return served


def test_a_shopper_is_served_by_both_workers_and_carries_on_after_one_is_killed(
    shop: ProductionShop, page: Page
) -> None:
    first, second = with_sibling_scent()
    page.goto(f"{shop.url}/product/{demo_id(first)}")
    expect(page.get_by_role("heading", level=1, name=first.name)).to_be_visible()
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    token = tab_token(page)
    for _ in range(MAX_PAGE_LOADS):
        if len(handlers_by_pid(shop.events_of(token))) == WORKERS:
            break
        page.reload()
        expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    served = handlers_by_pid(shop.events_of(token))
    assert len(served) == WORKERS, f"one worker served every page load: {served}"
    assert all("load" in handlers for handlers in served.values())  # each one loaded the cart page

    email = f"prod-{uuid.uuid4().hex[:8]}@example.com"
    _register_in_dialog(page, email)
    _sign_in_in_dialog(page, email)
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()  # the guest cart is theirs

    victim = shop.events_of(token)[-1]["pid"]  # the worker holding this tab's websocket
    before_kill = shop.events_of(token)
    shop.kill_worker(victim)
    survivors = shop.wait_for_workers(WORKERS, without=victim)

    page.goto(f"{shop.url}/product/{demo_id(second)}")
    # Until its load has run the page still shows the product the tab showed before (a click then
    # would still add this page's product: ProductState.add_to_cart reads the address).
    expect(page.get_by_role("heading", level=1, name=second.name)).to_be_visible()
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("button", name="Cart, 2 items")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Account menu"))).to_be_visible()  # still signed in
    open_checkout(page, email)
    number = submit_order(page)

    # The killed worker's websocket record stays in Redis until it expires, so Reflex gives the
    # reconnecting tab a new state token (a new, blank state): the cart and the sign-in come back
    # from the browser's cookies, which the shopper never notices.
    token_now = tab_token(page)
    after_kill = shop.wait_for_events(token_now, {"add_to_cart", "place_order"})
    if token_now == token:
        after_kill = after_kill[len(before_kill) :]
    assert after_kill and {r["pid"] for r in after_kill} <= set(survivors)
    handlers = handlers_by_pid(before_kill + after_kill)
    assert len(handlers) >= WORKERS
    journey = {"add_to_cart", "submit_login", "place_order"}  # cart, sign-in and checkout events
    assert journey <= set().union(*handlers.values()), handlers
    _assert_paid_once(shop, number, email)


def _assert_paid_once(shop: ProductionShop, number: str, email: str) -> None:
    engine = create_db_engine(shop.database_url)
    try:
        with Session(engine) as session:
            order = session.exec(select(Order).where(Order.order_number == number)).one()
            payment = session.exec(select(Payment).where(Payment.order_id == order.id)).one()
            user = session.exec(select(User).where(User.email == email)).one()
            assert (order.status, order.payment_status, order.user_id) == (
                OrderStatus.PENDING,
                PaymentStatus.COMPLETED,
                user.id,
            )
            total = order.total_cents
            assert payment.amount_cents == total
    finally:
        engine.dispose()
    charges = shop.square.payments_for(number)
    assert [(p["status"], p["amount_money"]["amount"]) for p in charges] == [("COMPLETED", total)]


@pytest.fixture(autouse=True)
def _shop_is_whole_again(shop: ProductionShop) -> None:
    """Every test starts with all workers up."""
    shop.wait_for_workers(WORKERS)
