"""Checkout in the browser: a guest pays with the test card, a declined card keeps everything,
a signed-in customer finds the form filled in, and the demo PayPal places an uncharged order."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.messages import AddressMessage, CartMessage, CheckoutMessage, DeclineMessage
from shop_app.domain.money import format_cents
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, Payment, Product
from tests.e2e.conftest import SQUARE_TOKEN
from tests.e2e.helpers import CUSTOMER_PASSWORD, NewCustomer, SignIn, demo_id, with_sibling_scent

ADDRESS = {
    "First name": "Ada",
    "Last name": "Lovelace",
    "Address": "12 Cedar Lane",
    "City": "Victoria",
    "Province / State": "BC",
    "Postal / ZIP code": "V8V 1A1",
}


def _stock(database_url: str, product_id: int) -> int:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            return session.get(Product, product_id).stock_quantity
    finally:
        engine.dispose()


def _add_and_go_to_checkout(page: Page, shop_url: str, product_id: int, quantity: int = 1) -> None:
    page.goto(f"{shop_url}/product/{product_id}")
    for _ in range(quantity - 1):
        page.get_by_role("button", name="Increase quantity").click()
    page.get_by_role("button", name="Add to Cart").click()
    page.get_by_role("button", name=f"Cart, {quantity} item{'' if quantity == 1 else 's'}").click()
    page.get_by_role("dialog", name="Your Cart").get_by_role("link", name="Checkout").click()
    expect(page.get_by_role("heading", name="Checkout")).to_be_visible()


def _fill(page: Page, email: str) -> None:
    """The form for a Victoria, BC address; returns once the summary shows that address's taxes
    (priced again on the server as the province and the country are chosen)."""
    for label, value in ADDRESS.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Country").select_option("Canada")
    summary = page.locator("div.rt-Card").filter(has=page.get_by_role("heading", name="Order Summary"))
    expect(summary.get_by_text("PST 7%", exact=True)).to_be_visible()


def test_a_guest_pays_by_card_and_sees_the_real_order(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    product, _ = with_sibling_scent()
    product_id = demo_id(product)
    stock_before = _stock(shop_database_url, product_id)
    _add_and_go_to_checkout(page, shop_url, product_id, quantity=2)
    email = f"guest-{uuid.uuid4().hex[:6]}@example.com"

    page.get_by_role("button", name=re.compile(r"^Place Order")).click()
    expect(page.get_by_text("Please fill in all required fields")).to_be_visible()
    _fill(page, email)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()

    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    number = re.search(r"number=([A-Z0-9-]+)", page.url).group(1)
    expect(page.get_by_text(number)).to_be_visible()
    expect(page.get_by_text(f"A confirmation has been sent to {email}.")).to_be_visible()
    expect(page.get_by_role("button", name="Cart")).to_be_visible()  # the cart is empty now

    engine = create_db_engine(shop_database_url)
    with Session(engine) as session:
        order = session.exec(select(Order).where(Order.order_number == number)).one()
        payment = session.exec(select(Payment).where(Payment.order_id == order.id)).one()
        assert (order.status, order.payment_status, order.user_id) == (
            OrderStatus.PENDING,
            PaymentStatus.COMPLETED,
            None,
        )
        assert payment.amount_cents == order.total_cents and payment.square_payment_id
    engine.dispose()
    assert _stock(shop_database_url, product_id) == stock_before - 2

    page.reload()  # reloading shows the same order and places nothing
    expect(page.get_by_text(number)).to_be_visible()


def test_a_declined_card_shows_the_message_and_keeps_cart_form_and_stock(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    product, _ = with_sibling_scent()
    product_id = demo_id(product)
    _add_and_go_to_checkout(page, shop_url, product_id)
    stock_before = _stock(shop_database_url, product_id)
    _fill(page, "declined@example.com")
    page.get_by_label("Test card").select_option(label="Card that is declined")

    page.get_by_role("button", name=re.compile(r"^Place Order")).click()

    expect(page.get_by_role("alert")).to_contain_text(re.compile(r"declin", re.IGNORECASE))
    expect(page).to_have_url(re.compile(r"/checkout/?$"))
    expect(page.get_by_label("City")).to_have_value("Victoria")
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    assert _stock(shop_database_url, product_id) == stock_before


DECLINE_CARDS = (
    ("Card that is declined", "GENERIC_DECLINE", DeclineMessage.DECLINED),
    ("Wrong security code (CVV)", "CVV_FAILURE", DeclineMessage.SECURITY_CODE),
    ("Wrong postal code", "ADDRESS_VERIFICATION_FAILURE", DeclineMessage.POSTAL_CODE),
    ("Expired card", "INVALID_EXPIRATION", DeclineMessage.EXPIRATION),
)


def test_each_decline_reads_as_a_plain_sentence_without_squares_code(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    _fill(page, f"decline-{uuid.uuid4().hex[:6]}@example.com")
    alert = page.get_by_role("alert")

    for card, code, sentence in DECLINE_CARDS:
        page.get_by_label("Test card").select_option(label=card)
        page.get_by_role("button", name=re.compile(r"^Place Order")).click()

        expect(alert).to_have_text(sentence.value, timeout=15_000)
        expect(page.get_by_text(code)).to_have_count(0)
        expect(page.get_by_text("Authorization error")).to_have_count(0)
        assert code not in page.content()

    expect(page).to_have_url(re.compile(r"/checkout/?$"))
    engine = create_db_engine(shop_database_url)
    with Session(engine) as session:  # the shop keeps Square's codes with the payments
        codes = session.exec(select(Payment.error_code).order_by(Payment.id.desc()).limit(4)).all()
    engine.dispose()
    assert sorted(codes) == sorted(code for _, code, _ in DECLINE_CARDS)


def test_a_signed_in_customer_finds_the_form_filled_in(
    shop_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    email = new_customer(prefix="buyer", first="Grace", last="Hopper")
    product, _ = with_sibling_scent()
    sign_in(page, email)

    _add_and_go_to_checkout(page, shop_url, demo_id(product))

    expect(page.get_by_label("First name")).to_have_value("Grace")
    expect(page.get_by_label("Email", exact=True)).to_have_value(email)
    expect(page.get_by_label("Country")).to_have_value("United States")


def test_signing_in_on_the_checkout_fills_it_in(shop_url: str, page: Page, new_customer: NewCustomer) -> None:
    """A stranger's finding: signed in through the checkout's own Sign In, the page kept the
    guest's account box and empty fields until Place Order was refused as a changed cart."""
    email = new_customer(prefix="late", first="Ada", last="Byron")
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    page.get_by_role("button", name="Sign In", exact=True).click()
    dialog = page.get_by_role("dialog", name="Welcome Back")
    dialog.get_by_label("Email", exact=True).fill(email)
    dialog.get_by_label("Password", exact=True).fill(CUSTOMER_PASSWORD)
    dialog.get_by_role("button", name="Sign In").click()

    expect(page.get_by_text("You are signed in: your details are filled in below.")).to_be_visible()
    expect(page.get_by_role("dialog")).to_have_count(0)  # closed: its own Email field gone too
    expect(page.get_by_label("First name")).to_have_value("Ada")
    expect(page.get_by_label("Email", exact=True)).to_have_value(email)


def test_the_demo_paypal_places_an_order_that_is_not_charged(shop_url: str, page: Page) -> None:
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    _fill(page, "paypal@example.com")
    page.get_by_text("PayPal (demo, not charged)").click()

    page.get_by_role("button", name=re.compile(r"^Place Order")).click()

    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    expect(page.get_by_text("Demo PayPal order: nothing was charged.")).to_be_visible()


def test_the_checkout_is_drawn_before_its_state_with_visible_placeholders(shop_url: str, page: Page) -> None:
    """Issue 18: the checkout is entered by a full page load (its own CSP), and was a spinner until
    the websocket answered. Its HTML now holds the heading, and the shapes of the form and the
    summary show meanwhile; they are drawn (every placeholder of the shop was transparent)."""
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    html = page.request.get(f"{shop_url}/checkout").text()  # a cart with a line (empty: its own test)
    assert ">Checkout</h1>" in html and 'aria-label="Loading your order"' in html

    held = page.context.new_page()
    held.route_web_socket(re.compile(r"/_event/"), lambda _ws: None)  # the state never arrives
    held.goto(f"{shop_url}/checkout")
    expect(held.get_by_role("heading", name="Checkout", level=1)).to_be_visible()
    placeholder = held.get_by_role("status", name="Loading your order")
    expect(placeholder).to_be_visible()
    colours = placeholder.locator(".rt-Skeleton").evaluate_all(
        "shapes => shapes.map(shape => getComputedStyle(shape).backgroundColor)"
    )
    assert colours and all(colour not in {"transparent", "rgba(0, 0, 0, 0)"} for colour in colours), colours
    expect(held.get_by_label("Email", exact=True)).to_have_count(0)  # no field before it can keep text
    held.close()

    page.reload()
    expect(page.get_by_role("button", name=PLACE_ORDER)).to_be_visible()
    expect(page.get_by_role("status", name="Loading your order")).to_have_count(0)


def test_the_checkout_follows_a_change_made_in_the_cart_drawer(shop_url: str, page: Page) -> None:
    """On /checkout the drawer's buttons reprice the page at once: the summary and Place Order's
    total were those of the cart before, until the order was refused."""
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    place = page.get_by_role("button", name=PLACE_ORDER)
    expect(place).to_be_visible()
    before = place.inner_text()

    page.get_by_role("button", name="Cart, 1 item").click()
    drawer = page.get_by_role("dialog", name="Your Cart")
    drawer.get_by_role("button", name=re.compile(r"^Increase quantity of ")).click()
    expect(drawer.get_by_text("2", exact=True)).to_be_visible()
    page.keyboard.press("Escape")
    expect(drawer).to_have_count(0)  # the page behind it is in the accessibility tree again
    expect(place).not_to_have_text(before)

    page.get_by_role("button", name="Cart, 2 items").click()
    drawer.get_by_role("button", name=re.compile(r"^Remove ")).click()
    page.keyboard.press("Escape")
    expect(drawer).to_have_count(0)
    expect(page.get_by_role("heading", name="Your Cart is Empty")).to_be_visible()
    expect(place).to_have_count(0)


def test_an_empty_cart_has_nothing_to_check_out(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/checkout")

    expect(page.get_by_role("heading", name="Your Cart is Empty")).to_be_visible()
    page.get_by_role("link", name="Browse Products").click()
    expect(page).to_have_url(re.compile(r"/shop$"))


PLACE_ORDER = re.compile(r"^Place Order · \$")


def _charges(page: Page, shop_url: str) -> dict[str, int]:
    """Every payment the shop's Square (the local simulator's ledger) took in the last hour:
    its id and amount in cents."""
    since = datetime.now(UTC) - timedelta(hours=1)
    answer = page.request.get(
        f"{shop_url}/_square/v2/payments",
        params={"begin_time": since.isoformat().replace("+00:00", "Z")},
        headers={"Authorization": f"Bearer {SQUARE_TOKEN}"},
    )
    assert answer.ok, answer.text()
    return {payment["id"]: payment["amount_money"]["amount"] for payment in answer.json().get("payments", [])}


def _new_charges(page: Page, shop_url: str, before: dict[str, int]) -> list[int]:
    """The amounts (cents) charged since ``before`` was read."""
    return [amount for id_, amount in _charges(page, shop_url).items() if id_ not in before]


def _add_to_cart(page: Page, shop_url: str, product_id: int, items_after: int) -> None:
    page.goto(f"{shop_url}/product/{product_id}")
    page.get_by_role("button", name="Add to Cart").click()
    expect(
        page.get_by_role("button", name=f"Cart, {items_after} item{'' if items_after == 1 else 's'}")
    ).to_be_visible()


def _orders_to(database_url: str, email: str) -> int:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            return len(session.exec(select(Order).where(Order.email == email)).all())
    finally:
        engine.dispose()


def test_a_second_tab_showing_an_old_cart_charges_nothing_and_shows_the_cart_as_it_is(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    first, second = with_sibling_scent()
    tab_a = page
    _add_to_cart(tab_a, shop_url, demo_id(first), items_after=1)
    tab_b = page.context.new_page()
    tab_b.goto(f"{shop_url}/checkout")
    expect(tab_b.get_by_role("heading", name="Checkout")).to_be_visible()
    email = f"two-tabs-{uuid.uuid4().hex[:6]}@example.com"
    _fill(tab_b, email)
    place = tab_b.get_by_role("button", name=PLACE_ORDER)
    shown = place.inner_text()  # "Place Order · $53.08": one line
    _add_to_cart(tab_a, shop_url, demo_id(second), items_after=2)  # tab A adds another product
    stocks = [_stock(shop_database_url, demo_id(p)) for p in (first, second)]
    before = _charges(tab_b, shop_url)

    tab_b.get_by_role("button", name=shown).click()  # still the old summary, no reload

    expect(tab_b.get_by_role("alert")).to_have_text(CheckoutMessage.CART_CHANGED.value)
    expect(place).not_to_have_text(shown)  # the summary and the button show both lines now
    expect(tab_b.get_by_text(second.name, exact=True).first).to_be_visible()
    expect(tab_b.get_by_label("City")).to_have_value("Victoria")  # the form is kept
    assert _new_charges(tab_b, shop_url, before) == []
    assert _orders_to(shop_database_url, email) == 0
    assert [_stock(shop_database_url, demo_id(p)) for p in (first, second)] == stocks

    shown = place.inner_text()
    tab_b.get_by_role("button", name=shown).click()  # placing it again charges what it shows

    expect(tab_b.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    assert [format_cents(cents) for cents in _new_charges(tab_b, shop_url, before)] == [
        shown.rsplit(" ", 1)[1]
    ]


def test_a_second_tab_of_a_cart_already_paid_in_another_says_the_cart_is_empty(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    tab_b = page.context.new_page()
    tab_b.goto(f"{shop_url}/checkout")
    _fill(tab_b, f"stale-{uuid.uuid4().hex[:6]}@example.com")
    _fill(page, f"paid-{uuid.uuid4().hex[:6]}@example.com")
    page.get_by_role("button", name=PLACE_ORDER).click()  # tab A pays the cart
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    before = _charges(tab_b, shop_url)

    tab_b.get_by_role("button", name=PLACE_ORDER).click()  # tab B still shows the paid line

    expect(tab_b.get_by_role("heading", name=CartMessage.EMPTY_CHECKOUT.value)).to_be_visible()
    # Why the form went (a stranger's finding: it said nothing): the notification tells.
    expect(tab_b.get_by_text(CheckoutMessage.CART_CHANGED.value)).to_be_visible()
    expect(tab_b.get_by_role("button", name=PLACE_ORDER)).to_have_count(0)
    assert _new_charges(tab_b, shop_url, before) == []


def test_an_address_problem_marks_focuses_and_shows_its_field(shop_url: str, page: Page) -> None:
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    _fill(page, f"postal-{uuid.uuid4().hex[:6]}@example.com")
    postal = page.get_by_label("Postal / ZIP code", exact=True)
    postal.fill("12345")  # not a Canadian postal code
    expect(postal).not_to_have_attribute("aria-invalid", "true")

    page.get_by_role("button", name=PLACE_ORDER).click()

    expect(page.get_by_role("alert")).to_have_text(AddressMessage.POSTAL_CODE_INVALID.value)
    expect(postal).to_have_attribute("aria-invalid", "true")
    expect(postal).to_have_accessible_description(AddressMessage.POSTAL_CODE_INVALID.value)
    expect(postal).to_be_focused()
    expect(postal).to_be_in_viewport()
    expect(postal).to_have_value("12345")
    expect(page.get_by_label("City")).not_to_have_attribute("aria-invalid", "true")

    postal.fill("V8V 1A1")
    page.get_by_label("Province / State", exact=True).fill("Nowhere")
    page.get_by_role("button", name=PLACE_ORDER).click()  # the next problem marks its own field

    expect(page.get_by_role("alert")).to_have_text(AddressMessage.PROVINCE_INVALID.value)
    expect(page.get_by_label("Province / State", exact=True)).to_be_focused()
    expect(postal).to_have_attribute("aria-invalid", "false")
