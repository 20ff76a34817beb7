"""A link that looks like a button: one element, one tab stop, real navigation."""

from __future__ import annotations

import reflex as rx

# React Router's route prefetching for a link (``<Link prefetch>``, framework mode): once the link
# is rendered, the page it opens gets ``<link rel="modulepreload">`` for its route module and
# every module that imports, so the first visit starts drawing at once instead of fetching its
# scripts one import level at a time (the back office's Orders: 3 levels, about 150 ms, before
# its heading). For links a visitor is about to use: the back office's sidebar, the account menu.
PREFETCH_ON_RENDER = {"prefetch": "render"}


def link_button(
    label: str | rx.Var[str],
    href: str | rx.Var[str],
    *,
    full_page_load: bool = False,
    **props,
) -> rx.Component:
    """An ``<a>`` styled as a Radix button (``as_child``); ``props`` are the button's.

    ``full_page_load`` makes the browser load the page afresh instead of switching pages inside
    the app, so that page's own response headers (its Content-Security-Policy) apply.
    """
    link_props = {key: props.pop(key) for key in ("on_click", "aria_label", "_hover") if key in props}
    # Reflex renders links with React Router; its reloadDocument makes the browser load the page.
    extra = {"custom_attrs": {"reloadDocument": True}} if full_page_load else {}
    link = rx.link(label, href=href, underline="none", **link_props, **extra)
    return rx.button(link, as_child=True, **props)
