"""Form validation and its exact messages, first failure wins (docs/spec/account.md#validation, #messages)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.countries import COUNTRIES
from shop_app.domain.messages import AddressMessage, AuthMessage
from shop_app.domain.validation import (
    REQUIRED_CHECKOUT_FIELDS,
    checkout_problem,
    insufficient_stock_message,
    is_password_too_long,
    is_valid_email,
    normalize_email,
    validate_admin_password,
    validate_checkout,
    validate_login,
    validate_newsletter_email,
    validate_registration_dialog,
    validate_registration_page,
)

REQUIRED = "Please fill in all required fields"
ALL_FIELDS = "Please fill in all fields"
TERMS = "Please agree to the terms and conditions"
MISMATCH = "Passwords do not match"
SHORT = "Password must be at least 6 characters long"
BAD_EMAIL = "Please enter a valid email address"


# --- login -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("email", "password"), [("", "secret1"), ("a@b.co", ""), ("  ", "x"), ("a@b.co", "   ")]
)
def test_login_requires_both_fields(email: str, password: str) -> None:
    assert validate_login(email, password) == REQUIRED
    assert validate_login(email, password, on_page=True) == ALL_FIELDS


def test_login_ok() -> None:
    assert validate_login("a@b.co", "x") is None  # only "required" at sign-in


# --- registration in the dialog ----------------------------------------------------------------

GOOD_DIALOG = {
    "first_name": "Ana",
    "last_name": "Silva",
    "email": "ana@example.ca",
    "password": "secret1",
    "confirm_password": "secret1",
    "agree_to_terms": True,
}


def dialog(**changes: object) -> str | None:
    return validate_registration_dialog(**{**GOOD_DIALOG, **changes})  # type: ignore[arg-type]


def test_dialog_ok() -> None:
    assert dialog() is None


@pytest.mark.parametrize("field", ["first_name", "last_name", "email", "password"])
def test_dialog_required_fields_come_first(field: str) -> None:
    # Also failing: terms, match, length, e-mail. The required message still wins.
    assert dialog(**{field: "  "}, agree_to_terms=False, confirm_password="zz") == REQUIRED


def test_dialog_confirmation_is_not_in_the_required_list() -> None:
    assert dialog(confirm_password="") == MISMATCH


def test_dialog_terms_before_password_checks() -> None:
    assert dialog(agree_to_terms=False, password="abc", confirm_password="abc") == TERMS
    assert dialog(agree_to_terms=False, confirm_password="other") == TERMS


def test_dialog_match_before_length() -> None:
    assert dialog(password="abc", confirm_password="abd") == MISMATCH


def test_dialog_length_before_email() -> None:
    assert dialog(password="abc", confirm_password="abc", email="not-an-email") == SHORT


def test_dialog_email_format_last() -> None:
    assert dialog(email="not-an-email") == BAD_EMAIL


def test_password_length_counts_characters_not_bytes() -> None:
    assert dialog(password="ééééé", confirm_password="ééééé") == SHORT  # 5 chars, 10 bytes
    assert dialog(password="éééééé", confirm_password="éééééé") is None


def test_password_is_not_trimmed() -> None:
    assert dialog(password=" abcde", confirm_password="abcde") == MISMATCH


def test_72_byte_limit_with_multibyte_characters() -> None:
    ok = "é" * 36  # 72 bytes
    too_long = "é" * 36 + "a"  # 73 bytes, only 37 characters
    emoji = "🕯" * 19  # 76 bytes
    assert dialog(password=ok, confirm_password=ok) is None
    assert dialog(password=too_long, confirm_password=too_long) == AuthMessage.PASSWORD_TOO_LONG
    assert dialog(password=emoji, confirm_password=emoji) == AuthMessage.PASSWORD_TOO_LONG
    assert dialog(password="a" * 72, confirm_password="a" * 72) is None
    assert dialog(password="a" * 73, confirm_password="a" * 73) == AuthMessage.PASSWORD_TOO_LONG


def test_72_byte_limit_comes_after_the_seed_checks() -> None:
    long = "a" * 80
    assert dialog(password=long, confirm_password=long, email="bad") == BAD_EMAIL
    assert dialog(password=long, confirm_password=long, agree_to_terms=False) == TERMS


@given(st.text(max_size=100))
def test_is_password_too_long_counts_utf8_bytes(password: str) -> None:
    assert is_password_too_long(password) == (len(password.encode()) > 72)


# --- registration on the /auth page ------------------------------------------------------------

GOOD_PAGE = {key: value for key, value in GOOD_DIALOG.items() if key != "agree_to_terms"}


def page(**changes: str) -> str | None:
    return validate_registration_page(**{**GOOD_PAGE, **changes})  # type: ignore[arg-type]


def test_page_ok() -> None:
    assert page() is None


@pytest.mark.parametrize("field", list(GOOD_PAGE))
def test_page_all_five_required(field: str) -> None:
    # Another rule fails too (a bad e-mail, or a mismatch); "required" still comes first.
    other = {"confirm_password": "zzz"} if field == "email" else {"email": "bad"}
    assert page(**{**other, field: " "}) == ALL_FIELDS


def test_page_order_match_length_email() -> None:
    assert page(password="abc", confirm_password="abd", email="bad") == MISMATCH
    assert page(password="abc", confirm_password="abc", email="bad") == SHORT
    assert page(email="bad") == BAD_EMAIL
    assert page(password="é" * 37, confirm_password="é" * 37) == AuthMessage.PASSWORD_TOO_LONG


# --- e-mail ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "email", ["ana@example.ca", "a.b+shop@mail.example.com", "x@y.io", "ÉLODIE@exemple.fr"]
)
def test_valid_emails(email: str) -> None:
    assert is_valid_email(email)


@pytest.mark.parametrize(
    "email",
    [
        "",
        "plain",
        "@example.com",
        "ana@",
        "ana@localhost",
        "ana@@example.com",
        "ana@ex@ample.com",
        "ana @example.com",
        " ana@example.com",
        "ana@example..com",
        "ana@.example.com",
        "ana@example.com.",
        "a" * 65 + "@example.com",
        "a@" + "b" * 250 + ".com",
    ],
)
def test_invalid_emails(email: str) -> None:
    assert not is_valid_email(email)


def test_normalize_email() -> None:
    assert normalize_email("  Ana@Example.CA ") == "ana@example.ca"


# --- checkout ----------------------------------------------------------------------------------

GOOD_CHECKOUT = {
    "first_name": "Ana",
    "last_name": "Silva",
    "email": "ana@example.ca",
    "address": "1 Main St",
    "city": "Kelowna",
    "state": "BC",
    "zip_code": "V1Y 1A1",
    "country": "Canada",
}


def test_checkout_required_fields() -> None:
    assert REQUIRED_CHECKOUT_FIELDS == (
        "first_name",
        "last_name",
        "email",
        "address",
        "city",
        "state",
        "zip_code",
        "country",
    )
    assert validate_checkout(GOOD_CHECKOUT) is None
    assert validate_checkout({**GOOD_CHECKOUT, "special_instructions": ""}) is None


@pytest.mark.parametrize("field", REQUIRED_CHECKOUT_FIELDS)
def test_checkout_each_required_field(field: str) -> None:
    other = {"country": "Atlantis"} if field == "email" else {"email": "bad"}
    assert validate_checkout({**GOOD_CHECKOUT, **other, field: "  "}) == REQUIRED
    missing = {k: v for k, v in GOOD_CHECKOUT.items() if k != field}
    assert validate_checkout(missing) == REQUIRED


def test_checkout_email_then_country() -> None:
    assert validate_checkout({**GOOD_CHECKOUT, "email": "bad", "country": "Atlantis"}) == BAD_EMAIL
    assert (
        validate_checkout({**GOOD_CHECKOUT, "country": "Atlantis"}) == "Please select a country from the list"
    )
    assert validate_checkout({**GOOD_CHECKOUT, "country": " canada "}) is None


def test_checkout_ships_only_to_the_countries_shipped_to() -> None:
    not_shipped = "Country: we ship to Canada and the United States only. Please choose one of them."
    assert validate_checkout({**GOOD_CHECKOUT, "country": "France"}) == not_shipped
    assert validate_checkout({**GOOD_CHECKOUT, "country": " united kingdom "}) == not_shipped
    uk = {**GOOD_CHECKOUT, "country": "United Kingdom", "state": "London", "zip_code": "SW1A 1AA"}
    assert validate_checkout(uk, ships_to=("United Kingdom", "Canada")) is None
    assert validate_checkout(GOOD_CHECKOUT, ships_to=("United Kingdom",)) == (
        "Country: we ship to the United Kingdom only. Please choose one of them."
    )
    others = [c for c in COUNTRIES if c not in ("Canada", "United States")]
    assert all(
        validate_checkout({**GOOD_CHECKOUT, "country": c, "state": "Region 1"}, ships_to=COUNTRIES) is None
        for c in others
    )


def test_checkout_checks_the_address_and_phone_for_the_country() -> None:
    us = {**GOOD_CHECKOUT, "country": "United States", "state": "Washington", "zip_code": "98101-1234"}
    assert validate_checkout(us) is None
    assert validate_checkout({**GOOD_CHECKOUT, "state": "Nowhere"}) == AddressMessage.PROVINCE_INVALID
    assert validate_checkout({**GOOD_CHECKOUT, "zip_code": "ABCDEFG"}) == AddressMessage.POSTAL_CODE_INVALID
    assert validate_checkout({**us, "state": "BC"}) == AddressMessage.STATE_INVALID
    assert validate_checkout({**us, "zip_code": "V1Y 1A1"}) == AddressMessage.ZIP_CODE_INVALID
    assert validate_checkout({**GOOD_CHECKOUT, "phone": "not a phone !!!"}) == AddressMessage.PHONE_INVALID
    assert validate_checkout({**GOOD_CHECKOUT, "phone": "(250) 555-0100"}) is None
    # the region is checked before the postal code, and both before the phone
    assert (
        validate_checkout({**GOOD_CHECKOUT, "state": "Nowhere", "zip_code": "x", "phone": "x"})
        == AddressMessage.PROVINCE_INVALID
    )


# --- other forms and messages ------------------------------------------------------------------


def test_newsletter_email_is_only_required() -> None:
    assert validate_newsletter_email("") == REQUIRED
    assert validate_newsletter_email("   ") == REQUIRED
    assert validate_newsletter_email("not-an-email") is None


def test_admin_password() -> None:
    assert validate_admin_password("a" * 11) == "Password must be at least 12 characters long"
    assert validate_admin_password("a" * 12) is None
    assert validate_admin_password("é" * 37) == AuthMessage.PASSWORD_TOO_LONG


def test_insufficient_stock_message() -> None:
    assert (
        insufficient_stock_message("8oz Soy Candle - Lavender", 2, 5)
        == 'Insufficient stock for "8oz Soy Candle - Lavender". Available: 2, Requested: 5'
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"first_name": " "}, "first_name"),
        ({"city": "", "zip_code": ""}, "city"),  # the first blank one, in the form's order
        ({"email": "bad"}, "email"),
        ({"country": "Atlantis"}, "country"),
        ({"country": "France"}, "country"),
        ({"state": "Nowhere"}, "state"),
        ({"zip_code": "12345"}, "zip_code"),  # the finding: Canada with a US ZIP code
        ({"zip_code": "M5V 2T6"}, "zip_code"),  # Toronto's code with BC
        ({"country": "United States", "state": "Nowhere", "zip_code": "98101"}, "state"),
        ({"country": "United States", "state": "WA", "zip_code": "V5K"}, "zip_code"),
        ({"phone": "call me"}, "phone"),
    ],
)
def test_checkout_problem_names_the_field_it_is_about(change: dict[str, str], field: str) -> None:
    problem = checkout_problem({**GOOD_CHECKOUT, **change})
    assert problem is not None
    assert (problem.field, problem.message) == (field, validate_checkout({**GOOD_CHECKOUT, **change}))
    assert checkout_problem(GOOD_CHECKOUT) is None
