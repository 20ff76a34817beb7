"""The back office product lists' paging and search rules (shop_app.domain.admin_listing)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.admin_listing import (
    SEARCH_MAX,
    clamp_page,
    matches_search,
    page_count,
    page_text,
    search_needle,
    searches_ids,
)


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=500))
def test_the_pages_hold_every_row_and_no_empty_page_but_one(total: int, size: int) -> None:
    pages = page_count(total, size)
    assert pages >= 1
    assert (pages - 1) * size < max(total, 1) <= pages * size


@given(st.integers(min_value=-(10**6), max_value=10**6), st.integers(min_value=1, max_value=10**4))
def test_the_page_shown_is_always_one_of_the_pages(page: int, pages: int) -> None:
    shown = clamp_page(page, pages)
    assert 1 <= shown <= pages
    assert shown == page or not 1 <= page <= pages


@given(st.text(max_size=400))
def test_the_needle_is_squashed_folded_and_short(text: str) -> None:
    needle = search_needle(text)
    assert needle == " ".join(needle.split())
    assert len(needle) <= len(" ".join(text.split())[:SEARCH_MAX].casefold())
    assert search_needle(needle) == needle or len(needle) > SEARCH_MAX


@given(st.text(st.characters(codec=None), max_size=40))
def test_the_needle_holds_no_control_character_nor_lone_surrogate(text: str) -> None:
    """What a websocket may send: PostgreSQL refuses a NUL in a query's text."""
    needle = search_needle(text)
    assert not any(unicodedata.category(ch) in {"Cc", "Cs"} for ch in needle)
    needle.encode("utf-8")  # every database takes it


def test_examples() -> None:
    assert search_needle("  Lavender \t FIELDS ") == "lavender fields"
    assert search_needle("lav\x00ender \ud800") == "lavender"
    assert page_count(0, 20) == 1 and page_count(20, 20) == 1 and page_count(21, 20) == 2
    assert page_text(2, 5, 93, "product") == "Page 2 of 5 · 93 products"
    assert page_text(1, 1, 1, "group") == "Page 1 of 1 · 1 group"
    assert searches_ids("12") and not searches_ids("1a") and not searches_ids("²") and not searches_ids("")


@given(
    st.text(max_size=30), st.integers(min_value=1, max_value=10**6), st.text(max_size=20), st.text(max_size=5)
)
def test_a_search_matches_a_part_of_the_name_the_id_or_the_category(
    name: str, product_id: int, category: str, typed: str
) -> None:
    needle = search_needle(typed)
    found = matches_search(needle, name=name, product_id=product_id, category_name=category)
    assert found == (needle in name.casefold() or needle in str(product_id) or needle in category.casefold())
    if needle and not searches_ids(needle):
        assert needle not in str(product_id)
