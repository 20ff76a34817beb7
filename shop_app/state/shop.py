"""The shop page's state: filters from the URL, one page of cards at a time, scent selectors."""

from __future__ import annotations

from dataclasses import dataclass

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain.text import showing_products
from shop_app.services import catalog
from shop_app.services.catalog.filters import code_slug
from shop_app.state.views import CardView, card_views, variation_view

EMPTY_ALL = "Our shelves are being restocked. Please check back soon."
EMPTY_SEARCH = "We couldn't find anything matching “{search}”. Try another word or browse all products."
EMPTY_CATEGORY = "There are no products in this category yet. Have a look at our other collections."


@dataclass
class Pill:
    """A category or subcategory filter pill."""

    label: str = ""
    slug: str = ""
    count: int = 0
    url: str = ""


class CardsMixin(rx.State, mixin=True):
    """A list of product cards whose scent selectors switch the variation on show."""

    cards: list[CardView] = []
    loaded: bool = False  # the first view has arrived (until then the page shows skeletons)
    # The product id behind each label of a card's scent selector (``card.scents``, same order),
    # by card key. Only ids: this backend var is stored with every shopper's state, and the view
    # of a chosen variation is built when the shopper picks it.
    _variations: dict[str, list[int]] = {}

    def _set_cards(self, cards: list[catalog.ProductCard], *, append: bool = False) -> None:
        if not append:
            self.cards, self._variations = [], {}
        views = []
        for card in cards:
            view, product_ids = card_views(card)
            views.append(view)
            if view.scents:
                self._variations[view.key] = product_ids
        self.cards = [*self.cards, *views]

    @rx.event
    def choose_scent(self, key: str, label: str) -> None:
        """Show the variation with scent ``label`` on card ``key``."""
        for index, card in enumerate(self.cards):
            if card.key != key:
                continue
            product_ids = self._variations.get(key, [])
            if label not in card.scents or len(product_ids) != len(card.scents):
                return
            with session_scope() as session:
                variation = catalog.variation(session, product_ids[card.scents.index(label)])
            if variation is None:  # archived since the page loaded
                return
            view = variation_view(variation)
            view.label = label  # the selector's label ("Vanilla (Amber)" when a scent repeats)
            card.selected_scent, card.current = label, view
            self.cards[index] = card
            return


class ShopState(CardsMixin, rx.State):
    """What /shop shows."""

    total: int = 0
    category: str = ""
    subcategory: str = ""
    search: str = ""
    grouped: bool = True
    active_category: str = ""  # the chosen category's slug (storefront codes resolved)
    active_subcategory: str = ""
    category_pills: list[Pill] = []
    subcategory_pills: list[Pill] = []
    all_count: int = 0
    empty_text: str = ""
    searching: bool = False

    @rx.var
    def showing_text(self) -> str:
        """How many products match ("Showing 1 product", "Showing 12 products")."""
        return showing_products(self.total)

    @rx.var
    def has_more(self) -> bool:
        """Whether more cards match than are shown."""
        return len(self.cards) < self.total

    @rx.event
    def load(self) -> None:
        """Load the filters and the first page for the URL's query parameters."""
        params = self.router.url.query_parameters
        self.category = params.get("category", "")
        self.subcategory = params.get("subcategory", "")
        self.search = params.get("search", "").strip()
        self._load_pills()
        self._reload()
        self.loaded = True

    @rx.event
    def set_grouped(self, grouped: bool) -> None:
        """Switch between grouped and individual products (the pills count what the grid shows)."""
        self.grouped = bool(grouped)
        self._load_pills()
        self._reload()

    @rx.event
    def set_searching(self, searching: bool) -> None:
        """Enter or leave search mode."""
        self.searching = bool(searching)

    @rx.event
    def apply_search(self, form_data: dict[str, str]):
        """Enter pressed: put the search into the URL (which reloads the listing)."""
        self.searching = False
        search = str(form_data.get("search", "")).strip()
        return rx.redirect(
            routes.shop_url(
                category=self.category or None, subcategory=self.subcategory or None, search=search or None
            )
        )

    @rx.var
    def clear_search_url(self) -> str:
        """The same listing without the search."""
        return routes.shop_url(category=self.category or None, subcategory=self.subcategory or None)

    @rx.var
    def all_url(self) -> str:
        """All categories, keeping the search."""
        return routes.shop_url(search=self.search or None)

    @rx.event
    def load_more(self) -> None:
        """Append the next page of cards."""
        self._append_page()

    def _reload(self) -> None:
        self._set_cards([])
        self._append_page()
        self.empty_text = self._empty_text() if self.total == 0 else ""

    def _append_page(self) -> None:
        query = catalog.ShopQuery(
            category=self.category or None,
            subcategory=self.subcategory or None,
            search=self.search or None,
            grouped=self.grouped,
            offset=len(self.cards),
        )
        with session_scope() as session:
            page = catalog.shop_page(session, query)
        self._set_cards(page.cards, append=True)
        self.total = page.total

    def _load_pills(self) -> None:
        with session_scope() as session:
            # The pills count what they lead to: with a search, the products it finds.
            counts = catalog.category_counts(session, grouped=self.grouped, search=self.search or None)
        slugs = {c.slug for c in counts}
        chosen = code_slug(self.category, slugs) if self.category else ""
        mains = [c for c in counts if c.parent_id is None and (c.count > 0 or c.slug == chosen)]
        self.all_count = sum(c.count for c in mains)
        self.category_pills = [
            Pill(c.name, c.slug, c.count, routes.shop_url(category=c.slug, search=self.search or None))
            for c in mains
        ]
        self.active_category = chosen
        self.active_subcategory = code_slug(self.subcategory, slugs) if self.subcategory else ""
        parent = next((c for c in counts if c.slug == chosen and c.parent_id is None), None)
        self.subcategory_pills = [
            Pill(
                c.name,
                c.slug,
                c.count,
                routes.shop_url(category=parent.slug, subcategory=c.slug, search=self.search or None),
            )
            for c in counts
            if parent is not None
            and c.parent_id == parent.id
            and (c.count > 0 or c.slug == self.active_subcategory)
        ]

    def _empty_text(self) -> str:
        if self.search:
            return EMPTY_SEARCH.format(search=self.search)
        if self.all_count == 0:
            return EMPTY_ALL
        return EMPTY_CATEGORY
