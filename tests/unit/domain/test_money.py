"""Money: cents formatting, parsing and half-up percentages."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.messages import MoneyMessage
from shop_app.domain.money import (
    format_cents,
    format_plain,
    parse_dollars,
    percent_of,
    require_cents,
    round_half_up_div,
)


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (0, "$0.00"),
        (5, "$0.05"),
        (1250, "$12.50"),
        (100_000, "$1,000.00"),
        (123_450, "$1,234.50"),
        (123_456_789, "$1,234,567.89"),
        (-1250, "-$12.50"),
        (-5, "-$0.05"),
    ],
)
def test_format_cents(cents: int, text: str) -> None:
    assert format_cents(cents) == text


@pytest.mark.parametrize(("cents", "text"), [(123_450, "1234.50"), (7, "0.07"), (-1250, "-12.50")])
def test_format_plain(cents: int, text: str) -> None:
    assert format_plain(cents) == text


@pytest.mark.parametrize("bad", [12.5, Decimal("12.50"), True, "1250", None])
def test_money_functions_refuse_non_int_amounts(bad: object) -> None:
    with pytest.raises(TypeError):
        format_cents(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        require_cents(bad)


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("12", 1200),
        ("12.5", 1250),
        ("12.50", 1250),
        (" $12.50 ", 1250),
        ("$ 12.50", 1250),
        ("0", 0),
        ("0.01", 1),
        (".5", 50),
        ("12.", 1200),
        ("1,234.50", 123_450),
        ("1,234,567", 123_456_700),
        ("-0", 0),
    ],
)
def test_parse_dollars_accepts(text: str, cents: int) -> None:
    assert parse_dollars(text) == cents


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", MoneyMessage.EMPTY),
        ("   ", MoneyMessage.EMPTY),
        ("$", MoneyMessage.EMPTY),
        ("-12", MoneyMessage.NEGATIVE),
        ("-$12.50", MoneyMessage.NEGATIVE),
        ("$-12.50", MoneyMessage.NEGATIVE),
        ("12.505", MoneyMessage.TOO_MANY_DECIMALS),
        ("0.001", MoneyMessage.TOO_MANY_DECIMALS),
        ("12.500", MoneyMessage.TOO_MANY_DECIMALS),
        ("abc", MoneyMessage.INVALID),
        ("NaN", MoneyMessage.INVALID),
        ("nan", MoneyMessage.INVALID),
        ("inf", MoneyMessage.INVALID),
        ("-Infinity", MoneyMessage.INVALID),
        ("1e3", MoneyMessage.INVALID),
        ("12,50", MoneyMessage.INVALID),
        ("1,23,456", MoneyMessage.INVALID),
        ("12.5.0", MoneyMessage.INVALID),
        (".", MoneyMessage.INVALID),
        ("+12", MoneyMessage.INVALID),
        ("12 50", MoneyMessage.INVALID),
        ("\uff11\uff12", MoneyMessage.INVALID),  # full-width digits
        ("$$12", MoneyMessage.INVALID),
        ("-", MoneyMessage.INVALID),
    ],
)
def test_parse_dollars_rejects_with_clear_message(text: str, message: MoneyMessage) -> None:
    with pytest.raises(ValueError, match=f"^{message.value}$"):
        parse_dollars(text)


def test_parse_dollars_refuses_non_strings() -> None:
    with pytest.raises(TypeError):
        parse_dollars(12.5)  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=10**12))
def test_format_then_parse_round_trips(cents: int) -> None:
    assert parse_dollars(format_cents(cents)) == cents
    assert parse_dollars(format_plain(cents)) == cents


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_format_cents_shape(cents: int) -> None:
    text = format_cents(cents)
    assert text.startswith("-$" if cents < 0 else "$")
    assert text[-3] == "."
    assert text[-2:].isdigit()


@pytest.mark.parametrize(
    ("cents", "bps", "expected"),
    [
        (1, 1200, 0),  # 0.12 cent
        (4, 1200, 0),  # 0.48 cent
        (5, 1200, 1),  # 0.60 cent
        (50, 100, 1),  # exactly 0.5 cent: half up
        (25, 1000, 3),  # exactly 2.5 cents: half up
        (149, 100, 1),  # 1.49 cents
        (150, 100, 2),  # exactly 1.5 cents
        (10_000, 1200, 1200),
        (0, 1200, 0),
        (-25, 1000, -3),  # halves move away from zero
    ],
)
def test_percent_of_rounds_half_up(cents: int, bps: int, expected: int) -> None:
    assert percent_of(cents, bps) == expected


@given(st.integers(min_value=-(10**9), max_value=10**9), st.integers(min_value=0, max_value=20_000))
def test_percent_of_matches_decimal_half_up(cents: int, bps: int) -> None:
    # Independent oracle: the decimal module's ROUND_HALF_UP on the exact value.
    exact = Decimal(cents) * Decimal(bps) / Decimal(10_000)
    assert percent_of(cents, bps) == int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@given(st.integers(), st.integers().filter(lambda d: d != 0))
def test_round_half_up_div_is_within_half(numerator: int, denominator: int) -> None:
    result = round_half_up_div(numerator, denominator)
    # |result - n/d| <= 1/2, i.e. |result*d - n| * 2 <= |d|
    assert abs(result * denominator - numerator) * 2 <= abs(denominator)


def test_round_half_up_div_by_zero() -> None:
    with pytest.raises(ZeroDivisionError):
        round_half_up_div(1, 0)
