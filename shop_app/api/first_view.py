"""The first view of the shop, home and product pages in their first HTML response (issue 18,
acceptance 1).

Reflex prerenders a page with its state's defaults, so ``/shop`` and ``/`` used to arrive without
a card: names, prices and images came only once the scripts had loaded, the websocket had opened
and the page's state had come back (a largest paint near 3 s on a phone). This module renders the
first cards the page's state will show (the same records: ``services.catalog.card_views``) as
the HTML of ``components/product_card.py`` and puts them in the page's first-view region
(``components/first_view.py``), which React keeps as it is while it hydrates and replaces with its
own identical cards when the state arrives.

A product page's address is answered with the product page prerendered for no product, its
first-view region holding the breadcrumb, the gallery and the summary (:func:`product_html`,
from the same record as the page's state: ``services.catalog.product_view``), in the same way.

The markup here mirrors the card component (and the product page's) element for element
(Radix's classes and the ``product-card`` / ``product-page`` classes of ``assets/shop.css``; the
components have no generated styles for this reason). ``tests/e2e/test_first_view.py`` compares
the two in Chromium, so a change to one without the other fails there. Everything from the
catalogue is escaped.

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
from shop_app.services.catalog.product_view import GalleryImage, ProductView, add_label
from shop_app.services.media import PRODUCT_CARD_SIZES, PRODUCT_PAGE_SIZES

_HEART_PATH = (
    "M2 9.5a5.5 5.5 0 0 1 9.591-3.676.56.56 0 0 0 .818 0A5.49 5.49 0 0 1 22 9.5c0 2.29-1.5 4-3 "
    "5.5l-5.492 5.313a2 2 0 0 1-3 .019L5 15c-1.5-1.5-3-3.2-3-5.5"
)  # Lucide's "heart", as lucide-react draws it at size 18
_HEART_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="18" height="18" viewBox="0 0 24 24" fill="none" '
    'stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" '
    f'class="lucide lucide-heart" aria-hidden="true"><path d="{_HEART_PATH}"></path></svg>'
)
_MINUS_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" fill="none" '
    'stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" '
    'class="lucide lucide-minus" aria-hidden="true"><path d="M5 12h14"></path></svg>'
)  # Lucide's "minus" at size 16
_PLUS_SVG = _MINUS_SVG.replace("lucide-minus", "lucide-plus").replace(
    "</path></svg>", '</path><path d="M12 5v14"></path></svg>'
)  # Lucide's "plus" at size 16
_GRID_CLASSES = "rt-Grid rt-r-gtc-1 xs:rt-r-gtc-2 md:rt-r-gtc-3 lg:rt-r-gtc-4 rt-r-gap-4 product-grid"
_BUTTON = "rt-reset rt-BaseButton rt-r-size-2"
_ROW = "rt-Flex rt-r-fd-row"
_COLUMN = "rt-Flex rt-r-fd-column"
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
    empty = re.compile(rf'(<(div|span)[^<>]*\bid="{re.escape(SLOT_PREFIX + slot)}"[^<>]*>)(</\2>)')
    return empty.sub(lambda match: match[1] + content + match[3], page_html, count=1)


def with_brand(page_html: str, brand: str) -> str:
    """``page_html`` with the shop's name in the header (``components/header.py``), escaped."""
    return fill(page_html, "brand", escape(brand.strip(), quote=False)) if brand.strip() else page_html


# --- the product page (pages/product.py: _product) -------------------------------------------


def _text(
    tag: str,
    text: str,
    *,
    size: str = "",
    color: str | None = None,
    class_name: str = "",
    **attrs: str | None,
) -> str:
    """Radix's Text (``rx.text``): ``<p>`` or ``<span>`` with its size class and accent colour."""
    classes = " ".join(c for c in ("rt-Text", f"rt-r-size-{size}" if size else "", class_name) if c)
    head = _attrs(data_accent_color=color, **attrs, class_=classes)
    return f"<{tag}{head}>{escape(text)}</{tag}>"


def _crumb(text: str, href: str) -> str:
    classes = "rt-Text rt-reset rt-Link rt-r-size-2 rt-underline-auto product-page__crumb"
    attrs = _attrs(data_accent_color="", class_=classes, href=href, data_discover="true")
    return f"<a{attrs}>{escape(text)}</a>"


def _breadcrumb(view: ProductView) -> str:
    separator = _text("p", "/", color="gray", aria_hidden="true")
    crumbs = [_crumb("Home", "/"), _crumb("Shop", "/shop")]
    if view.category_name:
        crumbs.append(_crumb(view.category_name, view.category_url))
    if view.subcategory_name:
        crumbs.append(_crumb(view.subcategory_name, view.subcategory_url))
    here = _text("p", view.name, size="2", color="gray", aria_current="page")
    return (
        '<nav aria-label="Breadcrumb">'
        f'<div class="{_ROW} rt-r-ai-center rt-r-fw-wrap rt-r-gap-2 rx-Stack">'
        f"{separator.join(crumbs)}{separator}{here}</div></nav>"
    )


def _thumbnail(image: GalleryImage, index: int) -> str:
    picture = f"<img{_attrs(alt='', class_='product-page__thumb-image', src=image.src)}>"
    variant = "surface" if index == 0 else "ghost"
    attrs = _attrs(
        data_accent_color="",
        aria_label=f"Show image {index + 1}",
        aria_pressed="true" if index == 0 else "false",
        class_=f"{_BUTTON} rt-variant-{variant} rt-Button product-page__thumb",
        disabled="",
    )
    return f"<button{attrs}>{picture}</button>"


def _gallery(view: ProductView) -> str:
    main = view.images[0]
    picture = _attrs(
        alt=main.alt,
        class_="product-page__image",
        fetchpriority="high",
        height="800",
        sizes=PRODUCT_PAGE_SIZES,
        width="800",
        srcset=main.srcset,
        src=main.src,
    )
    heart = _attrs(
        aria_label=f"Add {view.name} to favorites",
        aria_pressed="false",
        class_="rt-reset rt-BaseButton rt-r-size-3 rt-variant-soft rt-IconButton product-page__heart",
        data_accent_color="gray",
        data_radius="full",
        type="button",
        disabled="",  # until the page's state arrives (see the module's docstring)
    )
    thumbnails = ""
    if len(view.images) > 1:
        row = "".join(_thumbnail(image, index) for index, image in enumerate(view.images))
        thumbnails = f'<div class="{_ROW} rt-r-ai-start rt-r-fw-wrap rt-r-gap-2 rx-Stack">{row}</div>'
    return (
        f'<div class="{_COLUMN} rt-r-ai-start rt-r-gap-3 rx-Stack product-page__column">'
        f'<div class="rt-Box product-page__media"><img{picture}><button{heart}>{_HEART_SVG}</button></div>'
        f"{thumbnails}</div>"
    )


def _badge(text: str, color: str, variant: str = "soft") -> str:
    classes = f"rt-reset rt-Badge rt-r-size-2 rt-variant-{variant}"
    return f'<span data-accent-color="{color}" class="{classes}">{escape(text)}</span>'


def _badges(view: ProductView) -> str:
    badges = [
        *([_badge("New", "green")] if view.is_new else []),
        *([_badge("Featured", "bronze")] if view.is_featured else []),
        *([_badge("On Sale", "red")] if view.on_sale else []),
        _badge(view.stock_text, "gray" if view.in_stock else "red", "outline"),
    ]
    return f'<div class="{_ROW} rt-r-ai-start rt-r-fw-wrap rt-r-gap-2 rx-Stack">{"".join(badges)}</div>'


def _price(view: ProductView) -> str:
    was = ""
    if view.compare_at_price:
        was = _text(
            "span",
            view.compare_at_price,
            size="4",
            color="gray",
            aria_label=f"was {view.compare_at_price}",
            class_name="product-page__was",
        )
    price = f'<p class="rt-Text rt-r-size-6 rt-r-weight-bold">{escape(view.price)}</p>'
    return f'<div class="{_ROW} rt-r-ai-baseline rt-r-gap-3 rx-Stack">{price}{was}</div>'


def _scent_picker(view: ProductView) -> str:
    if not view.scents:
        return ""
    chosen = view.scent
    options = (
        f"<option{_attrs(disabled='', value='', selected='' if not chosen else None)}>Select a Scent</option>"
    )
    for choice in view.scents:
        selected = "" if choice.label == chosen else None
        options += f"<option{_attrs(value=choice.label, selected=selected)}>{escape(choice.text)}</option>"
    more = ""
    if view.scent_more:
        attrs = _attrs(
            data_accent_color="",
            aria_label="Show every scent",
            type="button",
            class_="rt-reset rt-BaseButton rt-r-size-1 rt-variant-ghost rt-Button",
            disabled="",
            data_disabled="true",
        )
        more = f"<button{attrs}>{escape(view.scent_more)}</button>"
    select = _attrs(class_="native-select", id="product-scent", disabled="")
    return (
        f'<div class="{_COLUMN} rt-r-ai-start rt-r-gap-1 rx-Stack product-page__field">'
        '<label class="product-page__label" for="product-scent">Scent</label>'
        f"<select{select}>{options}</select>{more}</div>"
    )


def _step(svg: str, label: str) -> str:
    attrs = _attrs(
        aria_label=label,
        class_=f"{_BUTTON} rt-variant-soft rt-IconButton",
        data_accent_color="",
        disabled="",
        data_disabled="true",  # drawn disabled (Radix's look) until React's replace them
        type="button",
    )
    return f"<button{attrs}>{svg}</button>"


def _quantity() -> str:
    return (
        f'<div class="{_ROW} rt-r-ai-center rt-r-gap-2 rx-Stack">'
        f"{_step(_MINUS_SVG, 'Decrease quantity')}"
        '<p aria-label="Quantity" aria-live="polite" class="rt-Text rt-r-size-4 product-page__quantity">1</p>'
        f"{_step(_PLUS_SVG, 'Increase quantity')}</div>"
    )


def _summary(view: ProductView) -> str:
    details = "".join(_text("p", f"{row.label}: {row.value}", size="2") for row in view.details)
    add = _attrs(
        data_accent_color="",
        class_="rt-reset rt-BaseButton rt-r-size-4 rt-variant-solid rt-Button product-page__add",
        disabled="",
        data_disabled="true",
    )
    return (
        f'<div class="{_COLUMN} rt-r-ai-start rt-r-gap-4 rx-Stack product-page__column">'
        f'{_badges(view)}<h1 class="rt-Heading rt-r-size-8">{escape(view.name)}</h1>{_price(view)}'
        f"{_text('p', view.description, color='gray')}"
        f'<div class="{_ROW} rt-r-ai-start rt-r-fw-wrap rt-r-gap-4 rx-Stack">{details}</div>'
        f"{_scent_picker(view)}{_quantity()}<button{add}>{escape(add_label(view))}</button></div>"
    )


def product_html(view: ProductView) -> str:
    """The breadcrumb, gallery and summary of ``pages/product._product`` for a guest."""
    return (
        f'<div class="{_COLUMN} rt-r-ai-start rt-r-gap-6 rx-Stack product-page__top">{_breadcrumb(view)}'
        '<div class="rt-Grid rt-r-gtc-1 md:rt-r-gtc-2 rt-r-gap-8 product-page__grid">'
        f"{_gallery(view)}{_summary(view)}</div></div>"
    )
