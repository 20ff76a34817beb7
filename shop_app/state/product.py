"""The product page's state: one product, its gallery, scent choice and quantity."""

from __future__ import annotations

from dataclasses import fields
from urllib.parse import unquote

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.domain.pricing import MAX_QUANTITY, MIN_QUANTITY
from shop_app.services import seo
from shop_app.services.catalog import ProductDetail, get_product
from shop_app.services.catalog.product_view import (
    DetailRow,
    GalleryImage,
    ProductView,
    ScentChoice,
    add_label,
    product_view,
)
from shop_app.services.seo import NOT_FOUND_TITLE
from shop_app.services.store_settings import get_store_settings
from shop_app.state import notify
from shop_app.state.cart import CartState
from shop_app.state.media import media_src

__all__ = ["NOT_FOUND_TITLE", "DetailRow", "GalleryImage", "ProductState", "ScentChoice"]


_SHOWN = tuple(f.name for f in fields(ProductView) if f.name != "all_scents")
"""The fields of a product's record the page's state holds as they are (the same names)."""


class ProductState(rx.State):
    """What /product/[product_id] shows."""

    found: bool = True
    loaded: bool = False
    # The address's product segment (decoded) that found/product_id/... were loaded for: the page
    # shows them only while the address still names it (pages/product.py), so a tab never shows
    # the product of its last visit under another product's address.
    loaded_for: str = ""
    product_id: int = 0
    name: str = ""
    description: str = ""
    price: str = ""
    compare_at_price: str = ""
    is_new: bool = False
    is_featured: bool = False
    on_sale: bool = False
    stock_text: str = ""
    in_stock: bool = False
    max_quantity: int = MAX_QUANTITY
    category_name: str = ""
    category_url: str = ""
    subcategory_name: str = ""
    subcategory_url: str = ""
    images: list[GalleryImage] = []
    image_index: int = 0
    scents: list[ScentChoice] = []
    scent_more: str = ""  # "+N more" (a button that lists the rest), or ""
    _all_scents: list[ScentChoice] = []
    scent: str = ""  # the chosen scent (a variation's scent, or an option)
    scent_is_option: bool = False
    details: list[DetailRow] = []
    scent_notes: str = ""
    quantity: int = 1
    # The document title, the same one the server put in the page's first HTML (services.seo);
    # "" until a product has been loaded (the page keeps the title it has: pages/__init__.py).
    page_title: str = ""

    @rx.var
    def add_label(self) -> str:
        """Add to Cart, or why it is disabled."""
        return add_label(
            ProductView(in_stock=self.in_stock, scent_is_option=self.scent_is_option, scent=self.scent)
        )

    @rx.var
    def can_add(self) -> bool:
        """Whether Add to Cart is enabled."""
        return self.in_stock and not (self.scent_is_option and not self.scent)

    @rx.event
    def load(self) -> None:
        """Load the product named by the URL (an unknown id shows Product Not Found)."""
        raw = self._url_product_id()
        detail = None
        with session_scope() as session:
            brand = get_store_settings(session).company_name
            product_id = validation.parse_id(raw)
            if product_id is not None:
                detail = get_product(session, product_id)
        self.loaded, self.loaded_for = True, raw
        self.found = detail is not None
        if detail is None:
            self.page_title = seo.not_found_title(brand=brand)
        else:
            self.page_title = seo.product_title(detail, brand=brand)
            self._show(detail)

    def _url_product_id(self) -> str:
        """The last segment of the address the event came from, decoded as the browser's router
        decodes it (the product's id, if digits; ``%31`` is ``1`` for the server's route too)."""
        return unquote(self.router.url.path.rstrip("/").rsplit("/", 1)[-1])

    @rx.event
    async def add_to_cart(self):
        """Add to Cart: the product of the page's address, with the quantity and scent chosen.

        Going from one product page to another, the page shows the previous product until the
        new one's load has run, and a click in that moment can reach the server first. The
        product is therefore taken from this state only when it is the one the address names;
        otherwise that product is loaded first (its own quantity and scent: 1 and its default).
        """
        if self._url_product_id() != self.loaded_for or not self.loaded:
            self.load()
        if not (self.found and self.can_add):
            return notify.error(self.add_label) if self.found else None
        cart = await self.get_state(CartState)
        return await cart._add_product(self.product_id, self.quantity, self.selected_options)

    def _show(self, detail: ProductDetail) -> None:
        view = product_view(detail, src=media_src)
        for name in _SHOWN:
            setattr(self, name, getattr(view, name))
        self._all_scents = view.all_scents
        self.image_index = 0
        self.quantity = 1

    @rx.event
    def show_all_scents(self) -> None:
        """ "+N more": list every scent, so the ones past the first eight can be chosen too."""
        self.scents, self.scent_more = list(self._all_scents), ""

    @rx.event
    def choose_scent(self, label: str):
        """Choose a scent: an option of this product, or the variation with that scent."""
        choice = next((c for c in self._all_scents if c.label == label), None)
        if choice is None:
            return None
        if self.scent_is_option or choice.product_id in (0, self.product_id):
            self.scent = label
            return None
        return rx.redirect(routes.product_url(choice.product_id))

    @rx.event
    def show_image(self, index: int) -> None:
        """Show another image of the gallery."""
        if 0 <= index < len(self.images):
            self.image_index = index

    @rx.event
    def change_quantity(self, delta: int) -> None:
        """Step the quantity within 1..min(99, stock)."""
        self.quantity = max(MIN_QUANTITY, min(self.max_quantity, self.quantity + int(delta)))

    @rx.var
    def selected_options(self) -> dict[str, str]:
        """The options sent with Add to Cart."""
        return {"scent": self.scent} if self.scent_is_option and self.scent else {}
