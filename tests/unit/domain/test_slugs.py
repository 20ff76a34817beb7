"""Category slugs and legacy storefront codes (docs/spec/admin-categories.md#records;
docs/spec/storefront.md#home)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.slugs import (
    LEGACY_CATEGORY_ALIASES,
    LEGACY_CODES_BY_SLUG,
    category_slug,
    resolve_category_slug,
)


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Candles", "candles"),
        ("Hand & Body Lotion", "hand-body-lotion"),
        ("Signature Candle Collection", "signature-candle-collection"),
        ("  Fall   Candle Collection  ", "fall-candle-collection"),
        ("Spring-Summer", "spring-summer"),
        ("Spring - Summer", "spring-summer"),
        ("Mom's Gifts!", "moms-gifts"),
        ("50% Off: Sale!!", "50-off-sale"),
        ("-Sale-", "sale"),
        ("--a---b--", "a-b"),
        ("Crème Brûlée", "creme-brulee"),
        ("Tab\tand\nnewline", "tab-and-newline"),
        ("UPPER lower 123", "upper-lower-123"),
        ("!!!", ""),
        ("", ""),
        ("香り", ""),
    ],
)
def test_category_slug(name: str, slug: str) -> None:
    assert category_slug(name) == slug


def test_seeded_categories_slugs() -> None:
    names = [
        "Signature Candle Collection",
        "Hand & Body Lotion",
        "Room Fragrance",
        "Fall Candle Collection",
        "Summer Collection",
    ]
    assert [category_slug(n) for n in names] == [
        "signature-candle-collection",
        "hand-body-lotion",
        "room-fragrance",
        "fall-candle-collection",
        "summer-collection",
    ]


@given(st.text())
def test_slug_is_idempotent_and_uses_only_slug_characters(name: str) -> None:
    slug = category_slug(name)
    assert category_slug(slug) == slug
    assert re.fullmatch(r"(?:[a-z0-9]+(?:-[a-z0-9]+)*)?", slug)


@pytest.mark.parametrize(
    ("code", "slug"),
    [
        ("bodycare", "body-care"),
        ("homefragrance", "home-fragrance"),
        ("core", "signature-candle-collection"),
        ("fall", "fall-candle-collection"),
        ("spring-summer", "summer-collection"),
        ("holiday", "holiday-collection"),
        ("candles", "candles"),
        ("mandles", "mandles"),
        ("custom", "custom"),
        (" BodyCare ", "body-care"),
        ("Body Care", "body-care"),
        ("summer-collection", "summer-collection"),
        ("", ""),
    ],
)
def test_resolve_category_slug(code: str, slug: str) -> None:
    assert resolve_category_slug(code) == slug


def test_legacy_maps_are_read_only_and_inverse() -> None:
    assert LEGACY_CODES_BY_SLUG["body-care"] == "bodycare"
    assert len(LEGACY_CODES_BY_SLUG) == len(LEGACY_CATEGORY_ALIASES) == 6
    with pytest.raises(TypeError):
        LEGACY_CATEGORY_ALIASES["x"] = "y"  # type: ignore[index]
