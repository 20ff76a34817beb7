"""Query terms: words, plurals and one-typo tolerance."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.search import (
    MAX_TERMS,
    Term,
    query_terms,
    stem,
    vocabulary_of,
    within_one_edit,
    words,
)

VOCABULARY = vocabulary_of(
    ["8oz Amber Soy Candle - Vanilla Bean", "Reed Diffuser - Fresh Linen", "Body Care"]
)


def test_words_are_lower_case_and_keep_inner_apostrophes() -> None:
    assert words("  Baby's BREATH, Cedar & Sage!") == ["baby's", "breath", "cedar", "sage"]


def test_plural_s_is_dropped_from_longer_words_only() -> None:
    assert [stem(w) for w in ["candles", "diffusers", "glass", "gas", "soy"]] == [
        "candle",
        "diffuser",
        "glass",
        "gas",
        "soy",
    ]


def test_a_misspelt_word_is_also_looked_for_as_the_catalogue_word_one_edit_away() -> None:
    assert query_terms("vanila", VOCABULARY) == [Term("vanila", ("vanilla",))]
    assert query_terms("Difuser", VOCABULARY) == [Term("difuser", ("diffuser",))]
    assert query_terms("lnien", VOCABULARY) == [Term("lnien", ("linen",))]  # swapped letters


def test_known_words_short_words_and_far_words_are_not_corrected() -> None:
    assert query_terms("Vanilla Candles", VOCABULARY) == [Term("vanilla"), Term("candle")]
    assert query_terms("soi", VOCABULARY) == [Term("soi")]  # too short to guess
    assert query_terms("lavender", VOCABULARY) == [Term("lavender")]  # nothing close
    assert query_terms("bean", VOCABULARY) == [Term("bean")]


def test_a_prefix_of_a_catalogue_word_is_not_a_typo() -> None:
    assert query_terms("vanil", VOCABULARY) == [Term("vanil")]


def test_duplicates_are_dropped_and_queries_are_capped() -> None:
    assert query_terms("candle candles CANDLE", VOCABULARY) == [Term("candle")]
    assert len(query_terms(" ".join(f"word{i}" for i in range(20)))) == MAX_TERMS
    assert query_terms("  !!  ") == []


@given(st.text(alphabet="abcdefgh", min_size=1, max_size=8), st.data())
def test_one_edit_is_symmetric_and_detects_single_edits(word: str, data: st.DataObject) -> None:
    position = data.draw(st.integers(0, len(word) - 1))
    letter = data.draw(st.sampled_from("xyz"))
    edits = [
        word[:position] + word[position + 1 :],  # deletion
        word[:position] + letter + word[position:],  # insertion
        word[:position] + letter + word[position + 1 :],  # substitution
    ]
    for edited in edits:
        assert within_one_edit(word, edited)
        assert within_one_edit(edited, word)
    assert not within_one_edit(word, word + "xy")


def test_two_substitutions_are_more_than_one_edit() -> None:
    assert not within_one_edit("vanilla", "vanolle")
    assert within_one_edit("vanilla", "vanilal")  # neighbouring swap
    assert not within_one_edit("vanilla", "lanilva")
