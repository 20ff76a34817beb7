"""Shipping zones (issue 19, acceptance 2): which zone prices an order, the free-shipping figure,
the texts, the stored form, and the Store Settings form that edits them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.countries import COUNTRIES
from shop_app.domain.shipping import (
    DEFAULT_ZONES,
    MAX_ZONES,
    ShippingZone,
    default_zone,
    free_shipping_note,
    ship_countries,
    shipping_for,
    shipping_terms,
    zone_of,
    zones_from_json,
    zones_to_json,
)
from shop_app.domain.shipping_form import ZONES_FIELD, country_zone_field, parse_zones, zone_fields, zone_form

CANADA = ShippingZone("Canada", ("Canada",), 1500, 10_000)
US = ShippingZone("United States", ("United States",), 1500, 10_000)
OVERSEAS = ShippingZone("Overseas", ("United Kingdom", "Japan"), 3500, None)


def test_the_default_is_the_seed_s_rule_for_canada_and_the_us_and_nothing_else() -> None:
    assert ship_countries(DEFAULT_ZONES) == ("United States", "Canada")
    assert [(zone.flat_cents, zone.free_from_cents) for zone in DEFAULT_ZONES[:2]] == [(1500, 10_000)] * 2
    international = DEFAULT_ZONES[2]
    assert not international.active
    assert set(international.countries) == set(COUNTRIES) - {"Canada", "United States"}


def test_an_order_is_priced_by_its_country_s_zone_and_otherwise_by_the_default_zone() -> None:
    zones = (US, CANADA, OVERSEAS)
    assert shipping_for(zones, " united kingdom ") == OVERSEAS
    assert shipping_for(zones, "Canada") == CANADA
    assert shipping_for(zones, None) == CANADA  # the shop's own country's zone, though listed second
    assert shipping_for(zones, "France") == CANADA  # not shipped: checkout refuses it anyway
    without_canada = (US, OVERSEAS)
    assert default_zone(without_canada) == US
    assert zone_of((ShippingZone("Canada", ("Canada",), 900, None, active=False), US), "Canada") is None
    assert default_zone(()) is None


def test_the_shop_ships_to_the_countries_of_its_active_zones_in_the_list_s_order() -> None:
    off = ShippingZone("Off", ("France",), 100, None, active=False)
    assert ship_countries((OVERSEAS, CANADA, off)) == ("Canada", "United Kingdom", "Japan")


@pytest.mark.parametrize(
    ("subtotal", "away", "note"),
    [
        (6_550, 3_450, "$34.50 away from free shipping"),
        (9_999, 1, "$0.01 away from free shipping"),
        (10_000, 0, "Your order ships free."),
        (25_000, 0, "Your order ships free."),
    ],
)
def test_the_cart_says_how_far_it_is_from_free_shipping(subtotal: int, away: int, note: str) -> None:
    assert CANADA.away_from_free(subtotal) == away
    assert free_shipping_note(CANADA.away_from_free(subtotal)) == note


def test_a_zone_that_never_ships_free_or_always_does_says_nothing() -> None:
    assert OVERSEAS.away_from_free(50_000) is None
    assert ShippingZone("Free", ("Canada",), 0, 5_000).away_from_free(100) is None
    assert free_shipping_note(None) == ""


@given(
    subtotal=st.integers(min_value=1, max_value=10**7),
    flat=st.integers(min_value=1, max_value=100_000),
    threshold=st.integers(min_value=0, max_value=100_000),
)
def test_the_figure_to_free_shipping_is_what_makes_the_charge_zero(
    subtotal: int, flat: int, threshold: int
) -> None:
    zone = ShippingZone("Zone", ("Canada",), flat, threshold)
    away = zone.away_from_free(subtotal)
    assert away is not None
    assert (zone.charge(subtotal) == 0) == (away == 0)
    if away:
        assert zone.charge(subtotal + away) == 0
        assert zone.charge(subtotal + away - 1) == flat


def test_the_texts_name_every_rule_of_the_active_zones() -> None:
    seed = "Shipping is a flat $15.00 per order, free on orders of $100.00 or more."
    assert shipping_terms(DEFAULT_ZONES) == seed
    assert shipping_terms((CANADA, US, OVERSEAS)) == (
        "Shipping is $15.00 per order to Canada and the United States, free on orders of $100.00 or more; "
        "$35.00 per order to Japan and the United Kingdom."
    )
    assert shipping_terms((ShippingZone("All", ("Canada",), 0, None),)) == "Shipping is free."
    flat = ShippingZone("CA", ("Canada",), 900, None)
    assert shipping_terms((flat,)) == "Shipping is a flat $9.00 per order."


def test_zones_read_back_from_their_json() -> None:
    zones = (CANADA, US, OVERSEAS, DEFAULT_ZONES[2].__class__("Off", ("France",), 0, None, active=False))
    assert zones_from_json(zones_to_json(zones)) == zones


@pytest.mark.parametrize(
    "stored",
    [
        None,
        "nonsense",
        [],
        [{"name": "Off", "countries": ["Canada"], "flat_cents": 100, "active": False}],
        [{"name": "", "countries": ["Canada"], "flat_cents": 100, "active": True}],
        [{"name": "Bad", "countries": ["Canada"], "flat_cents": 1.5, "active": True}],
        [{"name": "Bad", "countries": ["Canada"], "flat_cents": 100, "free_from_cents": -1, "active": True}],
        [{"name": "Bad", "countries": ["Atlantis"], "flat_cents": 100, "active": True}],
    ],
)
def test_a_row_that_ships_nowhere_valid_gets_the_default(stored: object) -> None:
    assert zones_from_json(stored) == DEFAULT_ZONES


def test_a_hand_edited_row_keeps_each_country_in_its_first_zone_and_each_name_once() -> None:
    stored = [
        {"name": "A", "countries": ["Canada", "Japan"], "flat_cents": 100, "active": True},
        {"name": "B", "countries": ["japan", "France"], "flat_cents": 200, "active": True},
        {"name": "A", "countries": ["Mexico"], "flat_cents": 300, "active": True},
    ]
    zones = zones_from_json(stored)
    assert [(zone.name, zone.countries) for zone in zones] == [("A", ("Canada", "Japan")), ("B", ("France",))]


# --------------------------------------------------------------------------- the settings form


def _form(zones: tuple[ShippingZone, ...] = (CANADA, US, OVERSEAS)) -> dict[str, str]:
    texts, active = zone_form(zones)
    return {**texts, **dict.fromkeys(active, "on")}


def test_the_form_of_some_zones_describes_them_again() -> None:
    for zones in [(CANADA, US, OVERSEAS), DEFAULT_ZONES]:
        errors: dict[str, str] = {}
        assert parse_zones(_form(zones), errors) == zones
        assert errors == {}


def test_naming_the_empty_row_and_choosing_it_for_countries_adds_a_zone() -> None:
    new = zone_fields(3)
    form = _form() | {new.name: "  Europe ", new.flat: "$22.5", new.free_from: "", new.active: "on"}
    form |= {country_zone_field("France"): "3", country_zone_field("Japan"): "3"}
    errors: dict[str, str] = {}
    zones = parse_zones(form, errors)
    assert errors == {}
    assert zones[3] == ShippingZone("Europe", ("France", "Japan"), 2250, None)
    assert zones[2].countries == ("United Kingdom",)  # Japan moved


def test_a_zone_with_no_country_and_no_name_is_removed() -> None:
    form = _form() | {zone_fields(2).name: ""}
    form |= {country_zone_field("United Kingdom"): "", country_zone_field("Japan"): ""}
    errors: dict[str, str] = {}
    assert parse_zones(form, errors) == (CANADA, US)


def test_every_problem_of_the_zones_is_reported_under_its_field() -> None:
    first, second, third = zone_fields(0), zone_fields(1), zone_fields(2)
    form = _form() | {first.flat: "-5", second.name: "canada", third.name: "", third.free_from: "12.345"}
    form |= {zone_fields(4).name: "x" * 41}
    errors: dict[str, str] = {}
    parse_zones(form, errors)
    assert errors == {
        first.flat: StoreSettingsMessage.SHIPPING_AMOUNT_INVALID.value,
        second.name: StoreSettingsMessage.ZONE_NAME_TAKEN.value,
        third.name: StoreSettingsMessage.ZONE_NAME_REQUIRED.value,  # it still holds two countries
        zone_fields(4).name: StoreSettingsMessage.TOO_LONG.format(n=40),
        zone_fields(4).flat: StoreSettingsMessage.SHIPPING_AMOUNT_INVALID.value,  # a new zone needs a rate
    }


@pytest.mark.parametrize("typed", ["", "abc", "1000.01", "1e3", "NaN", "-0.01"])
def test_a_flat_rate_is_an_amount_from_0_to_1000_dollars(typed: str) -> None:
    form = _form() | {zone_fields(0).flat: typed}
    errors: dict[str, str] = {}
    parse_zones(form, errors)
    assert errors == {zone_fields(0).flat: StoreSettingsMessage.SHIPPING_AMOUNT_INVALID.value}


def test_the_shop_must_ship_somewhere() -> None:
    form = {key: value for key, value in _form().items() if not key.startswith("zone_active__")}
    errors: dict[str, str] = {}
    parse_zones(form, errors)
    assert errors == {ZONES_FIELD: StoreSettingsMessage.SHIPPING_COUNTRIES_REQUIRED.value}


def test_rows_beyond_the_most_zones_and_unknown_selections_are_ignored() -> None:
    form = _form() | {zone_fields(MAX_ZONES).name: "Ninth", country_zone_field("France"): "99"}
    form |= {"ship_zone__atlantis": "0"}
    errors: dict[str, str] = {}
    assert parse_zones(form, errors) == (CANADA, US, OVERSEAS)
    assert errors == {}


def test_every_country_has_its_own_select() -> None:
    assert len({country_zone_field(country) for country in COUNTRIES}) == len(COUNTRIES)
