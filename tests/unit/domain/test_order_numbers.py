"""Order numbers: prefix, the shop's calendar date, 6 unambiguous random characters."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.order_numbers import (
    ALPHABET,
    RANDOM_LENGTH,
    is_order_number,
    new_order_number,
    normalize_order_number,
)

NOON_UTC = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def test_format_is_prefix_date_and_six_characters() -> None:
    number = new_order_number(NOON_UTC, random.Random(1))

    prefix, day, suffix = number.split("-")
    assert (prefix, day) == ("CE", "20261121")
    assert len(suffix) == RANDOM_LENGTH
    assert set(suffix) <= set(ALPHABET)
    assert is_order_number(number)


def test_alphabet_has_no_look_alikes_and_32_symbols() -> None:
    assert not set("0O1I") & set(ALPHABET)
    assert len(ALPHABET) == len(set(ALPHABET)) == 32
    assert ALPHABET.upper() == ALPHABET


@pytest.mark.parametrize(
    ("moment", "day"),
    [
        (datetime(2026, 11, 22, 7, 59, tzinfo=UTC), "20261121"),  # 23:59 in Vancouver (PST)
        (datetime(2026, 11, 22, 8, 0, tzinfo=UTC), "20261122"),  # midnight in Vancouver
        (datetime(2026, 7, 1, 6, 59, tzinfo=UTC), "20260630"),  # PDT is UTC-7
        (datetime(2026, 11, 21, 12, 0), "20261121"),  # naive: read as UTC
        (datetime(2026, 11, 21, 23, 0, tzinfo=timezone(timedelta(hours=-8))), "20261121"),
    ],
)
def test_the_date_is_the_shops_calendar_date(moment: datetime, day: str) -> None:
    assert new_order_number(moment, random.Random(0)).split("-")[1] == day


def test_same_seed_same_number_and_the_default_source_is_random() -> None:
    assert new_order_number(NOON_UTC, random.Random(5)) == new_order_number(NOON_UTC, random.Random(5))
    drawn = {new_order_number(NOON_UTC) for _ in range(200)}
    assert len(drawn) == 200


def test_every_symbol_can_appear() -> None:
    seen = set()
    source = random.Random(3)
    for _ in range(300):
        seen |= set(new_order_number(NOON_UTC, source).split("-")[2])
    assert seen == set(ALPHABET)


def test_prefix_must_be_capital_letters() -> None:
    assert new_order_number(NOON_UTC, random.Random(0), prefix="SHOP").startswith("SHOP-20261121-")
    for bad in ("", "c", "C3", "TOOLONG"):
        with pytest.raises(ValueError, match="prefix"):
            new_order_number(NOON_UTC, prefix=bad)


def test_normalize_and_shape_check() -> None:
    assert normalize_order_number(" ce-20261121-7k3qx9\n") == "CE-20261121-7K3QX9"
    assert is_order_number("CE-20261121-7K3QX9")
    for bad in ("ce-20261121-7K3QX9", "CE-2026112-7K3QX9", "CE-20261121-7K3QXO", "CE-20261121-7K3QX9 ", ""):
        assert not is_order_number(bad)


@given(
    st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)),
    st.integers(min_value=0, max_value=2**32),
)
def test_numbers_always_have_the_shape(moment: datetime, seed: int) -> None:
    assert is_order_number(new_order_number(moment, random.Random(seed)))


@given(
    seed=st.integers(0, 2**32), separator=st.sampled_from(["", " ", "-", " - ", "  "]), lower=st.booleans()
)
def test_a_number_typed_without_its_dashes_is_found(seed: int, separator: str, lower: bool) -> None:
    """A stranger typed "CE20261125ZAQFF2" into the order lookup and was told it did not exist."""
    number = new_order_number(NOON_UTC, random.Random(seed))
    typed = separator.join(number.split("-"))
    assert normalize_order_number(typed.lower() if lower else typed) == number
