"""A callout whose text holds links, bold words or a button.

``rx.callout(content)`` puts ``content`` inside Radix's ``CalloutText``, a ``<p>``: an ``rx.text``
(another ``<p>``) or a stack (a ``<div>``) there is invalid HTML, which the browser repairs when it
parses the prerendered page, and React then reports a hydration mismatch (error #418: seen on
/faq and /custom-orders). Here the pieces go straight into the callout's text, and a button
beside it, never a block inside the paragraph.
"""

from __future__ import annotations

import reflex as rx


def notice(*text: str | rx.Component, icon: str, action: rx.Component | None = None, **props) -> rx.Component:
    """A callout: an icon, one paragraph of ``text`` (strings and inline pieces), an optional action."""
    return rx.callout.root(
        rx.callout.icon(rx.icon(icon)),
        rx.callout.text(*text),
        *([action] if action is not None else []),
        **props,
    )
