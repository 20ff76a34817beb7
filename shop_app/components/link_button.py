"""A link that looks like a button: one element, one tab stop, real navigation."""

from __future__ import annotations

import reflex as rx


def link_button(label: str | rx.Var[str], href: str | rx.Var[str], **props) -> rx.Component:
    """An ``<a>`` styled as a Radix button (``as_child``); ``props`` are the button's."""
    link_props = {key: props.pop(key) for key in ("on_click", "aria_label") if key in props}
    return rx.button(rx.link(label, href=href, underline="none", **link_props), as_child=True, **props)
