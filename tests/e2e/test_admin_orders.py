"""The back office's orders in the browser: a customer's order is shipped with a tracking number
(the mail arrives with the carrier's link, the history says Shipped); another order is refunded
one item first, not back in stock (Partially refunded, the mail states the amount and what
remains charged), then the rest (Refunded, both refunds listed, the simulator's ledger has both,
the mail states the amount); a demo PayPal order is
marked Not charged (the customer's history, the "Not charged" filter and its page), offers no
refund and leaves the Paid Orders card as it was; non-admins are sent home. axe finds no serious
or critical violation on the list, the order page and the Ship dialog.

Orders are placed through the real checkout with the simulator's approved test card.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.money import format_cents, round_half_up_div
from shop_app.models import Order, OrderItem, Payment
from shop_app.services.admin_dashboard import store_counts
from tests.e2e.conftest import SQUARE_TOKEN, Mailbox
from tests.e2e.helpers import NewCustomer, SignIn, demo_id, with_sibling_scent
from tests.e2e.test_accessibility import _violations
from tests.e2e.test_checkout import _add_and_go_to_checkout, _fill, _stock

TRACKING = "1Z999AA10123456784"
UPS_LINK = f"https://www.ups.com/track?tracknum={TRACKING}"


def _place_order(page: Page, shop_url: str, product_id: int, email: str, quantity: int = 1) -> str:
    """Check out the product with the approved test card; the order number."""
    _add_and_go_to_checkout(page, shop_url, product_id, quantity=quantity)
    _fill(page, email)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    return re.search(r"number=([A-Z0-9-]+)", page.url).group(1)


def _admin_page(browser: Browser, sign_in: SignIn) -> Page:
    """A separate browser context signed in as the demo admin (it opens nothing yet)."""
    page = browser.new_context().new_page()
    sign_in(page)
    return page


def _open_order(admin: Page, shop_url: str, number: str) -> None:
    admin.goto(f"{shop_url}/admin/orders")
    expect(admin.get_by_role("heading", name="Orders", exact=True)).to_be_visible()
    admin.get_by_role("searchbox", name="Search orders").fill(number.lower())
    row = admin.get_by_role("row").filter(has_text=number)
    expect(admin.get_by_role("row")).to_have_count(2)  # the header and this order
    row.get_by_role("link", name=number).click()
    expect(admin.get_by_role("heading", name=f"Order {number}")).to_be_visible()


def test_an_admin_ships_an_order_and_the_customer_is_told(
    shop_url: str,
    page: Page,
    browser: Browser,
    mailbox: Mailbox,
    tmp_path: Path,
    *,
    sign_in: SignIn,
    new_customer: NewCustomer,
) -> None:
    email = new_customer(prefix="orders", first="Iris", last="Murdoch")
    sign_in(page, email)
    product, _ = with_sibling_scent()
    number = _place_order(page, shop_url, demo_id(product), email)

    admin = _admin_page(browser, sign_in)
    admin.goto(f"{shop_url}/admin")
    admin.get_by_role("navigation", name="Quick links").get_by_role(
        "link", name=re.compile("^Orders")
    ).click()
    expect(admin).to_have_url(re.compile(r"/admin/orders/?$"))
    _open_order(admin, shop_url, number)
    expect(admin.get_by_text(email).first).to_be_visible()
    expect(admin.get_by_text(product.name).first).to_be_visible()
    assert _violations(admin) == []

    admin.get_by_role("button", name="Mark as Processing").click()
    expect(admin.get_by_text(f"Order {number} is now Processing.")).to_be_visible()
    admin.get_by_role("button", name="Mark as Shipped").click()
    dialog = admin.get_by_role("dialog", name="Mark as Shipped")
    dialog.get_by_role("button", name="Mark as Shipped").click()
    expect(dialog.get_by_role("alert")).to_have_text(
        "Enter the tracking number to mark the order as shipped."
    )
    assert _violations(admin) == []  # with the dialog open
    dialog.get_by_role("combobox", name="Carrier").click()
    admin.get_by_role("option", name="UPS").click()
    dialog.get_by_label("Tracking number").fill("1z 999 aa1 0123 4567 84")
    dialog.get_by_role("button", name="Mark as Shipped").click()
    expect(admin.get_by_text(f"Order {number} is now Shipped.")).to_be_visible()
    expect(admin.get_by_role("dialog")).to_have_count(0)
    expect(admin.get_by_role("link", name=f"UPS {TRACKING}")).to_have_attribute("href", UPS_LINK)
    expect(admin.get_by_text("Processing → Shipped")).to_be_visible()
    admin.screenshot(path=tmp_path / "orders-admin-order.png", full_page=True)

    shipped = mailbox.latest(email, subject_contains="is Shipped")
    assert Mailbox.link(shipped) == UPS_LINK
    page.goto(f"{shop_url}/account/orders")
    card = page.get_by_role("heading", name=f"Order {number}").locator(
        "xpath=ancestor::div[contains(@class,'rt-Card')]"
    )
    expect(card.get_by_text("Shipped", exact=True)).to_be_visible()
    expect(card.get_by_role("link", name="Track Package")).to_have_attribute("href", UPS_LINK)

    page.goto(f"{shop_url}/admin/orders")  # a customer is sent home
    expect(page).to_have_url(f"{shop_url}/")
    admin.context.close()


def _order_money(database_url: str, number: str) -> tuple[Order, OrderItem]:
    """The order (its totals) and its one line, as the database has them."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            order = session.exec(select(Order).where(Order.order_number == number)).one()
            return order, session.exec(select(OrderItem).where(OrderItem.order_id == order.id)).one()
    finally:
        engine.dispose()


def _refund_one_item(admin: Page, number: str, item_name: str, amounts: tuple[str, str], shot: Path) -> None:
    """One of the two items, not back in stock: the dialog shows the amount before refunding."""
    first, rest = amounts
    admin.get_by_role("button", name="Refund", exact=True).click()
    dialog = admin.get_by_role("dialog", name="Refund")
    restock = dialog.get_by_role("checkbox", name="Return items to stock")
    expect(restock).to_be_checked()  # not shipped yet: ticked
    restock.click()
    expect(restock).not_to_be_checked()
    dialog.get_by_label(f"Quantity to refund: {item_name}").fill("1")
    expect(dialog.get_by_role("status")).to_contain_text(f"Refund amount: {first}")
    expect(dialog.get_by_role("status")).to_contain_text(f"Still charged after it: {rest}")
    assert _violations(admin) == []  # with the dialog open
    admin.screenshot(path=shot)
    dialog.get_by_role("button", name=f"Refund {first}").click()
    done = f"{first} was refunded to the customer for order {number}; {rest} remains charged."
    expect(admin.get_by_text(done)).to_be_visible()
    expect(admin.get_by_role("dialog")).to_have_count(0)
    expect(admin.get_by_text("Partially refunded", exact=True)).to_have_count(
        2
    )  # the badge, the Payment card
    payment = admin.locator("div.rt-Card").filter(has=admin.get_by_role("heading", name="Payment"))
    expect(payment).to_contain_text(f"Refunded{first}")
    expect(payment).to_contain_text(f"Still charged{rest}")


def _refund_the_rest(admin: Page, number: str, rest: str) -> None:
    admin.get_by_role("button", name="Refund", exact=True).click()
    dialog = admin.get_by_role("dialog", name="Refund")
    dialog.get_by_role("radio", name=f"Everything left ({rest})").click()
    expect(dialog.get_by_role("status")).to_contain_text(f"Refund amount: {rest}")
    dialog.get_by_role("button", name=f"Refund {rest}").click()
    done = f"Order {number} is now Refunded; {rest} was refunded to the customer."
    expect(admin.get_by_text(done)).to_be_visible()


def _mail_text(mailbox: Mailbox, email: str, subject: str) -> str:
    return mailbox.latest(email, subject_contains=subject).get_body(preferencelist=("plain",)).get_content()


def _square_ledger(shop_url: str, database_url: str, order_id: int) -> dict:
    """The order's payment as the simulator has it, once the database says all is refunded."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            now = session.get(Order, order_id)
            payment = session.exec(select(Payment).where(Payment.order_id == order_id)).one()
            assert (now.status, now.payment_status, payment.status) == ("refunded", "refunded", "refunded")
    finally:
        engine.dispose()
    return httpx.get(
        f"{shop_url}/_square/v2/payments/{payment.square_payment_id}",
        headers={"Authorization": f"Bearer {SQUARE_TOKEN}"},
        timeout=10,
    ).json()["payment"]


def test_an_admin_refunds_one_of_two_items_without_restocking_then_the_rest(
    shop_url: str,
    shop_database_url: str,
    page: Page,
    browser: Browser,
    *,
    mailbox: Mailbox,
    tmp_path: Path,
    sign_in: SignIn,
    new_customer: NewCustomer,
) -> None:
    email = new_customer(prefix="refund", first="Rita", last="Refund")
    sign_in(page, email)
    product, _ = with_sibling_scent()
    product_id = demo_id(product)
    stock_before = _stock(shop_database_url, product_id)
    number = _place_order(page, shop_url, product_id, email, quantity=2)
    assert _stock(shop_database_url, product_id) == stock_before - 2
    order, item = _order_money(shop_database_url, number)
    first_cents = item.unit_price_cents + sum(  # one item and each tax's share of it
        round_half_up_div(line["amount_cents"] * item.unit_price_cents, line["base_cents"])
        for line in order.tax_lines
    )
    first, rest = format_cents(first_cents), format_cents(order.total_cents - first_cents)
    admin = _admin_page(browser, sign_in)
    _open_order(admin, shop_url, number)

    _refund_one_item(
        admin,
        number,
        item.product_snapshot["name"],
        (first, rest),
        tmp_path / "orders-admin-refund-dialog.png",
    )

    refunds = admin.locator("div.rt-Card").filter(has=admin.get_by_role("heading", name="Refunds"))
    expect(refunds.get_by_text(f"{first} refunded")).to_be_visible()
    expect(refunds.get_by_text("Not returned to stock")).to_be_visible()
    assert _stock(shop_database_url, product_id) == stock_before - 2  # not restocked
    text = _mail_text(mailbox, email, f"Refund of {first} for your order {number}")
    assert f"We have refunded {first} to your card" in text and f"{rest} remains charged" in text

    _refund_the_rest(admin, number, rest)

    expect(refunds.get_by_role("listitem")).to_have_count(2)
    expect(refunds.get_by_text(f"{rest} refunded")).to_be_visible()
    expect(refunds.get_by_text("Returned to stock", exact=True)).to_be_visible()  # ticked by default
    expect(admin.get_by_text("Partially refunded", exact=True)).to_have_count(0)
    expect(admin.get_by_role("button", name="Refund", exact=True)).to_have_count(0)
    assert _stock(shop_database_url, product_id) == stock_before - 1  # the second item only
    text = _mail_text(mailbox, email, f"Your order {number} is Refunded")
    assert f"{rest} has been refunded to your card" in text
    assert f"With the earlier refunds, {format_cents(order.total_cents)} has been refunded in all." in text
    admin.screenshot(path=tmp_path / "orders-admin-refunds.png", full_page=True)
    ledger = _square_ledger(shop_url, shop_database_url, order.id)
    assert ledger["refunded_money"] == {"amount": order.total_cents, "currency": "CAD"}
    assert len(ledger["refund_ids"]) == 2

    admin.goto(f"{shop_url}/admin/orders")
    admin.get_by_role("combobox", name="Filter by status").click()
    admin.get_by_role("option", name="Refunded").click()
    expect(admin.get_by_role("row").filter(has_text=number)).to_be_visible()
    assert _violations(admin) == []
    admin.screenshot(path=tmp_path / "orders-admin-list.png", full_page=True)
    admin.context.close()


def _paid_orders(database_url: str) -> int:
    """The dashboard's Paid Orders figure, as the database counts it now."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            return store_counts(session).paid_orders
    finally:
        engine.dispose()


def _expect_paid_orders_card(admin: Page, shop_url: str, expected: int) -> None:
    admin.goto(f"{shop_url}/admin")
    card = admin.locator("div.rt-Card").filter(has=admin.get_by_text("Paid Orders", exact=True))
    expect(card.get_by_text(re.compile(r"^\d+$"))).to_have_text(str(expected))


def test_a_demo_paypal_order_is_not_charged_not_counted_and_not_refundable(
    shop_url: str,
    shop_database_url: str,
    page: Page,
    browser: Browser,
    *,
    sign_in: SignIn,
    new_customer: NewCustomer,
) -> None:
    admin = _admin_page(browser, sign_in)
    paid_before = _paid_orders(shop_database_url)
    _expect_paid_orders_card(admin, shop_url, paid_before)
    email = new_customer(prefix="paypal", first="Paula", last="Paypal")
    sign_in(page, email)
    product, _ = with_sibling_scent()
    product_id = demo_id(product)
    stock_before = _stock(shop_database_url, product_id)
    _add_and_go_to_checkout(page, shop_url, product_id)
    _fill(page, email)
    page.get_by_text("PayPal (demo, not charged)").click()
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    number = re.search(r"number=([A-Z0-9-]+)", page.url).group(1)

    page.goto(f"{shop_url}/account/orders")  # the customer placed it: in the history, marked
    card = page.get_by_role("heading", name=f"Order {number}").locator(
        "xpath=ancestor::div[contains(@class,'rt-Card')]"
    )
    expect(card.get_by_text("Not charged", exact=True)).to_be_visible()
    expect(card.get_by_text("Demo PayPal order: nothing was charged.")).to_be_visible()

    assert _paid_orders(shop_database_url) == paid_before  # not a paid order
    _expect_paid_orders_card(admin, shop_url, paid_before)

    admin.goto(f"{shop_url}/admin/orders")  # the default view: paid orders only
    admin.get_by_role("searchbox", name="Search orders").fill(number.lower())
    expect(admin.get_by_text("No orders found")).to_be_visible()
    admin.get_by_role("combobox", name="Filter by status").click()
    admin.get_by_role("option", name="Not charged").click()
    row = admin.get_by_role("row").filter(has_text=number)
    expect(row.get_by_text("Not charged", exact=True)).to_be_visible()
    assert _violations(admin) == []
    row.get_by_role("link", name=number).click()

    expect(admin.get_by_role("heading", name=f"Order {number}")).to_be_visible()
    payment = admin.locator("div.rt-Card").filter(has=admin.get_by_role("heading", name="Payment"))
    expect(payment.get_by_text("Not charged (simulated PayPal): no money was taken")).to_be_visible()
    history = admin.locator("div.rt-Card").filter(has=admin.get_by_role("heading", name="Status history"))
    expect(history.get_by_text(re.compile(r"^Placed \w+ \d+, \d{4}, "))).to_be_visible()
    expect(history).not_to_contain_text("Placed and paid")
    expect(admin.get_by_role("button", name="Cancel Order")).to_be_visible()
    expect(admin.get_by_role("button", name="Refund", exact=True)).to_have_count(0)
    assert _violations(admin) == []

    admin.get_by_role("button", name="Cancel Order").click()  # give it up: the stock comes back
    confirm = admin.get_by_role("alertdialog", name="Cancel Order")
    expect(confirm).to_contain_text("Nothing was charged, so there is nothing to refund.")
    confirm.get_by_role("button", name="Cancel Order").click()
    expect(admin.get_by_text(f"Order {number} is now Cancelled.")).to_be_visible()
    expect(admin.get_by_role("button", name="Refund", exact=True)).to_have_count(0)
    assert _stock(shop_database_url, product_id) == stock_before
    assert _paid_orders(shop_database_url) == paid_before
    admin.context.close()


def test_a_visitor_is_sent_home_from_the_orders_screens(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/admin/orders")
    expect(page).to_have_url(f"{shop_url}/")
    page.goto(f"{shop_url}/admin/orders/1")
    expect(page).to_have_url(f"{shop_url}/")
    expect(page.get_by_role("heading", name="Orders", exact=True)).to_have_count(0)
