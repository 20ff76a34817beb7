"""The cards of the shop and home pages in their first HTML response (issue 18, acceptance 1).

Reflex prerenders a page with its state's defaults, so ``/shop`` and ``/`` used to arrive without
a card: names, prices and images came only once the scripts had loaded, the websocket had opened
and the page's state had come back (a largest paint near 3 s on a phone). This module renders the
first cards the page's state will show (the same records: ``services.catalog.card_views``) as
the HTML of ``components/product_card.py`` and puts them in the page's first-view region
(``components/first_view.py``), which React keeps as it is while it hydrates and replaces with its
own identical cards when the state arrives.

The markup here mirrors the card component element for element (Radix's classes and the
``product-card`` classes of ``assets/shop.css``; the component has no generated styles for this
reason). ``tests/e2e/test_first_view.py`` compares the two in Chromium, so a change to one
without the other fails there. Everything from the catalogue is escaped.

One difference on purpose: the server's cards are plain HTML, nothing answers their buttons until
React's cards replace them, so the controls that need the page's state (Add, the heart, the scent
list) are sent ``disabled`` — a tap on them is never silently lost. Links (the picture, the name,
Customize) work at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape

from shop_app.services.catalog.card_views import EAGER_CARDS, CardView, VariationView
from shop_app.services.catalog.card_views import FIRST_VIEW_ID_PREFIX as SLOT_PREFIX
from shop_app.services.media import PRODUCT_CARD_SIZES

_HEART_PATH = (
    "M2 9.5a5.5 5.5 0 0 1 9.591-3.676.56.56 0 0 0 .818 0A5.49 5.49 0 0 1 22 9.5c0 2.29-1.5 4-3 "
    "5.5l-5.492 5.313a2 2 0 0 1-3 .019L5 15c-1.5-1.5-3-3.2-3-5.5"
)  # Lucide's "heart", as lucide-react draws it at size 18
_HEART_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="18" height="18" viewBox="0 0 24 24" fill="none" '
    'stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" '
    f'class="lucide lucide-heart" aria-hidden="true"><path d="{_HEART_PATH}"></path></svg>'
)
_GRID_CLASSES = "rt-Grid rt-r-gtc-1 xs:rt-r-gtc-2 md:rt-r-gtc-3 lg:rt-r-gtc-4 rt-r-gap-4 product-grid"
_BUTTON = "rt-reset rt-BaseButton rt-r-size-2"
_BADGE_CLASSES = "rt-reset rt-Badge rt-r-size-1 rt-variant-solid product-card__badge"


def _attrs(**attrs: str | None) -> str:
    """`` name="value"`` pairs, escaped; ``None`` leaves an attribute out, ``_`` in a name is ``-``."""
    return "".join(
        f' {name.rstrip("_").replace("_", "-")}="{escape(value)}"'
        for name, value in attrs.items()
        if value is not None
    )


def _link(href: str, inner: str, *, underline: str, class_name: str = "", **attrs: str | None) -> str:
    classes = f"rt-Text rt-reset rt-Link rt-underline-{underline}" + (f" {class_name}" if class_name else "")
    link = _attrs(data_accent_color="", class_=classes, href=href, data_discover="true")
    return f"<a{_attrs(**attrs)}{link}>{inner}</a>"


def _image(current: VariationView, *, eager: bool) -> str:
    # As React renders it: srcset and sizes always (srcset "" for a picture without renditions).
    attrs = _attrs(
        alt=current.label,
        class_="product-card__image",
        decoding="async",
        height="800",
        loading="eager" if eager else "lazy",
        sizes=PRODUCT_CARD_SIZES,
        width="800",
        srcset=current.image_srcset,
        src=current.image_url,
    )
    return f"<img{attrs}>"


def _heart(current: VariationView) -> str:
    attrs = _attrs(
        aria_label=f"Add {current.label} to favorites",
        aria_pressed="false",
        class_=f"{_BUTTON} rt-variant-soft rt-IconButton product-card__heart",
        data_accent_color="gray",
        data_radius="full",
        type="button",
        disabled="",  # until the page's state arrives (see the module's docstring)
    )
    return f"<button{attrs}>{_HEART_SVG}</button>"


def _scents(card: CardView) -> str:
    if len(card.scents) <= 1:
        return ""
    options = "".join(
        f"<option{_attrs(value=o.value, selected='' if o.value == card.selected_scent else None)}>"
        f"{escape(o.text)}</option>"
        for o in card.scent_options
    )
    select = _attrs(
        aria_label=f"Scent of {card.title}", class_="native-select native-select--small", disabled=""
    )
    return f"<select{select}>{options}</select>"


def _price_row(current: VariationView) -> str:
    was = ""
    if current.compare_at_price:
        was = (
            f'<span data-accent-color="gray"{_attrs(aria_label="was " + current.compare_at_price)} '
            f'class="rt-Text rt-r-size-2 product-card__was">{escape(current.compare_at_price)}</span>'
        )
    stock_color = "gray" if current.in_stock else "red"
    return (
        '<div class="rt-Flex rt-r-fd-row rt-r-ai-baseline rt-r-gap-3 rx-Stack product-card__price-row">'
        f'<p class="rt-Text rt-r-size-3 rt-r-weight-bold">{escape(current.price)}</p>{was}'
        f'<p data-accent-color="{stock_color}" class="rt-Text rt-r-size-1 product-card__stock">'
        f"{escape(current.stock_text)}</p></div>"
    )


def _action(card: CardView) -> str:
    current = card.current
    if not current.in_stock:
        return (
            f'<button data-disabled="true" data-accent-color="" class="{_BUTTON} rt-variant-soft rt-Button '
            'product-card__action" disabled="">Out of Stock</button>'
        )
    if card.has_variants:
        classes = f"{_BUTTON} rt-variant-outline rt-Button product-card__action"  # a link drawn as a button
        return _link(
            current.url,
            "Customize",
            underline="none",
            class_name=classes,
            aria_label=f"Customize {card.title}",
        )
    label = escape(f"Add {current.label} to cart")
    return (
        f'<button data-accent-color="" aria-label="{label}" class="{_BUTTON} rt-variant-solid rt-Button '
        'product-card__action" disabled="" data-disabled="true">Add</button>'
    )


def card_html(card: CardView, *, eager: bool) -> str:
    """One card, as ``components/product_card.product_card`` draws it for a guest."""
    current = card.current
    badge = (
        f'<span data-accent-color="" class="{_BADGE_CLASSES}">{escape(current.badge)}</span>'
        if current.badge
        else ""
    )
    image_link = _link(
        current.url, _image(current, eager=eager), underline="auto", tabindex="-1", aria_hidden="true"
    )
    title = _link(
        current.url,
        f'<h3 class="rt-Heading rt-r-size-3">{escape(card.title)}</h3>',
        underline="hover",
        class_name="product-card__title",
    )
    return (
        '<div class="rt-reset rt-BaseCard rt-Card rt-r-size-1 rt-variant-surface">'
        '<div class="rt-Flex rt-r-fd-column rt-r-ai-start rt-r-gap-2 rx-Stack product-card__body">'
        f'<div class="rt-Box product-card__media">{image_link}{badge}{_heart(current)}</div>'
        f'{title}<p data-accent-color="gray" class="rt-Text rt-r-size-2">{escape(current.description)}</p>'
        f"{_scents(card)}{_price_row(current)}{_action(card)}</div></div>"
    )


def grid_html(cards: Iterable[CardView]) -> str:
    """The grid of ``components/product_card.product_grid`` with ``cards``."""
    inner = "".join(card_html(card, eager=index < EAGER_CARDS) for index, card in enumerate(cards))
    return f'<div class="{_GRID_CLASSES}">{inner}</div>'


def fill(page_html: str, slot: str, content: str) -> str:
    """``page_html`` with its empty first-view region ``slot`` holding ``content``.

    The page is returned unchanged when it has no such region (a build without it): the page
    then shows its skeleton until its state arrives, as before.
    """
    empty = re.compile(rf'(<div[^<>]*\bid="{re.escape(SLOT_PREFIX + slot)}"[^<>]*>)(</div>)')
    return empty.sub(lambda match: match[1] + content + match[2], page_html, count=1)
