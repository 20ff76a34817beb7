"""The "Skip to content" link, the first stop of the keyboard on every page.

Raw HTML on purpose: Reflex renders ``rx.el.a`` through React Router, which turns ``#main`` into a
client-side navigation to ``/page/#main`` that neither scrolls nor moves the focus. A plain anchor
lets the browser move the focus to ``<main id="main" tabindex="-1">``.
"""

from __future__ import annotations

import reflex as rx

SKIP_LINK = '<a href="#main" class="skip-link">Skip to content</a>'


def skip_link() -> rx.Component:
    """A plain in-page anchor to the page's main content."""
    return rx.html(SKIP_LINK)
