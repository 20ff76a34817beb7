"""Store settings: saved in the single row, refused to non-admins, and driving the site.

The brand name and contact details reach the header and footer (``SiteState``); the taxes by
province are stored as typed (the table checkout reads, docs/tax.md); the shipping zones'
countries are the checkout's list, what it accepts and what the texts name, and each zone's rate
is what its orders pay.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.shipping import DEFAULT_ZONES, zones_from_json
from shop_app.domain.shipping_form import country_zone_field, zone_fields, zone_form
from shop_app.domain.store_settings import tax_form, validate_store_settings
from shop_app.domain.tax import CANADA_TAXES, TaxRate, table_from_json, table_to_json
from shop_app.models import AdminRole, Order, OrderAddress, Product, StoreSettings, User
from shop_app.services import cart, checkout, sessions
from shop_app.services.cart import CartOwner
from shop_app.services.store_settings import get_store_settings, save_store_settings
from shop_app.state.admin.store_settings import StoreSettingsState
from shop_app.state.auth import AuthState
from shop_app.state.checkout import CheckoutState
from shop_app.state.site import SiteState
from tests.support.checkout import FORM
from tests.support.shipping import ships_to

FORM_DATA: dict[str, Any] = {
    "company_name": "Harbour Light Candles",
    "email": "shop@harbour.example",
    "phone": "+1 250 555 0199",
    "address": "1 Wharf St, Victoria",
    "instagram": "@harbourlight",
    "facebook": "",
    "twitter": "https://x.com/harbourlight",
    "notify_low_stock": "on",
    "gst_hst_number": "123456789 RT0001",
    "currency_symbol": "$",
    **zone_form(DEFAULT_ZONES)[0],
    **dict.fromkeys(zone_form(DEFAULT_ZONES)[1], "on"),
    **tax_form(CANADA_TAXES)[0],
    **dict.fromkeys(tax_form(CANADA_TAXES)[1], "on"),
}
MB_RST_REGISTERED = {
    **CANADA_TAXES,
    "MB": (TaxRate("GST", 50_000), TaxRate("RST", 70_000, collected=True)),
}


def _values(**changes: Any):
    values = validate_store_settings({**FORM_DATA, **changes}).values
    assert values is not None
    return values


# --- the service --------------------------------------------------------------------------


def test_the_first_save_creates_the_single_row(session: Session) -> None:
    save_store_settings(session, _values())
    session.commit()

    rows = session.exec(select(StoreSettings)).all()
    assert len(rows) == 1 and rows[0].id == 1
    row = rows[0]
    assert (row.company_name, row.email, row.phone, row.address) == (
        "Harbour Light Candles",
        "shop@harbour.example",
        "+1 250 555 0199",
        "1 Wharf St, Victoria",
    )
    assert (row.instagram, row.facebook, row.twitter) == (
        "https://instagram.com/harbourlight",
        "",
        "https://x.com/harbourlight",
    )
    assert (row.notify_order_confirmation, row.notify_low_stock, row.notify_new_reviews) == (
        False,
        True,
        False,
    )
    assert (row.tax_table, row.gst_hst_number, row.currency_symbol) == (
        table_to_json(CANADA_TAXES),
        "123456789 RT0001",
        "$",
    )
    assert zones_from_json(row.shipping_zones) == DEFAULT_ZONES


def test_a_later_save_updates_the_row_and_its_zones(session: Session) -> None:
    session.add(StoreSettings(company_name="Old", shipping_zones=ships_to("Canada", flat_cents=900)))
    session.commit()
    before = get_store_settings(session).updated_at

    save_store_settings(session, _values(company_name="New", tax_rate__NS__HST="15", zone_flat__1="9"))
    session.commit()

    session.expire_all()
    row = get_store_settings(session)
    assert (row.company_name, table_from_json(row.tax_table)["NS"]) == ("New", (TaxRate("HST", 150_000),))
    assert [(zone.name, zone.flat_cents) for zone in zones_from_json(row.shipping_zones)] == [
        ("Canada", 1500),
        ("United States", 900),
        ("International", 3500),
    ]
    assert row.updated_at >= before
    assert len(session.exec(select(StoreSettings)).all()) == 1


def test_the_saved_tax_table_is_read_back_as_typed(session: Session) -> None:
    form = {"tax_rate__MB__RST": "7", "tax_collect__MB__RST": "on", "tax_rate__ON__HST": "13"}
    form |= {"tax_rate__QC__QST": "9.975"}
    save_store_settings(session, _values(**form))
    session.commit()

    session.expire_all()
    table = table_from_json(get_store_settings(session).tax_table)
    assert table["MB"] == (TaxRate("GST", 50_000), TaxRate("RST", 70_000, collected=True))
    assert table["ON"] == (TaxRate("HST", 130_000),)
    assert table["QC"] == (TaxRate("GST", 50_000), TaxRate("QST", 99_750, collected=False))
    assert table == MB_RST_REGISTERED


def test_the_saved_tax_table_is_what_checkout_shows_and_what_the_order_is_charged(
    session: Session, engine: Engine
) -> None:
    """The owner registers for Manitoba's RST: a Manitoba address pays GST and RST, shown as
    two lines and charged as shown; the order keeps the rates it used."""
    save_store_settings(session, _values(tax_rate__MB__RST="7", tax_collect__MB__RST="on"))
    session.commit()
    owner = _candle_in_cart(session, "settings-tax-cart")  # 40.00, shipping 15.00
    manitoba = replace(FORM, city="Winnipeg", state="Manitoba", zip_code="R3C 0A5")

    summary = checkout.quote(session, owner, manitoba.destination)
    placed = checkout.place_order(owner=owner, user_id=None, form=manitoba, engine=engine)

    assert [(line.label, line.amount_cents) for line in summary.totals.tax_lines] == [
        ("GST 5%", 275),
        ("RST 7%", 385),
    ]
    assert placed.total_cents == summary.totals.total_cents == 4000 + 1500 + 660
    session.commit()  # a new transaction: it sees the order
    order = session.get(Order, placed.order_id)
    assert order is not None and order.tax_cents == 660
    kept = [(line["code"], line["rate_ppm"]) for line in order.tax_lines]
    assert kept == [("GST", 50_000), ("RST", 70_000)]


# --- the handlers -------------------------------------------------------------------------


@pytest.fixture
def people(app_env: Callable[..., None], session: Session) -> dict[str, Any]:
    """A customer and an admin, signed in; the shop's settings row."""
    customer = User(email="fan@example.com", password_hash="x")
    admin = User(email="owner@example.com", password_hash="x")
    settings = StoreSettings(company_name="Cedar & Ember", tax_table=table_to_json(MB_RST_REGISTERED))
    session.add_all([customer, admin, settings])
    session.commit()
    session.add(AdminRole(user_id=admin.id))
    customer_session = sessions.start(session, user=customer, remember_me=False)
    admin_session = sessions.start(session, user=admin, remember_me=False)
    session.commit()
    return {"customer": customer_session.state_key, "admin": admin_session.state_key}


async def _root(session_key: str | None) -> State:
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_key = session_key or ""
    return root


@pytest.mark.parametrize("who", [None, "customer"])
async def test_non_admins_neither_read_nor_change_the_settings(
    who: str | None, people: dict[str, Any], session: Session
) -> None:
    root = await _root(people[who] if who else None)
    screen = await root.get_state(StoreSettingsState)

    await screen.load()
    result = await screen.save(FORM_DATA)

    assert result is None
    assert screen.values == {} and not screen.saved
    session.expire_all()
    assert get_store_settings(session).company_name == "Cedar & Ember"


async def test_an_admin_loads_saves_and_sees_the_banner(people: dict[str, Any], session: Session) -> None:
    root = await _root(people["admin"])
    screen = await root.get_state(StoreSettingsState)

    await screen.load()
    assert screen.values["company_name"] == "Cedar & Ember" and screen.values["gst_hst_number"] == ""
    assert (screen.values["tax_rate__MB__RST"], screen.values["tax_rate__QC__QST"]) == ("7", "9.975")
    assert "tax_collect__MB__RST" in screen.tax_collected
    assert "tax_collect__QC__QST" not in screen.tax_collected
    assert screen.zone_active == ["zone_active__0", "zone_active__1"]  # the default: Canada and the US
    assert [row.label for row in screen.zones] == ["Canada", "United States", "International", "New zone"]
    assert screen.values["ship_zone__japan"] == "2" and screen.values["zone_free__2"] == ""
    key = screen.form_key
    await screen.load()
    assert screen.form_key == key  # same values: the inputs are not mounted again (typing kept)
    events = await screen.save(FORM_DATA)

    assert screen.saved and screen.errors == {}
    assert screen.values["instagram"] == "https://instagram.com/harbourlight"
    assert screen.form_key > key  # the inputs mount again with the stored values
    assert "tax_collect__MB__RST" not in screen.tax_collected  # switched off by the form
    assert any("hide_banner" in str(event) for event in events)
    session.expire_all()
    row = get_store_settings(session)
    assert (row.company_name, row.gst_hst_number) == ("Harbour Light Candles", "123456789 RT0001")
    assert table_from_json(row.tax_table) == CANADA_TAXES


async def test_an_invalid_form_shows_field_errors_and_saves_nothing(
    people: dict[str, Any], session: Session
) -> None:
    root = await _root(people["admin"])
    screen = await root.get_state(StoreSettingsState)
    await screen.load()

    key, shown = screen.form_key, dict(screen.values)

    nothing_on = {key: value for key, value in FORM_DATA.items() if not key.startswith("zone_active__")}
    bad = {"email": "nope", "tax_rate__QC__QST": "9.97501", "gst_hst_number": "RT0001/2"}
    result = await screen.save({**nothing_on, **bad})

    fields = {"email", "tax_rate__QC__QST", "gst_hst_number", "shipping_zones"}
    assert set(screen.errors) == fields and not screen.saved
    assert screen.errors["shipping_zones"] == StoreSettingsMessage.SHIPPING_COUNTRIES_REQUIRED.value
    assert screen.errors["tax_rate__QC__QST"] == StoreSettingsMessage.RATE_INVALID.value
    assert screen.errors["gst_hst_number"] == StoreSettingsMessage.GST_HST_NUMBER_INVALID.value
    assert StoreSettingsMessage.FIX_FIELDS.value in str(result)
    assert (screen.form_key, screen.values) == (key, shown)  # the inputs keep what was typed
    session.expire_all()
    row = get_store_settings(session)
    assert (row.company_name, table_from_json(row.tax_table)) == ("Cedar & Ember", MB_RST_REGISTERED)


async def test_a_save_keeps_whether_shipping_is_taxed(people: dict[str, Any], session: Session) -> None:
    """The form has no such field: each tax keeps the stored table's flag."""
    row = get_store_settings(session)
    bc = (TaxRate("GST", 50_000), TaxRate("PST", 70_000, on_shipping=False))
    row.tax_table = table_to_json({**CANADA_TAXES, "BC": bc})
    session.commit()
    root = await _root(people["admin"])
    screen = await root.get_state(StoreSettingsState)
    await screen.load()

    await screen.save({**FORM_DATA, "tax_rate__BC__PST": "8"})

    assert screen.saved
    session.expire_all()
    table = table_from_json(get_store_settings(session).tax_table)
    assert table["BC"] == (TaxRate("GST", 50_000), TaxRate("PST", 80_000, on_shipping=False))


async def test_the_banner_hides_after_its_own_save_only(people: dict[str, Any], monkeypatch) -> None:
    root = await _root(people["admin"])
    screen = await root.get_state(StoreSettingsState)
    screen.saved, screen._saves = True, 2
    monkeypatch.setattr("shop_app.state.admin.store_settings.BANNER_SECONDS", 0)

    await StoreSettingsState.hide_banner.fn(screen, 1)  # an earlier save's timer
    assert screen.saved
    await StoreSettingsState.hide_banner.fn(screen, 2)
    assert not screen.saved


async def test_the_header_footer_and_checkout_read_the_saved_settings(
    people: dict[str, Any], session: Session
) -> None:
    save_store_settings(session, _values())
    session.commit()
    root = await _root(None)
    site = await root.get_state(SiteState)
    summary = await root.get_state(CheckoutState)

    site.load()
    await summary.load()

    assert (site.brand_name, site.contact_email, site.mailto) == (
        "Harbour Light Candles",
        "shop@harbour.example",
        "mailto:shop@harbour.example",
    )
    assert (site.phone, site.tel, site.address) == (
        "+1 250 555 0199",
        "tel:+12505550199",
        "1 Wharf St, Victoria",
    )
    assert (site.instagram, site.twitter) == (
        "https://instagram.com/harbourlight",
        "https://x.com/harbourlight",
    )
    # An empty cart to the form's first country (the United States): an export, one "Tax" row.
    assert [(row.label, row.amount) for row in summary.taxes] == [("Tax", "$0.00")]
    assert site.ships_to == "Canada and the United States"
    assert summary.countries == ["United States", "Canada"]


# --- where the shop ships -----------------------------------------------------------------


def _candle_in_cart(session: Session, token: str) -> CartOwner:
    owner = CartOwner(token=token)
    candle = Product(name="8oz Amber Soy Candle - Cedar", base_price_cents=4000, stock_quantity=5)
    session.add(candle)
    session.flush()
    cart.add_item(session, owner, product_id=candle.id, quantity=1)
    session.commit()
    return owner


UK_FORM = replace(FORM, country="United Kingdom", city="London", state="Greater London", zip_code="sw1a 1aa")


async def test_the_zones_drive_checkout_its_shipping_and_the_texts(
    people: dict[str, Any], session: Session, engine: Engine
) -> None:
    owner = _candle_in_cart(session, "settings-countries-cart")  # one candle: $24.00
    uk = zone_fields(2)  # "International", off by default: on, for the United Kingdom alone, at $30
    changes = {uk.name: "Overseas", uk.flat: "30", uk.free_from: "", uk.active: "on"}
    changes |= {country_zone_field(country): "" for country in ("Japan", "France", "Canada")}
    changes[country_zone_field("United Kingdom")] = uk.value
    root = await _root(people["admin"])
    screen = await root.get_state(StoreSettingsState)
    await screen.load()

    await screen.save({**FORM_DATA, **changes})

    assert screen.errors == {}
    assert [row.label for row in screen.zones][:3] == ["Canada", "United States", "Overseas"]
    session.expire_all()
    zones = zones_from_json(get_store_settings(session).shipping_zones)
    assert [(zone.name, zone.countries[:1], zone.active) for zone in zones] == [
        ("Canada", (), True),
        ("United States", ("United States",), True),
        ("Overseas", ("United Kingdom",), True),
    ]
    overseas = {country for zone in zones[2:] for country in zone.countries}
    assert "United Kingdom" in overseas and not {"Japan", "France", "Canada"} & overseas
    visitor = await _root(None)
    site = await visitor.get_state(SiteState)
    summary = await visitor.get_state(CheckoutState)
    site.load()
    await summary.load()
    assert site.ships_to.startswith("Argentina, Australia, Austria") and "Canada" not in site.ships_to
    assert site.shipping_terms.startswith(
        "Shipping is $15.00 per order to the United States, free on orders of $100.00 or more; "
        "$30.00 per order to Argentina, Australia, "
    )
    assert site.shipping_terms.endswith(", the United Kingdom and Vietnam.")
    assert "Canada" not in summary.countries and "United Kingdom" in summary.countries
    assert checkout.quote(session, owner, ("United Kingdom", "")).totals.shipping_cents == 3000
    assert checkout.quote(session, owner, ("United States", "WA")).totals.shipping_cents == 1500
    # Canada is no longer shipped to: refused, nothing written; the United Kingdom is
    with pytest.raises(checkout.CheckoutError, match=r"^Country: we ship to Argentina, Australia, "):
        checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    assert session.exec(select(Order)).all() == []
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=UK_FORM, engine=engine)
    address = session.exec(select(OrderAddress).where(OrderAddress.order_id == placed.order_id)).one()
    assert (address.country, address.state, address.zip_code) == (
        "United Kingdom",
        "Greater London",
        "SW1A 1AA",
    )


def test_a_settings_row_that_names_no_known_country_ships_to_the_default(session: Session) -> None:
    session.add(StoreSettings(shipping_zones=ships_to("Atlantis")))
    session.commit()

    assert checkout.quote(session, CartOwner(token="nobody")).ships_to == ("United States", "Canada")
