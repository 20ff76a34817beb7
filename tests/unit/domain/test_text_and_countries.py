"""Derived texts (previews, overflow, dates) and the country list."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.countries import (
    COUNTRIES,
    DEFAULT_COUNTRY,
    DEFAULT_SHIPPING_COUNTRIES,
    canonical_country,
    is_known_country,
    ships_to,
)
from shop_app.domain.text import (
    counted,
    description_preview,
    is_recent_signup,
    last_seen_text,
    long_us_date,
    more_label,
    scent_overflow,
    short_us_date,
)


@pytest.mark.parametrize(
    ("n", "text"), [(0, "0 problems"), (1, "1 problem"), (2, "2 problems"), (208, "208 problems")]
)
def test_a_count_takes_the_noun_in_its_number(n: int, text: str) -> None:
    assert counted(n, "problem") == text


def test_short_description_is_kept_whole() -> None:
    assert description_preview("Hand-poured soy candle.") == "Hand-poured soy candle."
    exactly_80 = "x" * 80
    assert description_preview(exactly_80) == exactly_80


def test_long_description_is_cut_to_80_with_an_ellipsis() -> None:
    text = "word " * 40
    preview = description_preview(text)
    assert len(preview) <= 80
    assert preview.endswith("…")
    assert preview == ("word " * 16).strip() + "…"  # 79 characters, trailing space dropped


def test_description_whitespace_is_collapsed() -> None:
    assert description_preview("  a \n\n b\t c ") == "a b c"


@given(st.text(), st.integers(min_value=1, max_value=200))
def test_preview_never_exceeds_the_limit(text: str, limit: int) -> None:
    preview = description_preview(text, limit)
    assert len(preview) <= limit
    flat = " ".join(text.split())
    if len(flat) <= limit:
        assert preview == flat
    else:
        assert preview.endswith("…")
        assert flat.startswith(preview[:-1])


def test_preview_limit_must_be_positive() -> None:
    with pytest.raises(ValueError):
        description_preview("abc", 0)


def test_scent_overflow() -> None:
    scents = [f"Scent {i}" for i in range(11)]
    shown, hidden = scent_overflow(scents)
    assert shown == scents[:8]
    assert hidden == 3
    assert more_label(hidden) == "+3 more"
    assert scent_overflow(scents[:8]) == (scents[:8], 0)
    assert more_label(0) == ""
    assert scent_overflow([]) == ([], 0)


NOW = datetime(2026, 11, 21, 15, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("ago", "text"),
    [
        (timedelta(seconds=0), "Just now"),
        (timedelta(minutes=59, seconds=59), "Just now"),
        (timedelta(hours=1), "1h ago"),
        (timedelta(hours=23, minutes=59), "23h ago"),
        (timedelta(hours=24), "1d ago"),
        (timedelta(hours=47), "1d ago"),
        (timedelta(hours=167, minutes=59), "6d ago"),
        (timedelta(hours=168), "Nov 14, 2026"),
        (timedelta(days=400), "Oct 17, 2025"),
        (timedelta(hours=-5), "Just now"),  # clock skew: a time in the future
    ],
)
def test_last_seen_text(ago: timedelta, text: str) -> None:
    assert last_seen_text(NOW - ago, NOW) == text


def test_last_seen_never_and_time_zones() -> None:
    assert last_seen_text(None, NOW) == "Never"
    # 2026-11-03 02:00 UTC is still Nov 2 in Vancouver (UTC-8).
    vancouver_now = NOW.astimezone(timezone(timedelta(hours=-8)))
    assert last_seen_text(datetime(2026, 11, 3, 2, 0, tzinfo=UTC), vancouver_now) == "Nov 2, 2026"
    assert last_seen_text(datetime(2026, 11, 3, 2, 0), datetime(2026, 11, 21)) == "Nov 3, 2026"


def test_dates() -> None:
    assert long_us_date(date(2026, 11, 21)) == "November 21, 2026"
    assert long_us_date(datetime(2026, 1, 3, 23, 59)) == "January 3, 2026"
    assert short_us_date(date(2026, 5, 9)) == "May 9, 2026"


def test_recent_signup_within_7_days() -> None:
    assert is_recent_signup(NOW - timedelta(days=7), NOW)
    assert not is_recent_signup(NOW - timedelta(days=7, seconds=1), NOW)


def test_country_list() -> None:
    assert COUNTRIES[:4] == ("United States", "Canada", "United Kingdom", "Australia")
    rest = list(COUNTRIES[4:])
    assert rest == sorted(rest)
    assert 55 <= len(COUNTRIES) <= 65
    assert len(set(COUNTRIES)) == len(COUNTRIES)
    assert DEFAULT_COUNTRY == "United States"
    assert set(DEFAULT_SHIPPING_COUNTRIES) == {"Canada", "United States"}
    assert set(DEFAULT_SHIPPING_COUNTRIES) <= set(COUNTRIES)


def test_country_lookup() -> None:
    assert canonical_country("  new   zealand ") == "New Zealand"
    assert canonical_country("Atlantis") is None
    assert is_known_country("CANADA")
    assert not is_known_country("")
    assert ships_to("canada") and ships_to("United States")
    assert not ships_to("France")
    assert ships_to("france", ("France",)) and not ships_to("Canada", ("France",))
