"""Paging and search rules of the back office's product lists: Manage Products (individual and
grouped views) and the dashboard's Product Management tab (docs/spec/admin-products.md#manage,
#grouped; docs/spec/admin.md#dashboard-products).

The lists are searched, filtered, sorted and paged by the database
(``services.admin.product_listing``); these are the rules it follows, written once: what a search
text means, how many pages there are, which page is shown, and what the page line says.
"""

from __future__ import annotations

import unicodedata
from typing import Final

PAGE_SIZE: Final = 20
"""Rows of a product list page (the individual view and the dashboard, like the orders list)."""

GROUP_PAGE_SIZE: Final = 20
"""Vessel groups of a grouped view page."""

VARIANTS_SHOWN: Final = 20
"""Variants an opened group shows at first, and how many more each "Show more" adds."""

VARIANTS_HELD: Final = 100
"""Variants an opened group shows at most (the individual view lists every one). With one group open
at a time, an admin's tab holds at most a page of groups and this many variants (issue 17,
acceptance 8: the state holds one page; a 1,466-variant group shown whole took 121 KB)."""

SEARCH_MAX: Final = 200
"""Characters of a search text kept (the rest is ignored)."""


# What a search never looks for: control characters (PostgreSQL refuses a NUL in a query's text)
# and lone surrogates (no database can store them); no name holds either.
_UNSEARCHABLE: Final = frozenset({"Cc", "Cs"})


def search_needle(text: str) -> str:
    """What a search box's text searches for: trimmed, inner whitespace squashed to one space,
    control characters and lone surrogates left out, at most :data:`SEARCH_MAX` characters,
    case-folded ("" matches everything).

    Examples:
        >>> search_needle("  Lavender   FIELDS ")
        'lavender fields'
        >>> search_needle("lav\\x00ender")
        'lavender'
    """
    kept = "".join(ch for ch in " ".join(str(text).split()) if unicodedata.category(ch) not in _UNSEARCHABLE)
    return " ".join(kept.split())[:SEARCH_MAX].casefold()


def matches_search(needle: str, *, name: str, product_id: int, category_name: str) -> bool:
    """The individual view's and the dashboard's search: a part of the name, of the id, or of the
    (main) category's name, ignoring case (``needle`` from :func:`search_needle`)."""
    return (
        not needle
        or needle in name.casefold()
        or needle in str(product_id)
        or needle in category_name.casefold()
    )


def searches_ids(needle: str) -> bool:
    """Whether the needle can be part of an id (only ASCII digits can)."""
    return needle.isascii() and needle.isdigit()


def page_count(total: int, page_size: int) -> int:
    """How many pages ``total`` rows fill: at least 1 (an empty list is one empty page)."""
    return max(1, -(-max(0, total) // max(1, page_size)))


def clamp_page(page: int, pages: int) -> int:
    """The 1-based page actually shown: ``page`` within 1..``pages``."""
    return min(max(1, page), max(1, pages))


def page_text(page: int, pages: int, total: int, noun: str) -> str:
    """The pager's line, as the orders list writes it: "Page 2 of 5 · 93 products"."""
    return f"Page {page} of {pages} · {total} {noun if total == 1 else noun + 's'}"
