"""Shipping addresses in the browser: checkout offers the countries the shop ships to, a bad
postal code gets the field's message while everything typed stays in the form, an order to
the United States goes through with its state and ZIP code stored normalised, and the owner's
store settings' shipping zones change the countries the checkout offers, what it charges and
what the FAQ says (put back after)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.money import format_cents, parse_dollars
from shop_app.models import Order, OrderAddress, StoreSettings
from shop_app.services.store_settings import SETTINGS_ID
from tests.e2e.helpers import SignIn, demo_id, with_sibling_scent
from tests.e2e.test_admin_sales import _summary_value
from tests.e2e.test_checkout import _add_and_go_to_checkout

WEBSOCKET_TIMEOUT = 15_000
PLACE_ORDER = re.compile(r"^Place Order")


def _fill(page: Page, values: dict[str, str], *, country: str, email: str) -> None:
    page.get_by_label("Country").select_option(country)
    for label, value in values.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")


def _address_of(database_url: str, order_number: str) -> OrderAddress:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            order = session.exec(select(Order).where(Order.order_number == order_number)).one()
            return session.exec(select(OrderAddress).where(OrderAddress.order_id == order.id)).one()
    finally:
        engine.dispose()


def _placed_order_number(page: Page) -> str:
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(
        timeout=WEBSOCKET_TIMEOUT
    )
    return re.search(r"number=([A-Z0-9-]+)", page.url).group(1)


def test_a_bad_postal_code_is_named_and_the_form_keeps_what_was_typed(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    country = page.get_by_label("Country")
    expect(country.locator("option")).to_have_text(["United States", "Canada"])
    expect(page.get_by_text("We ship to Canada and the United States.")).to_be_visible()
    typed = {
        "First name": "Ada",
        "Last name": "Lovelace",
        "Phone (optional)": "(250) 555-0100",
        "Address": "12 Cedar Lane",
        "City": "Victoria",
        "Province / State": "British Columbia",
        "Postal / ZIP code": "ABCDEFG",
    }
    email = f"postal-{uuid.uuid4().hex[:6]}@example.com"
    _fill(page, typed, country="Canada", email=email)

    page.get_by_role("button", name=PLACE_ORDER).click()

    expect(page.get_by_role("alert")).to_have_text(
        "Postal code: please enter a Canadian postal code like V5K 0A1", timeout=WEBSOCKET_TIMEOUT
    )
    expect(page).to_have_url(re.compile(r"/checkout/?$"))
    for label, value in typed.items():
        expect(page.get_by_label(label, exact=True)).to_have_value(value)
    expect(page.get_by_label("Email", exact=True)).to_have_value(email)
    expect(country).to_have_value("Canada")

    page.get_by_label("Postal / ZIP code", exact=True).fill("v8v1a1")
    page.get_by_role("button", name=PLACE_ORDER).click()

    address = _address_of(shop_database_url, _placed_order_number(page))
    assert (address.state, address.zip_code, address.country, address.phone) == (
        "BC",
        "V8V 1A1",
        "Canada",
        "250-555-0100",
    )


def test_an_order_to_the_united_states_goes_through(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, shop_url, demo_id(product))
    address = {
        "First name": "Grace",
        "Last name": "Hopper",
        "Address": "400 Broad St",
        "City": "Seattle",
        "Province / State": "Washington",
        "Postal / ZIP code": "98109",
    }
    _fill(page, address, country="United States", email=f"us-{uuid.uuid4().hex[:6]}@example.com")

    page.get_by_role("button", name=PLACE_ORDER).click()

    stored = _address_of(shop_database_url, _placed_order_number(page))
    assert (stored.city, stored.state, stored.zip_code, stored.country) == (
        "Seattle",
        "WA",
        "98109",
        "United States",
    )


@pytest.fixture
def zones_restored(shop_database_url: str) -> Iterator[None]:
    """The shipping zones are put back after the test, for the other tests' checkouts."""
    engine = create_db_engine(shop_database_url)
    try:
        with Session(engine) as session:
            before = session.get(StoreSettings, SETTINGS_ID).shipping_zones
        yield
        with Session(engine) as session:
            session.get(StoreSettings, SETTINGS_ID).shipping_zones = before
            session.commit()
    finally:
        engine.dispose()


def test_the_owner_s_zones_decide_where_the_shop_ships_and_what_it_costs(
    shop_url: str, page: Page, browser: Browser, zones_restored: None, sign_in: SignIn
) -> None:
    sign_in(page)
    page.goto(f"{shop_url}/admin/settings")
    canada_on = page.get_by_role("switch", name="Active (Canada)")
    us_on = page.get_by_role("switch", name="Active (United States)")
    expect(canada_on).to_be_checked(timeout=WEBSOCKET_TIMEOUT)
    expect(page.get_by_role("switch", name="Active (International)")).not_to_be_checked()
    countries = page.get_by_role("group", name="Countries")
    expect(countries.get_by_label("Japan", exact=True)).to_have_value("2")  # International, off
    canada_on.click()
    us_on.click()
    page.get_by_role("button", name="Save Settings").click()
    expect(page.get_by_text(StoreSettingsMessage.SHIPPING_COUNTRIES_REQUIRED.value)).to_be_visible(
        timeout=WEBSOCKET_TIMEOUT
    )
    # Both back on; the "United States" zone becomes "Britain" at $30.00, never free, for the UK
    canada_on.click()
    us_on.click()
    page.get_by_label("Zone name (United States)").fill("Britain")
    page.get_by_label("Flat rate ($) (United States)").fill("30")
    page.get_by_label("Free from ($) (United States)").fill("")
    countries.get_by_label("United States", exact=True).select_option(label="Not shipped")
    countries.get_by_label("United Kingdom", exact=True).select_option(value="1")
    page.get_by_role("button", name="Save Settings").click()
    expect(page.get_by_text(StoreSettingsMessage.SAVED.value)).to_be_visible(timeout=WEBSOCKET_TIMEOUT)
    uk = countries.get_by_label("United Kingdom", exact=True)
    expect(uk.locator("option:checked")).to_have_text("Britain")  # the saved zone's name

    _a_shopper_sees_the_zones(browser, shop_url)


def _a_shopper_sees_the_zones(browser: Browser, shop_url: str) -> None:
    """Canada at the seed's rule and the United Kingdom at $30.00: the FAQ, checkout's countries
    and its shipping follow."""
    context = browser.new_context()
    try:
        shopper = context.new_page()
        shopper.goto(f"{shop_url}/faq")
        shopper.wait_for_load_state("networkidle")  # hydrated: the accordion opens on a click
        question = shopper.get_by_role("button", name="Where do you ship, and what does it cost?")
        question.click()
        expect(question).to_have_attribute("aria-expanded", "true")
        expect(shopper.get_by_text("We ship to Canada and the United Kingdom.")).to_be_visible(
            timeout=WEBSOCKET_TIMEOUT
        )
        expect(
            shopper.get_by_text(
                "Shipping is $15.00 per order to Canada, free on orders of $100.00 or more; "
                "$30.00 per order to the United Kingdom."
            )
        ).to_be_visible()
        product, _ = with_sibling_scent()
        _add_and_go_to_checkout(shopper, shop_url, demo_id(product))
        expect(shopper.get_by_label("Country").locator("option")).to_have_text(["Canada", "United Kingdom"])
        expect(shopper.get_by_label("Country")).to_have_value("Canada")
        expect(shopper.get_by_text("We ship to Canada and the United Kingdom.")).to_be_visible()
        heading = shopper.get_by_role("heading", name="Order Summary")
        summary = shopper.locator("div.rt-Card").filter(has=heading)
        away = summary.get_by_text(re.compile(r"^\$[0-9.]+ away from free shipping$"))
        expect(away).to_be_visible(timeout=WEBSOCKET_TIMEOUT)
        subtotal = parse_dollars(_summary_value(shopper, "Subtotal"))
        assert away.inner_text() == f"{format_cents(10_000 - subtotal)} away from free shipping"
        shopper.get_by_label("Country").select_option("United Kingdom")
        shipping = summary.get_by_text("Shipping", exact=True).locator("xpath=following-sibling::p[last()]")
        expect(shipping).to_have_text("$30.00", timeout=WEBSOCKET_TIMEOUT)
        expect(away).to_have_count(0)  # Britain never ships free
    finally:
        context.close()
