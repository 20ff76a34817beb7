"""The store settings form's rules: required fields, lengths, e-mail, social links, tax rate,
the countries the shop ships to."""

from __future__ import annotations

import pytest

from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.countries import COUNTRIES
from shop_app.domain.messages import AuthMessage
from shop_app.domain.store_settings import (
    MAX_LENGTHS,
    StoreSettingsValues,
    parse_tax_rate,
    percent_text,
    ship_to_field,
    social_link,
    validate_store_settings,
)

VALID = {
    "company_name": "  Cedar & Ember  ",
    "email": "hello@example.com",
    "phone": "(250) 555-0142",
    "address": "Victoria, BC",
    "instagram": "@cedar.ember",
    "facebook": "https://facebook.com/cedarember",
    "twitter": "",
    "notify_order_confirmation": "on",
    "notify_low_stock": True,
    "tax_rate": "12.5",
    "currency_symbol": "$",
    "ship_to_canada": "on",
    "ship_to_united_states": "on",
}


def test_a_valid_form_becomes_the_row_s_values() -> None:
    check = validate_store_settings(VALID)

    assert check.errors == {}
    assert check.values == StoreSettingsValues(
        company_name="Cedar & Ember",
        email="hello@example.com",
        phone="(250) 555-0142",
        address="Victoria, BC",
        instagram="https://instagram.com/cedar.ember",
        facebook="https://facebook.com/cedarember",
        twitter="",
        notify_order_confirmation=True,
        notify_low_stock=True,
        notify_new_reviews=False,  # an unticked switch sends nothing
        tax_rate_bps=1250,
        currency_symbol="$",
        shipping_countries=("United States", "Canada"),
    )


def test_every_bad_field_is_reported_at_once() -> None:
    form = {**VALID, "company_name": " ", "email": "not-an-email", "tax_rate": "101", "currency_symbol": ""}
    form["twitter"] = "javascript:alert(1)"

    check = validate_store_settings(form)

    assert check.values is None
    assert check.errors == {
        "company_name": StoreSettingsMessage.COMPANY_NAME_REQUIRED.value,
        "email": AuthMessage.INVALID_EMAIL.value,
        "tax_rate": StoreSettingsMessage.TAX_RATE_INVALID.value,
        "currency_symbol": StoreSettingsMessage.CURRENCY_REQUIRED.value,
        "twitter": StoreSettingsMessage.SOCIAL_INVALID.value,
    }


def test_an_empty_form_asks_for_the_required_fields() -> None:
    errors = validate_store_settings({}).errors

    assert set(errors) == {"company_name", "email", "tax_rate", "currency_symbol", "shipping_countries"}


def test_the_shop_ships_to_the_ticked_countries_in_the_list_s_order() -> None:
    form = {key: value for key, value in VALID.items() if not key.startswith("ship_to_")}
    ticked = {ship_to_field("United Kingdom"): "on", ship_to_field("Canada"): True, "ship_to_atlantis": "on"}

    check = validate_store_settings({**form, **ticked, ship_to_field("France"): ""})

    assert check.values is not None
    assert check.values.shipping_countries == ("Canada", "United Kingdom")


def test_at_least_one_country_is_shipped_to() -> None:
    form = {key: value for key, value in VALID.items() if not key.startswith("ship_to_")}

    check = validate_store_settings(form)

    assert check.values is None
    assert check.errors == {"shipping_countries": "Choose at least one country you ship to"}


def test_every_country_has_its_own_field() -> None:
    assert len({ship_to_field(country) for country in COUNTRIES}) == len(COUNTRIES)


@pytest.mark.parametrize("name", sorted(MAX_LENGTHS))
def test_each_text_fits_its_column(name: str) -> None:
    limit = MAX_LENGTHS[name]
    too_long = "a" * (limit + 1)
    if name == "email":
        too_long = "a" * 64 + "@" + "b" * (limit - 68) + ".com"
    if name in ("instagram", "facebook", "twitter"):
        too_long = "https://example.com/" + "a" * limit

    errors = validate_store_settings({**VALID, name: too_long}).errors

    assert errors == {name: StoreSettingsMessage.TOO_LONG.format(n=limit)}


def test_the_longest_accepted_texts_pass() -> None:
    names = ("company_name", "phone", "address", "currency_symbol")
    longest = {name: "a" * MAX_LENGTHS[name] for name in names}

    assert validate_store_settings({**VALID, **longest}).errors == {}


@pytest.mark.parametrize(
    ("text", "bps"),
    [
        ("0", 0),
        ("12", 1200),
        ("12.5", 1250),
        ("12.25", 1225),
        ("5.0", 500),
        (" 7 % ", 700),
        ("100", 10_000),
        ("100.00", 10_000),
        ("100.01", None),
        ("12.345", None),
        ("-1", None),
        ("1e2", None),
        ("12,5", None),
        (".5", None),
        ("", None),
        ("abc", None),
        ("１２", None),  # full-width digits are not a rate
    ],
)
def test_tax_rate_is_0_to_100_with_at_most_two_decimals(text: str, bps: int | None) -> None:
    assert parse_tax_rate(text) == bps


@pytest.mark.parametrize("bps", [0, 1, 10, 99, 100, 1200, 1250, 1225, 10_000])
def test_percent_text_reads_back_as_the_same_rate(bps: int) -> None:
    assert parse_tax_rate(percent_text(bps)) == bps


@pytest.mark.parametrize(
    ("network", "text", "link"),
    [
        ("instagram", "@shop", "https://instagram.com/shop"),
        ("facebook", "shop.page", "https://facebook.com/shop.page"),
        ("twitter", "@shop_1", "https://x.com/shop_1"),
        ("twitter", "HTTPS://twitter.com/shop", "HTTPS://twitter.com/shop"),
        ("instagram", "http://instagram.com/shop", "http://instagram.com/shop"),
        ("instagram", "   ", ""),
        ("instagram", "javascript:alert(1)", None),
        ("instagram", "data:text/html,hi", None),
        ("instagram", "https://", None),
        ("instagram", "https://localhost/x", None),
        ("instagram", "https://example.com/a b", None),
        ("instagram", "two words", None),
        ("instagram", "@", None),
    ],
)
def test_social_links_are_web_links_or_handles(network: str, text: str, link: str | None) -> None:
    assert social_link(network, text) == link
