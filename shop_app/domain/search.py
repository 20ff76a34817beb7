"""Search terms: how a shopper's query becomes the words we look for (docs/spec/storefront.md#search).

The seed matches the query case-insensitively on name, description, category and subcategory.
We match each word of the query (all must match, in any of those fields), ignore a plural "s",
and tolerate one typo per word: a word the catalogue does not contain is also looked for as the
catalogue words one edit away ("vanila" finds "vanilla").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

MIN_FUZZY_LENGTH: Final = 4  # shorter words are too ambiguous to correct
MAX_TERMS: Final = 8  # a query is cut to its first 8 words
MAX_CORRECTIONS: Final = 5  # alternatives kept per misspelt word

_WORD_RE: Final = re.compile(r"[^\W_]+(?:['’&][^\W_]+)*", re.UNICODE)


def compact(text: str) -> str:
    """The letters and digits of ``text`` only ("body care" and "body-care" → "bodycare").

    Examples:
        >>> compact("Body & Care"), compact("home-fragrance")
        ('bodycare', 'homefragrance')
    """
    return "".join(char for char in text.casefold() if char.isalnum())


def words(text: str) -> list[str]:
    """The lower-case words of ``text`` (letters and digits; inner apostrophes kept)."""
    return [match.group(0).casefold() for match in _WORD_RE.finditer(text)]


def stem(word: str) -> str:
    """Drop a plural ``s`` from words of four letters or more ("candles" → "candle").

    Words ending in "ss" ("glass") keep it. A substring match on the stem still finds the plural.
    """
    if len(word) >= MIN_FUZZY_LENGTH and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def within_one_edit(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by at most one insertion, deletion, substitution or swap of
    two neighbouring letters (Damerau–Levenshtein distance ≤ 1)."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    shorter, longer = (a, b) if la < lb else (b, a)
    i = 0
    while i < len(shorter) and shorter[i] == longer[i]:
        i += 1
    return shorter[i:] == longer[i + 1 :]


@dataclass(frozen=True, slots=True)
class Term:
    """One word of a query and the spellings that count as a match for it."""

    word: str
    alternatives: tuple[str, ...] = ()

    @property
    def spellings(self) -> tuple[str, ...]:
        """The word itself first, then its corrections."""
        return (self.word, *self.alternatives)


def query_terms(query: str, vocabulary: Iterable[str] = ()) -> list[Term]:
    """Turn a query into terms; words absent from ``vocabulary`` get their near spellings.

    Args:
        query: What the shopper typed.
        vocabulary: The lower-case words the catalogue contains (stemmed or not).

    Returns:
        At most :data:`MAX_TERMS` terms, duplicates removed, in query order.
    """
    known = {stem(word) for word in vocabulary}
    terms: list[Term] = []
    seen: set[str] = set()
    for word in words(query):
        base = stem(word)
        if base in seen:
            continue
        seen.add(base)
        terms.append(Term(base, _corrections(base, known)))
        if len(terms) == MAX_TERMS:
            break
    return terms


def _corrections(word: str, known: set[str]) -> tuple[str, ...]:
    if len(word) < MIN_FUZZY_LENGTH or word in known or any(word in k for k in known):
        return ()
    close = sorted(k for k in known if k[0] == word[0] and within_one_edit(word, k))
    return tuple(close[:MAX_CORRECTIONS])


def vocabulary_of(texts: Sequence[str]) -> frozenset[str]:
    """The stemmed words of several texts (product names, category names)."""
    return frozenset(stem(word) for text in texts for word in words(text) if len(word) >= MIN_FUZZY_LENGTH)
