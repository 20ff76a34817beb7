"""View models: the small, display-ready records that states send to the browser.

Presenters here only format (money, badges, stock texts) with the domain rules; they never
decide prices or stock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shop_app import routes
from shop_app.domain.badges import card_badge
from shop_app.domain.messages import StockText
from shop_app.domain.money import format_cents
from shop_app.domain.pricing import MAX_QUANTITY, effective_sale_price
from shop_app.domain.stock import stock_text
from shop_app.domain.text import description_preview
from shop_app.services.cart import CartLineView, CartView
from shop_app.services.catalog import ProductCard, Variation
from shop_app.services.media import srcset
from shop_app.state.media import media_src

PLACEHOLDER_IMAGE = "/placeholder.svg"


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


@dataclass
class CartLineRow:
    """A cart line in the drawer."""

    line_id: int = 0
    name: str = ""
    options: str = ""
    image_url: str = PLACEHOLDER_IMAGE
    quantity: int = 1
    unit_price: str = ""
    line_total: str = ""
    url: str = ""
    can_increase: bool = True


def image_src(url: str) -> str:
    """A stored image's src, or the placeholder when there is none."""
    return media_src(url) if url else PLACEHOLDER_IMAGE


def image_srcset(url: str, width: int | None) -> str:
    """The srcset of a stored image's renditions ("" when unknown: the browser uses src)."""
    return srcset(url, width, src=media_src) if url else ""


def variation_view(variation: Variation) -> VariationView:
    """Format one variation for a card."""
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
        image_url=image_src(variation.image_url),
        image_srcset=image_srcset(variation.image_url, variation.image_width),
        badge=str(badge) if badge is not None else "",
        stock_text=stock_text(variation.stock_quantity),
        in_stock=variation.stock_quantity > 0,
        url=routes.product_url(variation.id),
    )


def card_views(card: ProductCard) -> tuple[CardView, list[int]]:
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
    current = variation_view(card.variations[shown])
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


def cart_rows(cart: CartView) -> list[CartLineRow]:
    """The lines of the cart drawer."""
    return [_cart_row(line) for line in cart.lines]


def _cart_row(line: CartLineView) -> CartLineRow:
    return CartLineRow(
        line_id=line.line_id,
        name=line.name,
        options=line.options_label,
        image_url=image_src(line.image_url),
        quantity=line.quantity,
        unit_price=format_cents(line.unit_price_cents),
        line_total=format_cents(line.line_total_cents),
        url=routes.product_url(line.product_id) if line.listed else routes.CUSTOM_CREATOR,
        can_increase=line.quantity < min(MAX_QUANTITY, line.stock_quantity),
    )
