"""A region of a page that arrives in the first HTML response, kept until the page's state arrives.

The shop and home pages are prerendered with their state's defaults (no cards); the cards come
over the websocket once the scripts have loaded and the socket is open. So that a shopper (and a
search engine) sees the cards at once, the server fills this region of the prerendered page with
the same cards (``api/first_view.py``: ``<div id="first-view-…" class="first-view">…</div>``).

React must not throw that HTML away while it hydrates, nor see a mismatch: the region is a
``<div>`` whose ``dangerouslySetInnerHTML`` is read, while rendering, from the element the server
sent (React leaves such content as it is). When the page's state has arrived the page shows its
own cards instead, with the same markup, so nothing moves. A tab that reaches the page by a link
inside the app has no such element: it shows ``fallback`` (the skeleton) as before.
"""

from __future__ import annotations

import reflex as rx

from shop_app.services.catalog.card_views import FIRST_VIEW_ID_PREFIX as SLOT_PREFIX


def _element(slot: str) -> str:
    return f"document.getElementById({SLOT_PREFIX + slot!r})"


def region_sent(slot: str, *, prerendered: bool = True) -> rx.Var[bool]:
    """Whether the page holds the server's region ``slot``; while prerendering: ``prerendered``."""
    if prerendered:
        return rx.Var(f'(typeof document === "undefined" || {_element(slot)} !== null)', _var_type=bool)
    return rx.Var(f'(typeof document !== "undefined" && {_element(slot)} !== null)', _var_type=bool)


def first_view(
    slot: str, fallback: rx.Component, *, inline: bool = False, prerendered: bool = True
) -> rx.Component:
    """The server's region ``slot`` (its HTML unchanged), or ``fallback`` when the page has none.

    While prerendering there is no ``document``: the build writes the empty region the server
    fills, or with ``prerendered=False`` the ``fallback``, which the server may swap for the region
    when it knows better (the checkout's loading shapes, for an empty cart's view:
    ``api/checkout_page.py``). ``inline``: a ``<span>`` inside a line of text (the header's shop
    name) rather than a page's ``<div>`` region; only the latter marks a page whose first view is
    in its HTML (``frontend_build.start_app_after_first_paint``).
    """
    element = _element(slot)
    sent = region_sent(slot, prerendered=prerendered)
    html = rx.Var(f'({{"__html": typeof document === "undefined" ? "" : ({element}?.innerHTML ?? "")}})')
    tag, class_name = (rx.el.span, "first-view-inline") if inline else (rx.el.div, "first-view")
    region = tag(id=SLOT_PREFIX + slot, class_name=class_name, custom_attrs={"dangerouslySetInnerHTML": html})
    return rx.cond(sent, region, fallback)
