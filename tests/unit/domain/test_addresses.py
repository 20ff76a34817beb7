"""Provinces, states, postal and ZIP codes and phone numbers: what is accepted and how it is stored."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.addresses import (
    MAX_PHONE_LENGTH,
    POSTAL_CODE_FIRST_LETTERS,
    POSTAL_CODE_LETTERS,
    PROVINCES,
    US_STATES,
    address_lines,
    address_problem,
    canadian_postal_code,
    normalize_phone,
    normalize_postal_code,
    normalize_region,
    other_postal_code,
    phone_problem,
    postal_code_serves,
    province_code,
    state_code,
    zip_code,
)
from shop_app.domain.messages import AddressMessage

FIRST_LETTER = {
    "A": "NL",
    "B": "NS",
    "C": "PE",
    "E": "NB",
    "G": "QC",
    "H": "QC",
    "J": "QC",
    "K": "ON",
    "L": "ON",
    "M": "ON",
    "N": "ON",
    "P": "ON",
    "R": "MB",
    "S": "SK",
    "T": "AB",
    "V": "BC",
    "X": "NT",
    "Y": "YT",
}

# --- regions ----------------------------------------------------------------------------------


def test_canada_has_13_provinces_and_territories_and_the_us_51_states_with_dc() -> None:
    assert len(PROVINCES) == 13
    assert len(US_STATES) == 51 and US_STATES["DC"] == "District of Columbia"


@pytest.mark.parametrize(("code", "name"), sorted(PROVINCES.items()))
def test_every_province_by_code_or_name_in_any_case(code: str, name: str) -> None:
    for typed in (code, code.lower(), name, name.upper(), f"  {name.lower()} "):
        assert province_code(typed) == code
        assert normalize_region("Canada", typed) == code


@pytest.mark.parametrize(("code", "name"), sorted(US_STATES.items()))
def test_every_state_by_code_or_name_in_any_case(code: str, name: str) -> None:
    for typed in (code, code.lower(), name, name.upper()):
        assert state_code(typed) == code
        assert normalize_region("United States", typed) == code


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("Québec", "QC"),
        ("Colombie-Britannique", "BC"),
        ("Nouvelle-Écosse", "NS"),
        ("Île-du-Prince-Édouard", "PE"),
        ("P.E.I.", "PE"),
        ("Newfoundland & Labrador", "NL"),
        ("Newfoundland", "NL"),
        ("B.C.", "BC"),
        ("Yukon Territory", "YT"),
        ("northwest   territories", "NT"),
    ],
)
def test_other_spellings_of_provinces(typed: str, code: str) -> None:
    assert province_code(typed) == code


@pytest.mark.parametrize("typed", ["Washington, D.C.", "Washington DC", "D.C.", "dc"])
def test_the_district_of_columbia(typed: str) -> None:
    assert state_code(typed) == "DC"


@pytest.mark.parametrize("typed", ["Nowhere", "", "B", "Puerto Rico", "PR", "GU", "AA", "Ontario"])
def test_not_a_us_state(typed: str) -> None:
    assert state_code(typed) is None


@pytest.mark.parametrize("typed", ["Nowhere", "", "Washington", "WA", "Alaska", "XX", "British Colombia"])
def test_not_a_province(typed: str) -> None:
    assert province_code(typed) is None


def test_a_region_that_is_not_one_stays_as_typed() -> None:
    assert normalize_region("Canada", "Nowhere") == "Nowhere"
    assert normalize_region("United Kingdom", "Greater London") == "Greater London"


# --- Canadian postal codes --------------------------------------------------------------------

_digit = st.sampled_from("0123456789")
_letter = st.sampled_from(POSTAL_CODE_LETTERS)
canonical_postal_codes = st.builds(
    lambda a, b, c, d, e, f: f"{a}{b}{c} {d}{e}{f}",
    st.sampled_from(POSTAL_CODE_FIRST_LETTERS),
    _digit,
    _letter,
    _digit,
    _letter,
    _digit,
)


@given(code=canonical_postal_codes, lower=st.booleans(), separator=st.sampled_from(["", " ", "  ", "-"]))
def test_every_valid_postal_code_round_trips_through_normalisation(
    code: str, lower: bool, separator: str
) -> None:
    typed = code.replace(" ", separator)
    typed = typed.lower() if lower else typed

    assert canadian_postal_code(typed) == code
    assert canadian_postal_code(code) == code  # the stored form is a fixed point
    assert normalize_postal_code("Canada", f" {typed} ") == code
    province = FIRST_LETTER[code[0]]
    assert address_problem("Canada", province, typed) is None


@given(code=canonical_postal_codes, province=st.sampled_from(sorted(PROVINCES)))
def test_a_postal_code_of_another_province_is_refused_naming_both(code: str, province: str) -> None:
    problem = address_problem("Canada", province, code)

    if postal_code_serves(code, province):
        assert problem is None
    else:
        assert problem == AddressMessage.POSTAL_CODE_NOT_IN_PROVINCE.format(
            postal_code=code, province=PROVINCES[province]
        )
        assert problem.startswith(f"Postal code: {code} is not in {PROVINCES[province]}.")


@given(text=st.text(max_size=12))
def test_anything_else_gets_the_postal_code_message(text: str) -> None:
    compact = "".join(text.split()).replace("-", "").upper()
    shaped = re.fullmatch(
        f"[{POSTAL_CODE_FIRST_LETTERS}][0-9][{POSTAL_CODE_LETTERS}][0-9][{POSTAL_CODE_LETTERS}][0-9]", compact
    )
    if shaped is None:
        assert canadian_postal_code(text) is None
        assert address_problem("Canada", "BC", text) == AddressMessage.POSTAL_CODE_INVALID
        assert normalize_postal_code("Canada", text) == text  # kept as typed, for the message


@pytest.mark.parametrize(
    "typed", ["ABCDEFG", "V5K 0A", "V5K 0A11", "D5K 0A1", "W5K 0A1", "V5O 0A1", "12345", "V5K0A1X"]
)
def test_postal_codes_that_do_not_exist(typed: str) -> None:
    assert canadian_postal_code(typed) is None


def test_first_letters_that_serve_two_provinces() -> None:
    assert postal_code_serves("X0A 0H0", "NU") and postal_code_serves("X1A 2P3", "NT")
    assert postal_code_serves("H0M 1A0", "ON") and postal_code_serves("H0M 1A0", "QC")
    assert not postal_code_serves("H2X 1Y4", "ON")


def test_the_province_is_checked_before_the_postal_code() -> None:
    assert address_problem("Canada", "Nowhere", "ABCDEFG") == AddressMessage.PROVINCE_INVALID


# --- ZIP codes --------------------------------------------------------------------------------

zips = st.from_regex(r"[0-9]{5}", fullmatch=True)
plus_fours = st.from_regex(r"[0-9]{4}", fullmatch=True)


@given(five=zips, four=st.none() | plus_fours, separator=st.sampled_from(["", " ", "-"]))
def test_every_valid_zip_code_round_trips(five: str, four: str | None, separator: str) -> None:
    stored = f"{five}-{four}" if four else five
    typed = f"{five}{separator}{four}" if four else five

    assert zip_code(f" {typed} ") == stored
    assert zip_code(stored) == stored
    assert address_problem("United States", "NY", typed) is None


@pytest.mark.parametrize(
    "typed", ["1234", "123456", "12345-678", "ABCDE", "V5K 0A1", "12345--6789", "１２３４５"]
)
def test_zip_codes_that_are_not(typed: str) -> None:
    assert zip_code(typed) is None
    assert address_problem("United States", "NY", typed) == AddressMessage.ZIP_CODE_INVALID


def test_the_state_is_checked_before_the_zip_code() -> None:
    assert address_problem("United States", "Nowhere", "x") == AddressMessage.STATE_INVALID


# --- other countries ------------------------------------------------------------------------


def test_another_country_needs_a_sane_postal_code_only() -> None:
    assert other_postal_code(" sw1a   1aa ") == "SW1A 1AA"
    assert address_problem("United Kingdom", "Greater London", "SW1A 1AA") is None
    for typed in ("<script>", "A", "12345678901", "75008;"):
        assert address_problem("France", "Paris", typed) == AddressMessage.OTHER_POSTAL_CODE_INVALID


# --- phone numbers ----------------------------------------------------------------------------

_separator = st.sampled_from(["", " ", "-", ".", " - "])


@st.composite
def phone_numbers(draw: st.DrawFn) -> tuple[str, str, str]:
    """(as typed, its digits, its extension): 7 to 15 digits in groups, with separators."""
    digits = draw(st.from_regex(r"[0-9]{7,15}", fullmatch=True))
    cuts = sorted(draw(st.sets(st.integers(1, len(digits) - 1), max_size=4)))
    groups = [digits[a:b] for a, b in zip([0, *cuts], [*cuts, len(digits)], strict=True)]
    if draw(st.booleans()):
        groups[0] = f"({groups[0]})"
    typed = groups[0] + "".join(draw(_separator) + group for group in groups[1:])
    plus = draw(st.booleans())
    extension = draw(st.none() | st.from_regex(r"[0-9]{1,6}", fullmatch=True))
    marker = draw(st.sampled_from(["x", " x", " ext ", " ext. ", " Extension ", "X"]))
    return (
        ("+" if plus else "") + typed + (f"{marker}{extension}" if extension else ""),
        digits,
        extension or "",
    )


@given(number=phone_numbers())
def test_every_valid_phone_number_is_stored_the_same_way_and_keeps_its_digits(
    number: tuple[str, str, str],
) -> None:
    typed, digits, extension = number

    stored = normalize_phone(typed)

    assert stored is not None and phone_problem(typed) is None
    assert normalize_phone(stored) == stored  # normalising again changes nothing
    main, _, ext = stored.partition(" ext. ")
    assert ext == extension
    kept = "".join(char for char in main if char.isdigit())
    assert kept in (digits, digits.removeprefix("1"))  # a North American +1 / 1 is dropped
    assert re.fullmatch(r"\+?[0-9][0-9 -]*", main)
    assert len(stored) <= MAX_PHONE_LENGTH


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("(604) 555-0123", "604-555-0123"),
        ("604.555.0123", "604-555-0123"),
        ("+1 604 555 0123", "604-555-0123"),
        ("1-800-555-0199", "800-555-0199"),
        ("6045550123 x12", "604-555-0123 ext. 12"),
        ("604-555-0123 ext. 12", "604-555-0123 ext. 12"),
        ("+44 20 7946 0958", "+44 20 7946 0958"),
        ("+44-(20)-7946-0958", "+44 20 7946 0958"),
        ("555 0123", "555-0123"),
        ("  ", ""),
    ],
)
def test_phone_numbers_as_stored(typed: str, stored: str) -> None:
    assert normalize_phone(typed) == stored


@pytest.mark.parametrize(
    "typed",
    [
        "not a phone !!!",
        "12345",
        "1234567890123456",
        "604-555-0123 x1234567",
        "604 555 0123 +",
        "++1 604 555 0123",
        "604/555/0123",
        "604-555-0123 x",
        "phone: 604-555-0123",
        "６０４５５５０１２３",
    ],
)
def test_texts_that_are_not_phone_numbers(typed: str) -> None:
    assert normalize_phone(typed) is None
    assert phone_problem(typed) == AddressMessage.PHONE_INVALID


@given(text=st.text(alphabet=st.characters(blacklist_categories=("Nd",)), min_size=1, max_size=30))
def test_a_text_without_digits_is_never_a_phone_number(text: str) -> None:
    assert normalize_phone(text) in (None, "")


def test_address_lines_print_city_region_and_postal_code_on_one_line() -> None:
    full = address_lines(
        "1 Main St", "Unit 2", "Vancouver", region="BC", postal_code="V5K 0A1", country="Canada"
    )
    assert full == ["1 Main St", "Unit 2", "Vancouver, BC V5K 0A1", "Canada"]
    assert address_lines("1 Main St", "", "Vancouver", region="", postal_code="", country="") == [
        "1 Main St",
        "Vancouver",
    ]
    assert address_lines("", "", "", region="WA", postal_code="98101", country="") == ["WA 98101"]
