"""Storefront listing states: the home page's featured products and the shop page."""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.slugs import resolve_category_slug
from shop_app.services import catalog
from shop_app.state.views import ProductCardView, product_card_view


class HomeState(rx.State):
    """Featured products on the home page."""

    featured: list[ProductCardView] = []

    @rx.event
    def load(self) -> None:
        """Load up to 12 featured products."""
        with session_scope() as session:
            self.featured = [product_card_view(p) for p in catalog.featured_products(session)]


class ShopState(rx.State):
    """One page of the catalogue, filtered by the URL's category and search parameters."""

    products: list[ProductCardView] = []
    total: int = 0
    search: str = ""
    category: str = ""

    @rx.var
    def has_more(self) -> bool:
        """Whether more matching products exist than are shown."""
        return len(self.products) < self.total

    @rx.event
    def load(self) -> None:
        """Load the first page of the products the URL asks for."""
        params = self.router.url.query_parameters
        self.search = params.get("search", "")
        self.category = params.get("category", "")
        self.products = []
        self._append_next_page()

    @rx.event
    def load_more(self) -> None:
        """Append the next page of products."""
        self._append_next_page()

    def _append_next_page(self) -> None:
        with session_scope() as session:
            page = catalog.list_products(
                session,
                category_slug=resolve_category_slug(self.category) if self.category else None,
                search=self.search or None,
                offset=len(self.products),
            )
        self.products = [*self.products, *(product_card_view(p) for p in page.items)]
        self.total = page.total
