"""View models: the small, display-ready records that states send to the browser."""

from __future__ import annotations

from dataclasses import dataclass

from shop_app import routes
from shop_app.domain.badges import card_badge
from shop_app.domain.money import format_cents
from shop_app.domain.pricing import effective_sale_price
from shop_app.domain.stock import stock_text
from shop_app.domain.text import description_preview
from shop_app.services.catalog import ProductSummary
from shop_app.state.media import media_src

PLACEHOLDER_IMAGE = "/placeholder.svg"


@dataclass
class ProductCardView:
    """A product card as the storefront shows it."""

    id: int = 0
    name: str = ""
    description: str = ""
    price: str = ""
    compare_at_price: str = ""  # the struck-through base price when on sale, else ""
    image_url: str = PLACEHOLDER_IMAGE
    stock_text: str = ""
    in_stock: bool = False
    badge: str = ""
    url: str = ""


def product_card_view(product: ProductSummary) -> ProductCardView:
    """Turn a catalogue summary into a card (prices formatted, badge chosen, stock worded)."""
    sale = effective_sale_price(product.base_price_cents, product.sale_price_cents)
    badge = card_badge(
        base_cents=product.base_price_cents,
        sale_cents=product.sale_price_cents,
        is_new=product.is_new,
        is_featured=product.is_featured,
    )
    return ProductCardView(
        id=product.id,
        name=product.name,
        description=description_preview(product.description),
        price=format_cents(sale if sale is not None else product.base_price_cents),
        compare_at_price=format_cents(product.base_price_cents) if sale is not None else "",
        image_url=media_src(product.image_url) if product.image_url else PLACEHOLDER_IMAGE,
        stock_text=stock_text(product.stock_quantity),
        in_stock=product.stock_quantity > 0,
        badge=str(badge) if badge is not None else "",
        url=routes.product_url(product.id),
    )
