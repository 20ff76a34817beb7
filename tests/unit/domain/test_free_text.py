"""The one sanitiser of free text (shop_app/domain/free_text.py)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.free_text import BIDI_CONTROLS, multiline, one_line

NASTY = "\x00\x07\x1b\u202e\u202d\u2066\u2069\u200e\u200f\u061c\ufeff\ud800"


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Ana  Silva ", "Ana Silva"),
        ("Ana\x00Silva", "AnaSilva"),
        ("12 Cedar St\r\nApt 4", "12 Cedar St Apt 4"),
        ("Invoice \u202egnp.exe", "Invoice gnp.exe"),
        ("\u2066Admin\u2069", "Admin"),
        ("e\u0301", "\u00e9"),  # one way of writing é
        ("Zoë 🕯️ Chen", "Zoë 🕯️ Chen"),  # emoji and their joiners stay
        ("O'Brien & <Sons>", "O'Brien & <Sons>"),  # HTML is escaped where shown, not here
        (None, ""),
        (42, "42"),
    ],
)
def test_one_line(typed: object, stored: str) -> None:
    assert one_line(typed) == stored


def test_multiline_keeps_line_breaks_and_tabs_only() -> None:
    assert multiline(" Leave it\r\nat the\rdoor.\tThanks\x00\u202e ") == "Leave it\nat the\ndoor.\tThanks"


@given(st.text(alphabet=st.characters(codec=None) | st.sampled_from(NASTY), max_size=80))
def test_nothing_invisible_or_unstorable_survives(typed: str) -> None:
    for clean in (one_line(typed), multiline(typed)):
        clean.encode("utf-8")  # storable (no lone surrogates)
        assert not set(clean) & (BIDI_CONTROLS | {"\ufeff"})
        assert all(unicodedata.category(c) != "Cc" or c in "\n\t" for c in clean)
        assert clean == clean.strip()
        assert unicodedata.is_normalized("NFC", clean)
    assert "\n" not in one_line(typed) and "  " not in one_line(typed)


@given(st.text(max_size=80))
def test_cleaning_twice_changes_nothing(typed: str) -> None:
    assert one_line(one_line(typed)) == one_line(typed)
    assert multiline(multiline(typed)) == multiline(typed)
