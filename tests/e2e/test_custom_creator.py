"""The custom candle builder in the browser: each step's message, the 3-scent limit, Back, the live
price, and a design that goes to the cart, through checkout with the test card and onto the
order (docs/spec/content.md#custom-creator, #custom-creator-messages; docs/spec/limits.md#back-office;
docs/architecture.md#orders-and-payment; docs/spec/README.md#gaps)."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Locator, Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.models import Order, OrderItem, Product
from tests.e2e.test_accessibility import _violations
from tests.e2e.test_checkout import _fill

NOTE = "Please add a gift tag: Happy birthday, Ana!"
LABEL = "Lavender Fields (intensity 5/5), Vanilla Bean (intensity 2/5)"


def _scent(page: Page, name: str) -> Locator:
    """A scent's checkbox card, by the scent's name."""
    return page.get_by_role("checkbox", name=re.compile(rf"^{re.escape(name)}"))


def _pick(page: Page, name: str) -> None:
    """Click a scent's card, as a shopper does (the card is the checkbox's label)."""
    page.locator("label", has=_scent(page, name)).click()


def _next(page: Page) -> None:
    page.get_by_role("button", name="Next").click()


def _design(page: Page) -> None:
    """Classic Tumbler, Lavender Fields at 5 and Vanilla Bean at 2; on the review step."""
    page.get_by_role("radio", name=re.compile("Classic Tumbler")).click()
    _next(page)
    _pick(page, "Lavender Fields")
    _pick(page, "Vanilla Bean")
    page.get_by_label("Intensity of Lavender Fields").select_option("5")
    page.get_by_label("Intensity of Vanilla Bean").select_option("2")
    _next(page)
    expect(page.get_by_role("heading", name="Review Your Candle")).to_be_visible()


def test_each_step_says_what_is_missing_and_a_blend_has_at_most_3_scents(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/custom-creator")
    expect(page.get_by_role("heading", name="Choose Your Vessel")).to_be_visible()
    expect(page.get_by_role("button", name="Back")).to_be_disabled()

    _next(page)
    expect(page.get_by_role("alert")).to_have_text("Please select a vessel size")
    page.get_by_role("radio", name=re.compile("Classic Tumbler")).click()
    summary = page.get_by_label("Order Summary")
    expect(summary).to_contain_text("Classic Tumbler 8 oz")
    expect(page.get_by_test_id("builder-total")).to_have_text("$38.00")
    _next(page)

    expect(page.get_by_role("heading", name="Choose Your Scents")).to_be_visible()
    _next(page)
    expect(page.get_by_role("alert")).to_have_text("Please select at least one scent")
    for name in ("Lavender Fields", "Vanilla Bean", "Cedar & Sage"):
        _pick(page, name)
        expect(_scent(page, name)).to_be_checked()
    _pick(page, "Fresh Linen")
    expect(page.get_by_role("alert")).to_have_text("You can select up to 3 scents for your custom blend")
    expect(_scent(page, "Fresh Linen")).not_to_be_checked()
    _pick(page, "Cedar & Sage")  # a place frees up
    expect(_scent(page, "Cedar & Sage")).not_to_be_checked()
    page.get_by_label("Intensity of Vanilla Bean").select_option("2")
    expect(summary).to_contain_text("Vanilla Bean (intensity 2/5)")

    page.get_by_role("button", name="Back").click()
    expect(page.get_by_role("radio", name=re.compile("Classic Tumbler"))).to_be_checked()
    _next(page)
    expect(_scent(page, "Lavender Fields")).to_be_checked()
    _next(page)
    page.get_by_role("button", name="Increase quantity").click()
    expect(page.get_by_test_id("builder-total")).to_have_text("$76.00")
    expect(page.get_by_role("button", name="Decrease quantity")).to_be_enabled()


def test_a_custom_candle_goes_through_checkout_and_onto_the_order(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    page.goto(f"{shop_url}/custom-creator")
    _design(page)
    page.get_by_role("button", name="Increase quantity").click()
    page.get_by_label("Special instructions (optional)").fill(NOTE)

    page.get_by_role("button", name="Add to Cart").click()

    expect(page.get_by_role("status")).to_contain_text(
        f"Added 2 Custom Candle: Classic Tumbler 8 oz to your cart ({LABEL})"
    )
    expect(page.get_by_role("heading", name="Choose Your Vessel")).to_be_visible()  # a new design
    page.get_by_role("button", name="Cart, 2 items").click()
    drawer = page.get_by_role("dialog", name="Your Cart")
    expect(drawer.get_by_role("link", name="Custom Candle: Classic Tumbler 8 oz")).to_be_visible()
    expect(drawer.get_by_text(f"{LABEL} · Note: {NOTE}")).to_be_visible()
    expect(drawer.get_by_text("$76.00").first).to_be_visible()
    drawer.get_by_role("link", name="Checkout").click()
    expect(page.get_by_role("heading", name="Checkout")).to_be_visible()
    expect(page.get_by_text(f"{LABEL} · Note: {NOTE}")).to_be_visible()
    email = f"designer-{uuid.uuid4().hex[:6]}@example.com"
    _fill(page, email)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()

    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=15_000)
    expect(page.get_by_text("Custom Candle: Classic Tumbler 8 oz × 2")).to_be_visible()
    expect(page.get_by_text(f"({LABEL} · Note: {NOTE})")).to_be_visible()

    number = re.search(r"number=([A-Z0-9-]+)", page.url).group(1)
    engine = create_db_engine(shop_database_url)
    with Session(engine) as session:
        order = session.exec(select(Order).where(Order.order_number == number)).one()
        item = session.exec(select(OrderItem).where(OrderItem.order_id == order.id)).one()
        vessel = session.get(Product, item.product_id)
        assert not vessel.is_listed and vessel.sku == "CUSTOM-TUMBLER-8"
        assert (item.quantity, item.unit_price_cents, item.total_price_cents) == (
            2,
            vessel.base_price_cents,
            2 * vessel.base_price_cents,
        )
        assert item.product_snapshot["selected_options"] == {
            "Scent 1": "Lavender Fields (intensity 5/5)",
            "Scent 2": "Vanilla Bean (intensity 2/5)",
        }
        assert item.product_snapshot["custom_note"] == NOTE
        assert order.subtotal_cents == 2 * vessel.base_price_cents
    engine.dispose()


def test_custom_candle_vessels_are_not_in_the_shop_search_or_sitemap(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    engine = create_db_engine(shop_database_url)
    with Session(engine) as session:
        vessels = session.exec(select(Product.id).where(Product.is_listed == False)).all()  # noqa: E712
    engine.dispose()
    assert len(vessels) == 4

    sitemap = page.request.get(f"{shop_url}/sitemap.xml").text()
    listed = {int(i) for i in re.findall(r"/product/(\d+)</loc>", sitemap)}
    assert listed and not listed & set(vessels)
    page.goto(f"{shop_url}/shop?search=custom+candle")
    expect(page.get_by_role("heading", name=re.compile(r"Custom Candle: "))).to_have_count(0)
    page.goto(f"{shop_url}/product/{vessels[0]}")
    expect(page.get_by_role("heading", name=re.compile(r"Custom Candle: "))).to_have_count(0)


def test_every_step_has_no_serious_accessibility_violations(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/custom-creator")
    expect(page.get_by_role("heading", name="Choose Your Vessel")).to_be_visible()
    assert _violations(page) == []

    page.get_by_role("radio", name=re.compile("Classic Tumbler")).click()
    _next(page)
    _pick(page, "Wild Rose")
    expect(page.get_by_label("Intensity of Wild Rose")).to_be_visible()
    assert _violations(page) == []

    _next(page)
    expect(page.get_by_role("heading", name="Review Your Candle")).to_be_visible()
    assert _violations(page) == []
