"""Product cards as the storefront shows them: display-ready records of the variation on show.

Presenters here only format (money, badges, stock texts) with the domain rules; they never decide
prices or stock. The shop and home pages' states send these records to the browser, and the
first HTML response of those pages is rendered from the same records (``api/first_view.py``), so
a card reads the same before and after the page's state arrives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from shop_app import routes
from shop_app.domain.badges import card_badge
from shop_app.domain.messages import StockText
from shop_app.domain.money import format_cents
from shop_app.domain.pricing import effective_sale_price
from shop_app.domain.stock import stock_text
from shop_app.domain.text import description_preview
from shop_app.services.catalog.listing import ProductCard, Variation
from shop_app.services.media import srcset

PLACEHOLDER_IMAGE = "/placeholder.svg"

# Cards of the first rows (four on a wide screen) are above the fold: their images load at once,
# the rest when scrolled near (the first card's image is the shop page's largest paint). The
# storefront's cards (components/product_card.py) and the first HTML response's
# (api/first_view.py) both follow it.
EAGER_CARDS = 4

# The id prefix of a page region the server fills in the first HTML response
# (components/first_view.py writes the region, api/first_view.py fills it).
FIRST_VIEW_ID_PREFIX = "first-view-"

Source = Callable[[str], str]  # a stored image's path -> the src the browser loads


def _same(path: str) -> str:
    return path


@dataclass
class VariationView:
    """One variation as a card shows it."""

    product_id: int = 0
    label: str = ""  # the scent (or the name when there is none)
    description: str = ""
    price: str = ""
    compare_at_price: str = ""  # the struck-through base price when on sale, else ""
    image_url: str = PLACEHOLDER_IMAGE
    image_srcset: str = ""
    badge: str = ""
    stock_text: str = ""
    in_stock: bool = False
    url: str = ""


@dataclass
class ScentOption:
    """A scent in a card's list: its label (what choosing it sends) and the text shown."""

    value: str = ""
    text: str = ""  # the label, with "(sold out)" after a scent none is left of


@dataclass
class CardView:
    """A product card: the variation on show and the scents to switch between."""

    key: str = ""
    title: str = ""
    has_variants: bool = False
    scents: list[str] = field(default_factory=list)
    scent_options: list[ScentOption] = field(default_factory=list)
    selected_scent: str = ""
    current: VariationView = field(default_factory=VariationView)


def variation_view(variation: Variation, *, src: Source = _same) -> VariationView:
    """Format one variation for a card (``src``: where the browser loads a stored image from)."""
    sale = effective_sale_price(variation.base_price_cents, variation.sale_price_cents)
    badge = card_badge(
        base_cents=variation.base_price_cents,
        sale_cents=variation.sale_price_cents,
        is_new=variation.is_new,
        is_featured=variation.is_featured,
    )
    return VariationView(
        product_id=variation.id,
        label=variation.scent or variation.name,
        description=description_preview(variation.description),
        price=format_cents(sale if sale is not None else variation.base_price_cents),
        compare_at_price=format_cents(variation.base_price_cents) if sale is not None else "",
        image_url=src(variation.image_url) if variation.image_url else PLACEHOLDER_IMAGE,
        image_srcset=srcset(variation.image_url, variation.image_width, src=src)
        if variation.image_url
        else "",
        badge=str(badge) if badge is not None else "",
        stock_text=stock_text(variation.stock_quantity),
        in_stock=variation.stock_quantity > 0,
        url=routes.product_url(variation.id),
    )


def card_views(card: ProductCard, *, src: Source = _same) -> tuple[CardView, list[int]]:
    """A card showing its first variation in stock, and the product id behind each scent label.

    A range whose first scent is sold out must not read "Out of Stock" while others are left: the
    card starts on the first scent in stock (the first one when none is), and the list marks the
    sold-out ones. Only the variation on show is formatted: a card of a shop page can group
    dozens of variations, and the one a shopper picks is formatted when picked (``choose_scent``).
    """
    names = [v.scent or v.name for v in card.variations]
    labels = [
        f"{name} ({variation.vessel})" if names.count(name) > 1 and variation.vessel else name
        for name, variation in zip(names, card.variations, strict=True)
    ]  # the same scent in several vessels is told apart by the vessel
    scents = labels if len(labels) > 1 else []
    shown = card.shown_index
    current = variation_view(card.variations[shown], src=src)
    current.label = labels[shown]
    view = CardView(
        key=card.key,
        title=card.title,
        has_variants=card.has_variants,
        scents=scents,
        scent_options=[
            ScentOption(
                value=label, text=label if v.stock_quantity > 0 else f"{label} {StockText.SOLD_OUT_MARK}"
            )
            for label, v in zip(scents, card.variations, strict=False)
        ],
        selected_scent=scents[shown] if scents else "",
        current=current,
    )
    return view, [v.id for v in card.variations]
