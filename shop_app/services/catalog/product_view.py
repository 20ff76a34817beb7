"""A product page as the storefront shows it: the display-ready record of one product.

The product page's state sends this record to the browser (``state/product.py``), and the first
HTML response of ``/product/{id}`` is rendered from the same record (``api/first_view.py``), so
the page reads the same before and after its state arrives. Presenters here only format (money,
stock texts, the scent list) with the domain rules; they never decide prices or stock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shop_app import routes
from shop_app.domain.messages import CartMessage, StockText
from shop_app.domain.money import format_cents
from shop_app.domain.pricing import MAX_QUANTITY, MIN_QUANTITY, effective_sale_price
from shop_app.domain.stock import stock_text
from shop_app.domain.text import more_label, scent_overflow
from shop_app.services.catalog.card_views import PLACEHOLDER_IMAGE, Source
from shop_app.services.catalog.product import ProductDetail
from shop_app.services.media import srcset


def _same(path: str) -> str:
    return path


@dataclass
class GalleryImage:
    """An image of the gallery."""

    src: str = ""
    srcset: str = ""
    alt: str = ""


@dataclass
class ScentChoice:
    """A scent in the dropdown: the variation it leads to (0 = an option of this product)."""

    label: str = ""
    product_id: int = 0
    text: str = ""  # what the list shows: the label, marked "(sold out)" when none is left


@dataclass
class DetailRow:
    """A row of the Product Details tab."""

    label: str = ""
    value: str = ""


@dataclass
class ProductView:
    """Everything the product page draws of one product."""

    product_id: int = 0
    name: str = ""
    description: str = ""
    price: str = ""
    compare_at_price: str = ""  # the struck-through base price when on sale, else ""
    on_sale: bool = False
    is_new: bool = False
    is_featured: bool = False
    stock_text: str = ""
    in_stock: bool = False
    max_quantity: int = MAX_QUANTITY
    category_name: str = ""
    category_url: str = ""
    subcategory_name: str = ""
    subcategory_url: str = ""
    images: list[GalleryImage] = field(default_factory=list)
    scents: list[ScentChoice] = field(default_factory=list)  # the list as first shown
    all_scents: list[ScentChoice] = field(default_factory=list)  # the list after "+N more"
    scent_more: str = ""  # "+N more" (a button that lists the rest), or ""
    scent: str = ""  # the chosen scent (a variation's own scent; "" for an option still to pick)
    scent_is_option: bool = False
    details: list[DetailRow] = field(default_factory=list)
    scent_notes: str = ""


def _gallery_image(url: str, width: int | None, alt: str, src: Source) -> GalleryImage:
    if not url:
        return GalleryImage(PLACEHOLDER_IMAGE, "", alt)
    return GalleryImage(src(url), srcset(url, width, src=src), alt)


def _scents(detail: ProductDetail) -> tuple[list[ScentChoice], bool, str]:
    """Every scent choice, whether they are options of this product, and the one chosen."""
    if detail.option_scents:
        return [ScentChoice(s, 0, s) for s in detail.option_scents], True, ""
    same_vessel = [s for s in detail.siblings if s.vessel == detail.vessel and s.scent]
    if len(same_vessel) <= 1:
        return [], False, detail.scent
    choices = [
        ScentChoice(s.scent, s.id, s.scent if s.in_stock else f"{s.scent} {StockText.SOLD_OUT_MARK}")
        for s in same_vessel
    ]
    return choices, False, detail.scent


def product_view(detail: ProductDetail, *, src: Source = _same) -> ProductView:
    """The product page's record of ``detail`` (images from where ``src`` says they are served).

    The scent list is the seed's: at most 8 scents, then "+N more", which lists the rest when
    pressed; a variation's own scent is always listed.
    """
    sale = effective_sale_price(detail.base_price_cents, detail.sale_price_cents)
    choices, is_option, chosen = _scents(detail)
    shown, hidden = scent_overflow([c.label for c in choices])
    scents = [c for c in choices if c.label in shown]
    if not is_option and chosen not in shown:  # a variation's own scent is always listed
        scents += [c for c in choices if c.label == chosen]
    details = [
        DetailRow(label, detail.details[key])
        for key, label in (("size", "Size"), ("burn_time", "Burn Time"), ("volume", "Duration"))
        if detail.details.get(key)
    ]
    if detail.ingredients:
        details.append(DetailRow("Ingredients", ", ".join(detail.ingredients)))
    return ProductView(
        product_id=detail.id,
        name=detail.name,
        description=detail.description,
        price=format_cents(sale if sale is not None else detail.base_price_cents),
        compare_at_price=format_cents(detail.base_price_cents) if sale is not None else "",
        on_sale=sale is not None,
        is_new=detail.is_new,
        is_featured=detail.is_featured,
        stock_text=stock_text(detail.stock_quantity),
        in_stock=detail.stock_quantity > 0,
        max_quantity=max(MIN_QUANTITY, min(MAX_QUANTITY, detail.stock_quantity)),
        category_name=detail.category_name,
        category_url=routes.shop_url(category=detail.category_slug) if detail.category_slug else "",
        subcategory_name=detail.subcategory_name,
        subcategory_url=(
            routes.shop_url(category=detail.category_slug, subcategory=detail.subcategory_slug)
            if detail.subcategory_slug
            else ""
        ),
        images=[_gallery_image(i.url, i.width, i.alt, src) for i in detail.images]
        or [GalleryImage(PLACEHOLDER_IMAGE, "", detail.name)],
        scents=scents,
        all_scents=choices,
        scent_more=more_label(hidden) if hidden else "",
        scent=chosen,
        scent_is_option=is_option,
        details=details,
        scent_notes=", ".join(detail.scent_notes),
    )


def add_label(view: ProductView) -> str:
    """What the Add to Cart button says: Add to Cart, or why it is disabled."""
    if not view.in_stock:
        return "Out of Stock"
    if view.scent_is_option and not view.scent:
        return CartMessage.SELECT_A_SCENT.value
    return "Add to Cart"
