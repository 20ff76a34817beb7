"""The back office's dashboard (/admin, /admin/products): figures, tabs, the product list.

Two states: ``AdminDashboardState`` holds the figures, the admin list and the website images
preview; ``DashboardProductsState`` the Product Management list with its search, filter, sort,
pages and the delete dialogs. Nothing is read for anyone but an admin: every handler is an
``admin_event`` (the role is read again first), so a customer who reaches /admin (Access
Denied) or sends events by hand gets no data.

The list follows Manage Products: the database searches, filters, sorts, counts and pages it
(``services.admin.product_listing``); the state holds the page on show and nothing more. Deleting
goes through the same service and messages as Manage Products: Square first, then here; an
ordered product is offered for archiving instead.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Final

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.domain.admin_listing import PAGE_SIZE, SEARCH_MAX
from shop_app.domain.admin_messages import ProductAdminMessage
from shop_app.domain.money import format_cents
from shop_app.domain.pricing import effective_sale_price
from shop_app.domain.product_sort import DEFAULT_SORT, parse_sort
from shop_app.services.admin import product_listing as listing
from shop_app.services.admin.admins import current_admins
from shop_app.services.admin.products import AdminProductRow, category_choices
from shop_app.services.admin_dashboard import store_counts
from shop_app.services.order_history import placed_on_text
from shop_app.services.site_images import IMAGE_TYPES, site_images
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.admin.product_delete import DeleteOrArchiveMixin
from shop_app.state.auth import private_state
from shop_app.state.views import image_src, image_srcset

log = logging.getLogger(__name__)

ALL_CATEGORIES: Final = "all"
PRODUCTS_TAB: Final = "products"
PRODUCT_PATHS: Final = (routes.ADMIN_PRODUCTS, routes.ADMIN_DASHBOARD_PRODUCTS)

SLOT_TITLES: Final[dict[str, str]] = {
    "hero": "Homepage hero image",
    "category_candles": "Candles category",
    "category_bodycare": "Body care category",
    "category_fragrance": "Room fragrance category",
    "mission": "Our mission",
    "about": "About us",
}
"""The six website image slots, titled with the seed's default alt texts
(docs/spec/admin-site.md#website-images-rules)."""


@dataclass
class DashboardProductRow:
    """A product as the dashboard list shows it."""

    id: int = 0
    name: str = ""
    category: str = ""
    image_url: str = ""
    image_srcset: str = ""
    price: str = ""
    compare_at_price: str = ""  # the struck-through base price when on sale, else ""
    stock: int = 0
    low_stock: bool = False
    status: str = ""  # New, Sale or Active (docs/spec/admin.md#dashboard-products)
    archived: bool = False
    view_url: str = ""
    edit_url: str = ""


@dataclass
class AdminMemberRow:
    """An administrator in the Admin Management tab."""

    name: str = ""
    email: str = ""
    role: str = ""
    granted_on: str = ""
    is_you: bool = False


@dataclass
class SiteImageTile:
    """One website image slot in the Website Images tab."""

    title: str = ""
    image_url: str = ""
    image_srcset: str = ""
    is_set: bool = False


def product_row(row: AdminProductRow) -> DashboardProductRow:
    """Format one product for the list."""
    sale = effective_sale_price(row.base_price_cents, row.sale_price_cents)
    return DashboardProductRow(
        id=row.id,
        name=row.name,
        category=row.category_name,
        image_url=image_src(row.image_url),
        image_srcset=image_srcset(row.image_url, row.image_width),
        price=format_cents(sale if sale is not None else row.base_price_cents),
        compare_at_price=format_cents(row.base_price_cents) if sale is not None else "",
        stock=row.stock_quantity,
        low_stock=row.low_stock,
        status=row.status_badge,
        archived=not row.is_active,
        view_url=routes.product_url(row.id),
        edit_url=routes.admin_product_edit_url(row.id),
    )


@private_state
class AdminDashboardState(AdminGuardMixin, rx.State):
    """The figures, the admin list and the website images preview (loaded only for admins)."""

    products: int = 0
    active_products: int = 0
    low_stock: int = 0
    paid_orders: int = 0
    customers: int = 0
    verified_customers: int = 0
    subscribers: int = 0
    admins: list[AdminMemberRow] = []
    images: list[SiteImageTile] = []
    tab: str = PRODUCTS_TAB

    def _load_counts(self) -> None:
        with session_scope() as session:
            counts = store_counts(session)
        self.products, self.active_products, self.low_stock = (
            counts.products,
            counts.active_products,
            counts.low_stock,
        )
        self.paid_orders, self.customers = counts.paid_orders, counts.customers
        self.verified_customers, self.subscribers = counts.verified_customers, counts.subscribers

    @admin_event
    async def load(self, admin_id: int):
        """Admins see the figures, the admins, the images and the product list; nobody else."""
        self._load_counts()
        with session_scope() as session:
            members = current_admins(session)
            saved = site_images(session)
        self.admins = [
            AdminMemberRow(
                name=m.name,
                email=m.email,
                role=m.role,
                granted_on=placed_on_text(m.granted_at),
                is_you=m.user_id == admin_id,
            )
            for m in members
        ]
        self.images = [
            SiteImageTile(
                title=SLOT_TITLES[slot],
                image_url=image_src(saved[slot].image_url) if slot in saved else "",
                image_srcset=image_srcset(saved[slot].image_url, saved[slot].width) if slot in saved else "",
                is_set=slot in saved,
            )
            for slot in IMAGE_TYPES
        ]
        if self.router.url.path.rstrip("/") in PRODUCT_PATHS:
            self.tab = PRODUCTS_TAB
        return DashboardProductsState.load

    @admin_event
    def set_tab(self, tab: str) -> None:
        """Switch tabs (what each tab shows was loaded for admins only)."""
        self.tab = tab


@private_state
class DashboardProductsState(DeleteOrArchiveMixin, rx.State):
    """The Product Management tab: one page of the searched, filtered and sorted list."""

    search: str = ""
    category: str = ALL_CATEGORIES
    sort: str = DEFAULT_SORT.value
    page: int = 0
    rows: list[DashboardProductRow] = []
    matches: int = 0
    catalogue_size: int = 0
    categories: list[dict[str, str]] = []

    @rx.var
    def page_count(self) -> int:
        """How many pages the matches fill (at least 1)."""
        return max(1, -(-self.matches // PAGE_SIZE))

    @rx.var
    def range_text(self) -> str:
        """The list's range, e.g. "Showing 1–20 of 57"; "" when nothing matches."""
        if not self.matches:
            return ""
        first = self.page * PAGE_SIZE + 1
        return f"Showing {first}–{min(self.matches, first + PAGE_SIZE - 1)} of {self.matches}"

    def _read(self) -> None:
        """Read the categories, the catalogue's size and the page on show."""
        with session_scope() as session:
            self.catalogue_size = listing.catalogue_size(session)
            choices = category_choices(session)
        self.categories = [{"id": str(c.id), "name": c.name} for c in choices if c.parent_id is None]
        self._show()

    def _show(self) -> None:
        """Read the page on show (``page`` counts from 0 here)."""
        with session_scope() as session:
            found = listing.list_products(
                session,
                search=self.search,
                category_id=validation.parse_id(self.category),
                sort=parse_sort(self.sort),
                page=self.page + 1,
            )
        self.matches, self.page = found.total, found.page - 1
        self.rows = [product_row(row) for row in found.rows]

    async def _refresh_figures(self) -> None:
        dashboard = await self.get_state(AdminDashboardState)
        dashboard._load_counts()

    @admin_event(failure=ProductAdminMessage.LOAD_FAILED.value)
    async def load(self) -> None:
        """Read the list (admins only)."""
        self._read()

    @admin_event
    async def set_search(self, text: str) -> None:
        """Search by name, id or category (case-insensitive); back to the first page."""
        self.search, self.page = str(text)[:SEARCH_MAX], 0
        self._show()

    @admin_event
    async def set_category(self, value: str) -> None:
        """Filter by main category ("all": every product)."""
        self.category, self.page = (value if validation.parse_id(value) else ALL_CATEGORIES), 0
        self._show()

    @admin_event
    async def set_sort(self, value: str) -> None:
        """Order the list (newest first by default)."""
        self.sort, self.page = parse_sort(value).value, 0
        self._show()

    @admin_event
    async def turn_page(self, step: int) -> None:
        """Previous (-1) or next (+1) page."""
        self.page = min(max(0, self.page + int(step)), self.page_count - 1)
        self._show()

    async def _product_name(self, product_id: int) -> str | None:
        if (shown := next((row.name for row in self.rows if row.id == product_id), None)) is not None:
            return shown
        with session_scope() as session:
            row = listing.product_row(session, product_id)
        return row.name if row is not None else None

    async def _after_change(self) -> None:
        self._read()
        await self._refresh_figures()
