"""The Discount Codes dialog's rules (domain.discount_form) and how the list describes a code
(domain.discount_listing): every field's error at once, the shop's calendar days, round trips."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.admin_messages import DiscountAdminMessage as M
from shop_app.domain.admin_messages import DiscountLabel as L
from shop_app.domain.discount_form import (
    BASIS_POINTS_MAX,
    CATEGORIES,
    CODE,
    ENDS,
    KIND,
    MAX_AMOUNT_CENTS,
    MAX_LIMIT,
    MAX_USES,
    MINIMUM,
    NOTE,
    NOTE_MAX,
    PER_CUSTOMER,
    STARTS,
    VALUE,
    DiscountFormCheck,
    StoredCode,
    check_discount_form,
    form_texts,
    parse_percent,
    percent_text,
)
from shop_app.domain.discount_listing import dates_text, gives_text, limits_text, status_of
from shop_app.domain.discounts import DiscountCode, DiscountKind

VANCOUVER = ZoneInfo("America/Vancouver")
VALID = {
    CODE: " spring-10 ",
    KIND: "percent",
    VALUE: "10",
    MINIMUM: "50",
    STARTS: "2026-12-01",
    ENDS: "2026-12-31",
    MAX_USES: "50",
    PER_CUSTOMER: "1",
    NOTE: "  Spring\nnewsletter ",
}


def _check(form: Mapping[str, object], **kwargs: Any) -> DiscountFormCheck:
    return check_discount_form(form, zone=VANCOUVER, **kwargs)


def test_a_valid_form_becomes_the_stored_values() -> None:
    check = _check(VALID, product_ids=[3, 3, 7], category_ids=[2], is_active=False)

    assert check.errors == {}
    values = check.values
    assert values is not None
    assert (values.code, values.kind, values.value, values.min_subtotal_cents) == (
        "SPRING-10",
        DiscountKind.PERCENT,
        1000,
        5000,
    )
    # Vancouver's 00:00 of Dec 1 (PST, UTC-8) and 00:00 of the day after the end day.
    assert values.starts_at == datetime(2026, 12, 1, 8, tzinfo=UTC)
    assert values.ends_at == datetime(2027, 1, 1, 8, tzinfo=UTC)
    assert (values.max_uses, values.max_uses_per_customer) == (50, 1)
    assert (values.product_ids, values.category_ids) == ((3, 7), (2,))
    assert values.note == "Spring newsletter" and values.is_active is False


def test_every_fields_error_comes_at_once() -> None:
    form = {
        CODE: "no spaces",
        KIND: "percent",
        VALUE: "150",
        MINIMUM: "-3",
        STARTS: "2026-13-01",
        ENDS: "tomorrow",
        MAX_USES: "0",
        PER_CUSTOMER: "1.5",
        NOTE: "x" * (NOTE_MAX + 1),
    }
    check = _check(form)

    assert check.values is None
    assert check.errors == {
        CODE: M.CODE_INVALID,
        VALUE: M.PERCENT_INVALID,
        MINIMUM: M.MINIMUM_INVALID.format(amount="$10,000.00"),
        STARTS: M.DATE_INVALID,
        ENDS: M.DATE_INVALID,
        MAX_USES: M.LIMIT_INVALID,
        PER_CUSTOMER: M.LIMIT_INVALID,
        NOTE: M.NOTE_TOO_LONG.format(limit=NOTE_MAX),
    }


def test_the_optional_fields_may_stay_empty_and_free_shipping_ignores_the_value() -> None:
    check = _check({CODE: "SHIPFREE", KIND: "free_shipping", VALUE: "nonsense"})

    assert check.errors == {}
    assert check.values is not None
    assert (check.values.value, check.values.min_subtotal_cents) == (0, 0)
    assert (check.values.starts_at, check.values.ends_at, check.values.max_uses) == (None, None, None)


@pytest.mark.parametrize(
    ("kind", "value", "error"),
    [
        ("", "10", {KIND: M.KIND_INVALID.value}),
        ("bogus", "10", {KIND: M.KIND_INVALID.value}),
        ("fixed", "", {VALUE: M.AMOUNT_INVALID.format(amount="$10,000.00")}),
        ("fixed", "0", {VALUE: M.AMOUNT_INVALID.format(amount="$10,000.00")}),
        ("fixed", "10000.01", {VALUE: M.AMOUNT_INVALID.format(amount="$10,000.00")}),
        ("fixed", "5.555", {VALUE: M.AMOUNT_INVALID.format(amount="$10,000.00")}),
        ("percent", "", {VALUE: M.PERCENT_INVALID.value}),
        ("percent", "0", {VALUE: M.PERCENT_INVALID.value}),
    ],
)
def test_the_kind_decides_what_the_value_means(kind: str, value: str, error: dict[str, str]) -> None:
    assert _check({CODE: "ABC", KIND: kind, VALUE: value}).errors == error


def test_a_fixed_amount_is_in_dollars() -> None:
    check = _check({CODE: "FIVE", KIND: "fixed", VALUE: "$5"})
    assert check.values is not None and check.values.value == 500


def test_the_end_day_cannot_come_before_the_start_day_but_may_be_the_same() -> None:
    before = _check({**VALID, STARTS: "2026-12-02", ENDS: "2026-12-01"})
    same = _check({**VALID, STARTS: "2026-12-01", ENDS: "2026-12-01"})

    assert before.errors == {ENDS: M.ENDS_BEFORE_STARTS.value}
    assert same.values is not None and same.values.ends_at is not None and same.values.starts_at is not None
    assert same.values.ends_at - same.values.starts_at == timedelta(days=1)


def test_the_days_follow_vancouvers_clock_changes() -> None:
    summer = _check({**VALID, STARTS: "2026-07-01", ENDS: "2026-07-01"}).values
    assert summer is not None
    assert summer.starts_at == datetime(2026, 7, 1, 7, tzinfo=UTC)  # PDT, UTC-7
    # The day the clocks go back (Nov 1, 2026) has 25 hours.
    fall = _check({**VALID, STARTS: "2026-11-01", ENDS: "2026-11-01"}).values
    assert fall is not None and fall.ends_at is not None and fall.starts_at is not None
    assert fall.ends_at - fall.starts_at == timedelta(hours=25)


def test_a_used_code_keeps_its_text_and_its_limit_stays_at_or_above_its_uses() -> None:
    used = StoredCode(code="SPRING-10", uses=12)

    renamed = _check({**VALID, CODE: "SUMMER-10"}, stored=used)
    same_any_case = _check({**VALID, CODE: "spring-10", MAX_USES: "12"}, stored=used)
    lower = _check({**VALID, MAX_USES: "11"}, stored=used)
    unused = _check({**VALID, CODE: "SUMMER-10"}, stored=StoredCode(code="SPRING-10", uses=0))

    assert renamed.errors == {CODE: M.CODE_KEPT.value}
    assert same_any_case.errors == {}
    assert lower.errors == {MAX_USES: M.LIMIT_BELOW_USES.format(n=12)}
    assert unused.errors == {}


def test_a_customer_may_not_use_a_code_more_often_than_it_can_be_used_in_all() -> None:
    assert _check({**VALID, MAX_USES: "5", PER_CUSTOMER: "6"}).errors == {
        PER_CUSTOMER: M.PER_CUSTOMER_ABOVE_TOTAL.format(n=5)
    }
    assert _check({**VALID, MAX_USES: "5", PER_CUSTOMER: "5"}).errors == {}
    assert _check({**VALID, MAX_USES: "", PER_CUSTOMER: "6"}).errors == {}  # no total limit


def test_nothing_but_text_is_read_from_the_form() -> None:
    """A raw websocket client may send anything: numbers, lists, ``None``."""
    check = _check({CODE: 123, KIND: ["percent"], VALUE: None, NOTE: {"a": 1}, CATEGORIES: "x"})
    assert check.values is None and set(check.errors) == {CODE, KIND}


def test_ids_are_whole_positive_numbers_each_once() -> None:
    check = _check(VALID, product_ids=[5, 0, -1, True, 5, 9], category_ids=[])  # type: ignore[list-item]
    assert check.values is not None and check.values.product_ids == (5, 9)


@given(st.integers(min_value=1, max_value=BASIS_POINTS_MAX))
def test_a_percentage_shown_parses_back_to_its_basis_points(points: int) -> None:
    assert parse_percent(percent_text(points)) == points
    assert parse_percent(percent_text(points) + " %") == points


@given(st.integers(min_value=BASIS_POINTS_MAX + 1, max_value=99_999))
def test_above_a_hundred_percent_is_refused(points: int) -> None:
    assert parse_percent(percent_text(points)) is None


@given(
    kind=st.sampled_from(DiscountKind),
    value=st.integers(min_value=1, max_value=BASIS_POINTS_MAX),
    minimum=st.integers(min_value=0, max_value=MAX_AMOUNT_CENTS),
    first=st.dates(min_value=date(2000, 1, 1), max_value=date(2998, 1, 1)),
    days=st.one_of(st.none(), st.integers(min_value=0, max_value=400)),
    limit=st.one_of(st.none(), st.integers(min_value=1, max_value=MAX_LIMIT)),
)
def test_a_stored_code_shown_in_the_dialog_saves_unchanged(  # noqa: PLR0917 - hypothesis' arguments
    kind: DiscountKind, value: int, minimum: int, first: date, days: int | None, limit: int | None
) -> None:
    """Opening a code and saving it without a change stores exactly what was there."""
    starts = _check({**VALID, STARTS: first.isoformat(), ENDS: ""}).values
    assert starts is not None and starts.starts_at is not None
    ends = None
    if days is not None:
        ends_check = _check({**VALID, STARTS: "", ENDS: (first + timedelta(days=days)).isoformat()}).values
        assert ends_check is not None
        ends = ends_check.ends_at
    stored_value = 0 if kind is DiscountKind.FREE_SHIPPING else value
    texts = form_texts(
        code="ROUND-TRIP",
        kind=kind,
        value=stored_value,
        min_subtotal_cents=minimum,
        starts_at=starts.starts_at,
        ends_at=ends,
        max_uses=limit,
        max_uses_per_customer=limit,
        note="A note",
        zone=VANCOUVER,
    )
    check = _check({**texts, KIND: kind.value}, stored=StoredCode("ROUND-TRIP", uses=limit or 0))

    assert check.errors == {}
    values = check.values
    assert values is not None
    assert (values.code, values.kind, values.value, values.min_subtotal_cents) == (
        "ROUND-TRIP",
        kind,
        stored_value,
        minimum,
    )
    assert (values.starts_at, values.ends_at) == (starts.starts_at, ends)
    assert (values.max_uses, values.max_uses_per_customer, values.note) == (limit, limit, "A note")


@given(st.text(max_size=40))
def test_any_typed_code_is_either_refused_or_stored_upper_case(typed: str) -> None:
    check = _check({**VALID, CODE: typed})
    if check.values is None:
        assert set(check.errors) == {CODE}
    else:
        assert check.values.code == typed.strip().upper() and 3 <= len(check.values.code) <= 32


def test_the_list_says_what_a_code_gives_and_its_limits() -> None:
    assert gives_text(DiscountKind.PERCENT, 1000) == "10% off"
    assert gives_text(DiscountKind.FIXED, 500) == "$5.00 off"
    assert gives_text(DiscountKind.FREE_SHIPPING, 0) == "Free shipping"
    values = _check(VALID).values
    assert values is not None
    assert dates_text(values.starts_at, values.ends_at, VANCOUVER) == "Dec 1, 2026 – Dec 31, 2026"
    code = DiscountCode("X", DiscountKind.FIXED, 100, starts_at=values.starts_at, max_uses=3, uses=1)
    assert limits_text(code, VANCOUVER) == "From Dec 1, 2026 · 1 / 3 uses"


def test_the_status_says_what_a_shopper_would_meet_first() -> None:
    now = datetime(2026, 12, 15, tzinfo=UTC)
    past, future = now - timedelta(days=1), now + timedelta(days=1)

    def status(**kwargs: object) -> str:
        return status_of(DiscountCode("X", DiscountKind.FIXED, 100, **kwargs), now).value  # type: ignore[arg-type]

    assert status() == L.STATUS_ACTIVE
    assert status(starts_at=future) == L.STATUS_SCHEDULED
    assert status(ends_at=past) == L.STATUS_EXPIRED
    assert status(ends_at=now) == L.STATUS_EXPIRED  # the end is the first moment it no longer works
    assert status(max_uses=2, uses=2) == L.STATUS_USED_UP
    assert status(max_uses=2, uses=2, ends_at=past) == L.STATUS_EXPIRED
    assert status(active=False, ends_at=past) == L.STATUS_OFF
