"""The store settings form's rules: required fields, lengths, e-mail, social links, the GST/HST
number, the taxes by province, the shipping zones (their own rules: test_shipping.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.addresses import PROVINCES
from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.messages import AuthMessage
from shop_app.domain.shipping import DEFAULT_ZONES, zones_to_json
from shop_app.domain.shipping_form import zone_form
from shop_app.domain.store_settings import (
    MAX_LENGTHS,
    TAX_ROWS,
    StoreSettingsValues,
    parse_rate_ppm,
    social_link,
    tax_collect_field,
    tax_form,
    tax_rate_field,
    validate_store_settings,
)
from shop_app.domain.tax import CANADA_TAXES, MAX_RATE_PPM, TaxRate, rate_text, table_from_json, table_to_json

DEFAULT_RATES, DEFAULT_COLLECTED = tax_form(CANADA_TAXES)
RATE_FIELDS = {row.rate_field for row in TAX_ROWS}
DEFAULT_ZONE_TEXTS, DEFAULT_ZONES_ON = zone_form(DEFAULT_ZONES)

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
    "gst_hst_number": " 123456789 RT0001 ",
    "currency_symbol": "$",
    **DEFAULT_ZONE_TEXTS,
    **dict.fromkeys(DEFAULT_ZONES_ON, "on"),
    **DEFAULT_RATES,
    **dict.fromkeys(DEFAULT_COLLECTED, "on"),
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
        tax_table=table_to_json(CANADA_TAXES),
        gst_hst_number="123456789 RT0001",
        currency_symbol="$",
        shipping_zones=zones_to_json(DEFAULT_ZONES),
    )


def test_every_bad_field_is_reported_at_once() -> None:
    form = {**VALID, "company_name": " ", "email": "not-an-email", "currency_symbol": ""}
    form |= {"twitter": "javascript:alert(1)", "gst_hst_number": "123456789/RT0001"}
    form |= {"tax_rate__QC__QST": "9.97501", "tax_rate__ON__HST": "101"}

    check = validate_store_settings(form)

    assert check.values is None
    assert check.errors == {
        "company_name": StoreSettingsMessage.COMPANY_NAME_REQUIRED.value,
        "email": AuthMessage.INVALID_EMAIL.value,
        "gst_hst_number": StoreSettingsMessage.GST_HST_NUMBER_INVALID.value,
        "tax_rate__QC__QST": StoreSettingsMessage.RATE_INVALID.value,
        "tax_rate__ON__HST": StoreSettingsMessage.RATE_INVALID.value,
        "currency_symbol": StoreSettingsMessage.CURRENCY_REQUIRED.value,
        "twitter": StoreSettingsMessage.SOCIAL_INVALID.value,
    }


def test_an_empty_form_asks_for_the_required_fields() -> None:
    errors = validate_store_settings({}).errors

    required = {"company_name", "email", "currency_symbol", "shipping_zones"}
    assert set(errors) == required | RATE_FIELDS  # an empty rate is not taken for 0


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
    longest["gst_hst_number"] = "1" * MAX_LENGTHS["gst_hst_number"]

    assert validate_store_settings({**VALID, **longest}).errors == {}


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


# --- the GST/HST number -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("", ""),
        ("  123456789 RT0001  ", "123456789 RT0001"),
        ("123456789RT0001", "123456789RT0001"),
        ("12345 6789-rt-0001", "12345 6789-rt-0001"),
    ],
)
def test_a_gst_hst_number_is_letters_digits_spaces_and_hyphens(text: str, stored: str) -> None:
    check = validate_store_settings({**VALID, "gst_hst_number": text})

    assert check.values is not None and check.values.gst_hst_number == stored


@pytest.mark.parametrize(
    "text", ["123456789/RT0001", "123456789_RT0001", "<b>1</b>", "１２３", "RT\t0001", "--", "RT"]
)
def test_anything_else_is_not_a_gst_hst_number(text: str) -> None:
    errors = validate_store_settings({**VALID, "gst_hst_number": text}).errors

    assert errors == {"gst_hst_number": StoreSettingsMessage.GST_HST_NUMBER_INVALID.value}


# --- the taxes by province ----------------------------------------------------------------


def test_the_form_has_a_row_per_tax_of_every_province_in_the_table_s_order() -> None:
    rows = [(row.region, row.code) for row in TAX_ROWS]

    assert rows == [(region, tax.code) for region, taxes in CANADA_TAXES.items() for tax in taxes]
    assert {row.region for row in TAX_ROWS} == set(PROVINCES)
    bc_pst = TAX_ROWS[2]
    assert (bc_pst.region, bc_pst.province, bc_pst.code) == ("BC", "British Columbia", "PST")
    assert (bc_pst.rate_field, bc_pst.collect_field) == ("tax_rate__BC__PST", "tax_collect__BC__PST")
    assert (tax_rate_field("QC", "QST"), tax_collect_field("SK", "PST")) == (
        "tax_rate__QC__QST",
        "tax_collect__SK__PST",
    )
    assert len(RATE_FIELDS | {row.collect_field for row in TAX_ROWS}) == 2 * len(TAX_ROWS)


def test_the_default_table_shows_its_rates_and_collects_all_but_the_unregistered_taxes() -> None:
    assert (DEFAULT_RATES["tax_rate__QC__QST"], DEFAULT_RATES["tax_rate__ON__HST"]) == ("9.975", "13")
    assert DEFAULT_RATES["tax_rate__NS__HST"] == "14" and DEFAULT_RATES["tax_rate__BC__PST"] == "7"
    not_collected = {row.collect_field for row in TAX_ROWS} - set(DEFAULT_COLLECTED)
    assert not_collected == {"tax_collect__MB__RST", "tax_collect__SK__PST", "tax_collect__QC__QST"}


def test_the_typed_rates_and_switches_are_the_saved_table() -> None:
    form = {**VALID, "tax_rate__MB__RST": "7.5 %", tax_collect_field("MB", "RST"): "on"}
    form |= {"tax_rate__ON__HST": " 13 ", tax_collect_field("BC", "PST"): ""}  # an emptied switch: off

    check = validate_store_settings(form)

    assert check.values is not None
    table = table_from_json(check.values.tax_table)
    assert table["MB"] == (TaxRate("GST", 50_000), TaxRate("RST", 75_000, collected=True))
    assert table["ON"] == (TaxRate("HST", 130_000),)
    assert table["BC"] == (TaxRate("GST", 50_000), TaxRate("PST", 70_000, collected=False))
    assert table["QC"] == CANADA_TAXES["QC"]  # QST still listed, not collected


def test_whether_shipping_is_taxed_is_kept_from_the_stored_table() -> None:
    stored = {**CANADA_TAXES, "BC": (TaxRate("GST", 50_000), TaxRate("PST", 70_000, on_shipping=False))}

    check = validate_store_settings(VALID, stored)

    assert check.values is not None
    assert table_from_json(check.values.tax_table)["BC"][1] == TaxRate("PST", 70_000, on_shipping=False)
    assert table_from_json(check.values.tax_table)["BC"][0].on_shipping


def test_the_saved_table_is_what_the_form_shows() -> None:
    """A tax added to the row by hand, which the form has no row for, is not kept charging unseen;
    a row whose tax the stored table lacks shows (and saves) Canada's default."""
    stored = {**CANADA_TAXES, "AB": (TaxRate("GST", 50_000), TaxRate("XYZ", 10_000)), "ON": ()}

    rates, _ = tax_form(stored)
    check = validate_store_settings(VALID, stored)

    assert rates["tax_rate__ON__HST"] == "13"
    assert check.values is not None and check.values.tax_table == table_to_json(CANADA_TAXES)


@pytest.mark.parametrize(
    ("text", "ppm"),
    [
        ("0", 0),
        ("7", 70_000),
        ("9.975", 99_750),
        ("9.9750", 99_750),
        ("12.25", 122_500),
        ("0.0001", 1),
        (" 15 % ", 150_000),
        ("100", MAX_RATE_PPM),
        ("100.0000", MAX_RATE_PPM),
        ("007", 70_000),
        ("100.0001", None),
        ("9.97501", None),
        ("-1", None),
        ("1e2", None),
        ("9,975", None),
        (".5", None),
        ("5.", None),
        ("", None),
        ("%", None),
        ("abc", None),
        ("１２", None),  # full-width digits are not a rate
    ],
)
def test_a_rate_is_0_to_100_percent_with_at_most_four_decimals(text: str, ppm: int | None) -> None:
    assert parse_rate_ppm(text) == ppm


@given(st.integers(min_value=0, max_value=MAX_RATE_PPM))
def test_every_whole_ppm_rate_reads_back_from_its_text(ppm: int) -> None:
    whole, rest = divmod(ppm, 10_000)

    assert parse_rate_ppm(rate_text(ppm)) == ppm
    assert parse_rate_ppm(f"{whole}.{rest:04d}") == ppm


@given(st.integers(min_value=MAX_RATE_PPM + 1, max_value=999 * 10_000 + 9_999))
def test_a_rate_above_100_percent_is_refused(ppm: int) -> None:
    whole, rest = divmod(ppm, 10_000)

    assert parse_rate_ppm(f"{whole}.{rest:04d}") is None


@given(st.integers(min_value=0, max_value=99), st.integers(min_value=0, max_value=99_999))
def test_a_fifth_decimal_is_refused(whole: int, decimals: int) -> None:
    assert parse_rate_ppm(f"{whole}.{decimals:05d}") is None


_row_tax = st.tuples(st.integers(min_value=0, max_value=MAX_RATE_PPM), st.booleans())


@given(st.lists(_row_tax, min_size=len(TAX_ROWS), max_size=len(TAX_ROWS)))
def test_a_table_goes_through_the_form_and_back_unchanged(taxes: list[tuple[int, bool]]) -> None:
    """values -> form -> values: what the screen shows of a stored table is saved as it was."""
    table: dict[str, tuple[TaxRate, ...]] = {}
    for row, (ppm, collected) in zip(TAX_ROWS, taxes, strict=True):
        table[row.region] = (*table.get(row.region, ()), TaxRate(row.code, ppm, collected=collected))
    values = validate_store_settings(VALID).values
    assert values is not None
    saved = replace(values, tax_table=table_to_json(table))

    rates, collected = tax_form(table_from_json(saved.tax_table))
    form = {key: value for key, value in VALID.items() if not key.startswith("tax_")}
    check = validate_store_settings({**form, **rates, **dict.fromkeys(collected, "on")})

    assert check.errors == {}
    assert check.values == saved
    assert table_from_json(check.values.tax_table) == table
