"""View models: the small, display-ready records that states send to the browser.

Presenters here only format (money, badges, stock texts) with the domain rules; they never
decide prices or stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from shop_app import routes
from shop_app.domain.discounts import discount_rows
from shop_app.domain.money import format_cents
from shop_app.domain.pricing import MAX_QUANTITY
from shop_app.domain.totals import OrderTotals
from shop_app.services.cart import CartLineView, CartView
from shop_app.services.catalog import ProductCard, Variation
from shop_app.services.catalog import card_views as cards
from shop_app.services.catalog.card_views import PLACEHOLDER_IMAGE, CardView, ScentOption, VariationView
from shop_app.services.media import srcset
from shop_app.state.media import media_src

__all__ = [
    "PLACEHOLDER_IMAGE",
    "CardView",
    "CartLineRow",
    "ScentOption",
    "TaxRow",
    "VariationView",
    "card_views",
    "cart_rows",
    "discount_row_views",
    "image_src",
    "image_srcset",
    "tax_row_views",
    "variation_view",
]


@dataclass
class TaxRow:
    """A labelled row of an order summary: a tax ("GST 5%", "Tax" for a single row) or a
    discount ("Discount (TEN)", "-$5.00"), and its amount."""

    label: str = ""
    amount: str = ""


def discount_row(totals: OrderTotals) -> tuple[str, str]:
    """A cart's or checkout's discount row (``domain.discounts.discount_rows``, as every order
    summary shows it): ("Discount (TEN)", "-$5.00"), or two empty texts for none (a free-shipping
    code shows in the shipping row, "Free")."""
    rows = discount_rows(totals.discount_cents, totals.discount.code if totals.discount else None)
    return next(((label, format_cents(cents)) for label, cents in rows), ("", ""))


def tax_row_views(rows: tuple[tuple[str, int], ...]) -> list[TaxRow]:
    """The rows as shown (``domain.tax.tax_rows``), amounts formatted."""
    return [TaxRow(label, format_cents(cents)) for label, cents in rows]


def discount_row_views(rows: tuple[tuple[str, int], ...]) -> list[TaxRow]:
    """The discount row as shown (``domain.discounts.discount_rows``): "Discount (TEN)", "-$5.00"."""
    return tax_row_views(rows)


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
    """Format one variation for a card (images from where this process serves them)."""
    return cards.variation_view(variation, src=media_src)


def card_views(card: ProductCard) -> tuple[CardView, list[int]]:
    """A card and the product id behind each scent label (``services.catalog.card_views``)."""
    return cards.card_views(card, src=media_src)


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
