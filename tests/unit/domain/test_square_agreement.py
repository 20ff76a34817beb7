"""Which side of a product changed since the shop and Square last agreed (domain.square_agreement)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.square_agreement import Agreement, decide, fingerprint, kept_names

values = st.tuples(st.text(max_size=30), st.text(max_size=30), st.none() | st.integers(0, 10**8))


@given(values, values, st.none() | values)
def test_square_wins_only_when_the_shop_still_has_what_square_had(shop, square, known) -> None:
    shop_fp, square_fp = fingerprint(*shop), fingerprint(*square)
    known_fp = fingerprint(*known) if known is not None else None

    agreement = decide(shop=shop_fp, square=square_fp, known=known_fp)

    assert (agreement is Agreement.EQUAL) == (shop_fp == square_fp)
    if agreement is Agreement.TAKE_SQUARES:
        assert known_fp == shop_fp  # an owner's edit (shop != known) is never overwritten


def test_an_edit_on_both_sides_or_an_unknown_past_keeps_the_shops() -> None:
    pushed = fingerprint("Pillar - Cedar", "Cedar.", 2400)
    edited_here = fingerprint("Pillar - Cedar", "Cedar.", 3200)
    edited_there = fingerprint("Pillar - Cedar", "Cedar.", 2800)

    assert decide(shop=edited_here, square=edited_there, known=pushed) is Agreement.KEEP_SHOPS
    assert decide(shop=edited_here, square=pushed, known=None) is Agreement.KEEP_SHOPS
    assert decide(shop=pushed, square=edited_there, known=pushed) is Agreement.TAKE_SQUARES


def test_a_fingerprint_ignores_surrounding_spaces_of_the_name_only() -> None:
    assert fingerprint(" Pillar ", "d", 1) == fingerprint("Pillar", "d", 1)
    assert fingerprint("Pillar", "d ", 1) != fingerprint("Pillar", "d", 1)
    assert len(fingerprint("Pillar", "d", None)) == 64


def test_kept_names_shows_five_then_counts_the_rest() -> None:
    assert kept_names(("A",)) == "A"
    assert kept_names(tuple("ABCDEFG")) == "A, B, C, D, E and 2 more"
