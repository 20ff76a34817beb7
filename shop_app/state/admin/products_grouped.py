"""State of Manage Products, grouped view (docs/spec/admin-products.md#grouped, #add-scent;
docs/spec/limits.md#back-office).

Products grouped by vessel, one page of groups at a time (``services.admin.product_listing``): the
state holds the page's groups, and the variants of the groups opened on it (20 at first, 20 more
per "Show more"). After a change only the current page is read again. Every handler re-checks the
admin role on the server first.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.admin_listing import SEARCH_MAX, VARIANTS_HELD, page_text
from shop_app.domain.admin_messages import ProductAdminMessage as M
from shop_app.domain.grouping import convert_to_single_name
from shop_app.domain.money import format_cents, format_plain
from shop_app.domain.pricing import display_price_cents
from shop_app.domain.stock import is_out_of_stock, stock_badge
from shop_app.services.admin import product_listing as listing
from shop_app.services.admin import products as svc
from shop_app.services.admin import variants
from shop_app.services.admin.product_listing import GroupRow, first_shown, more_variants
from shop_app.services.admin.products import AdminProductRow
from shop_app.services.admin.variants import NewScent
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.admin.product_views import delete_in_thread, deleted_notification
from shop_app.state.auth import private_state
from shop_app.state.views import image_src

log = logging.getLogger(__name__)

RELOAD_AFTER_S = 1.0  # Convert to Single Product reloads after 1000 ms (docs/spec/limits.md#back-office)


@dataclass
class VariantView:
    """A variant row of a group."""

    id: int = 0
    name: str = ""
    scent: str = ""
    stock: int = 0
    price: str = ""
    stock_badge: str = ""
    in_stock: bool = False
    is_active: bool = True


@dataclass
class GroupRowView:
    """A vessel group."""

    key: str = ""
    base_name: str = ""
    label: str = ""
    expandable: bool = False
    base_price: str = ""
    category: str = ""
    image_url: str = ""
    variants: list[VariantView] = field(default_factory=list)
    variant_count: int = 0
    more: str = ""  # "Show more (20 of 57 shown)" while an opened group hides some variants, else ""
    held: str = ""  # what an opened group says once it shows VARIANTS_HELD of more variants, else ""


def _variant(row: AdminProductRow) -> VariantView:
    return VariantView(
        id=row.id,
        name=row.name,
        scent=variants.scent_of(row.name),
        stock=row.stock_quantity,
        price=format_cents(display_price_cents(row.base_price_cents, row.sale_price_cents)),
        stock_badge=stock_badge(row.stock_quantity),
        in_stock=not is_out_of_stock(row.stock_quantity),
        is_active=row.is_active,
    )


def group_view(group: GroupRow) -> GroupRowView:
    """Format one vessel group of the page."""
    shown = len(group.variants)
    hidden = group.expandable and 0 < shown < group.variant_count
    full = shown >= VARIANTS_HELD
    return GroupRowView(
        key=group.key,
        base_name=group.base_name,
        label=group.label,
        expandable=group.expandable,
        base_price=format_cents(group.first.base_price_cents),
        category=group.first.category_name,
        image_url=image_src(group.first.image_url),
        variants=[_variant(row) for row in group.variants],
        variant_count=group.variant_count,
        more=f"Show more ({shown} of {group.variant_count} shown)" if hidden and not full else "",
        held=f"{shown} of {group.variant_count} variants shown: Individual View lists every one"
        if hidden and full
        else "",
    )


@private_state
class GroupedProductsState(AdminGuardMixin, rx.State):
    """The grouped view: groups, stats, search, and the Add Scent, Convert and Delete dialogs."""

    _opened: dict[str, int] = {}  # opened group → how many of its variants are shown
    _first_prices: dict[str, int] = {}  # base name → its first variation's price, for Add Scent
    loaded: bool = False
    groups: list[GroupRowView] = []
    has_products: bool = False
    group_count: int = 0
    variant_count: int = 0
    in_stock: int = 0
    low_stock: int = 0
    search: str = ""
    expanded: list[str] = []
    page: int = 1
    pages: int = 1
    matches: int = 0

    scent_open: bool = False
    scent_group: str = ""
    scent_group_price: str = ""
    scent_name: str = ""
    scent_price: str = ""
    scent_sale_price: str = ""
    scent_stock: str = ""

    single_open: bool = False
    delete_open: bool = False
    target_id: int = 0
    target_name: str = ""

    @rx.var
    def single_preview(self) -> str:
        """The name the variant will have as a standalone product."""
        return convert_to_single_name(self.target_name) if self.target_name else ""

    @rx.var
    def page_text(self) -> str:
        """ "Page 1 of 2 · 34 groups"."""
        return page_text(self.page, self.pages, self.matches, "group")

    def _reload(self) -> None:
        """Read the current page of groups (and the opened groups' variants) and the cards."""
        with session_scope() as session:
            found = listing.list_groups(session, search=self.search, opened=self._opened, page=self.page)
        self.groups = [group_view(g) for g in found.groups]
        self._first_prices = {g.base_name: g.first.base_price_cents for g in found.groups}
        self.page, self.pages, self.matches = found.page, found.pages, found.total
        stats = found.stats
        self.group_count, self.variant_count = stats.groups, stats.variants
        self.in_stock, self.low_stock = stats.in_stock, stats.low_stock
        self.has_products = stats.variants > 0
        self.loaded = True

    @admin_event
    async def load(self):
        """Read the groups (admins only)."""
        try:
            self._reload()
        except Exception:
            log.exception("Loading the grouped product list failed")
            return notify.error(M.LOAD_FAILED.value)
        return None

    @admin_event
    async def set_search(self, value: str) -> None:
        """Narrow to groups whose base name or a variant name contains ``value``, from page 1."""
        self.search, self.page = str(value)[:SEARCH_MAX], 1
        self._reload()

    @admin_event
    async def go_to_page(self, page: int) -> None:
        """Show another page of groups (clamped to the pages there are)."""
        try:
            self.page = max(1, int(page))
        except (TypeError, ValueError):
            return
        self._reload()

    @admin_event
    async def toggle_group(self, key: str) -> None:
        """Open or close a group's variants (an opened group shows its first 20). One group is open
        at a time: opening one closes the other, so a tab holds one page (VARIANTS_HELD)."""
        group = next((g for g in self.groups if g.key == key), None)
        if group is None:
            return
        if key in self.expanded:
            self.expanded = [k for k in self.expanded if k != key]
            self._opened = {k: n for k, n in self._opened.items() if k != key}
        else:
            self.expanded = [key]
            self._opened = {key: first_shown(group.variant_count)}
        self._reload()

    @admin_event
    async def show_more(self, key: str) -> None:
        """Show 20 more variants of an opened group."""
        group = next((g for g in self.groups if g.key == key), None)
        if group is None or key not in self._opened:
            return
        self._opened = {**self._opened, key: more_variants(self._opened[key], group.variant_count)}
        self._reload()

    async def _product(self, product_id: int) -> tuple[int, str] | None:
        """A variant shown on the page (its id and name), else as read now."""
        shown = next((v for g in self.groups for v in g.variants if v.id == product_id), None)
        if shown is not None:
            return shown.id, shown.name
        with session_scope() as session:
            row = listing.product_row(session, product_id)
        return (row.id, row.name) if row is not None else None

    # ------------------------------------------------------------------ Add Scent

    @admin_event
    async def open_add_scent(self, base_name: str) -> None:
        """Open Add New Scent Variant for a group."""
        if (price := self._first_prices.get(base_name)) is None:
            return
        self.scent_group, self.scent_group_price = base_name, format_plain(price)
        self.scent_name = self.scent_price = self.scent_sale_price = self.scent_stock = ""
        self.scent_open = True

    @admin_event
    def set_scent_open(self, value: bool) -> None:
        """Open or close the dialog."""
        self.scent_open = value

    @admin_event
    def set_scent_field(self, name: str, value: str) -> None:
        """Keep what the admin types (scent, price, sale price, stock)."""
        if name in {"name", "price", "sale_price", "stock"}:
            setattr(self, f"scent_{name}", value)

    @admin_event
    async def save_scent(self):
        """Create the new scent variant from the group's first variation."""
        form = NewScent(self.scent_name, self.scent_price, self.scent_sale_price, self.scent_stock)
        try:
            with session_scope() as session:
                variants.add_scent(session, self.scent_group, form)
        except variants.VariantError as refused:
            return notify.error(str(refused))
        except Exception:
            log.exception("Adding a scent to %r failed", self.scent_group)
            return notify.error(M.VARIANT_ADD_FAILED.value)
        self.scent_open = False
        self._reload()
        return notify.success(M.VARIANT_ADDED.format(scent=" ".join(self.scent_name.split())))

    # ------------------------------------------------------------------ variant actions

    async def _target(self, product_id: int) -> bool:
        if (found := await self._product(product_id)) is None:
            return False
        self.target_id, self.target_name = found
        return True

    @admin_event
    async def open_single(self, product_id: int) -> None:
        """Ask Convert to Single Product's confirmation."""
        self.single_open = await self._target(product_id)

    @admin_event
    def set_single_open(self, value: bool) -> None:
        """Open or close the dialog."""
        self.single_open = value

    @admin_event
    async def confirm_single(self):
        """Rename the variant into a standalone product, then reload after 1 second."""
        self.single_open = False
        try:
            with session_scope() as session:
                name = variants.convert_to_single(session, self.target_id)
        except Exception:
            log.exception("Converting product %s to a standalone product failed", self.target_id)
            return notify.error(M.CONVERT_TO_STANDALONE_FAILED.value)
        return [notify.success(M.CONVERTED_TO_STANDALONE.format(name=name)), GroupedProductsState.reload_soon]

    @admin_event(background=True)
    async def reload_soon(self):
        """The seed's reload 1 second after a conversion, without holding the page meanwhile."""
        await asyncio.sleep(RELOAD_AFTER_S)
        async with self:
            self._reload()

    def _set_active(self, product_id: int, active: bool, done: M, failed: M):
        """Put a variant in the shop or take it out, then reload and say so."""
        try:
            with session_scope() as session:
                svc.set_active(session, product_id, active)
        except svc.NotForSaleError as refused:
            return notify.error(str(refused))
        except Exception:
            log.exception("Setting product %s active=%s failed", product_id, active)
            return notify.error(failed.value)
        self._reload()
        return notify.success(done.value)

    @admin_event
    async def deactivate(self, product_id: int):
        """Deactivate a variant (it leaves the shop, stays here)."""
        return self._set_active(product_id, False, M.DEACTIVATED, M.DEACTIVATE_FAILED)

    @admin_event
    async def activate(self, product_id: int):
        """Put a deactivated variant back in the shop."""
        return self._set_active(product_id, True, M.ACTIVATED, M.STATUS_FAILED)

    @admin_event
    async def open_delete(self, product_id: int) -> None:
        """Ask Delete Product Variant's confirmation."""
        self.delete_open = await self._target(product_id)

    @admin_event
    def set_delete_open(self, value: bool) -> None:
        """Open or close the dialog."""
        self.delete_open = value

    @admin_event
    async def confirm_delete(self):
        """Delete the variant (Square first); an ordered one can only be deactivated."""
        self.delete_open = False
        try:
            outcome = await asyncio.to_thread(delete_in_thread, self.target_id)
        except Exception:
            log.exception("Deleting product %s failed", self.target_id)
            return notify.error(M.VARIANT_DELETE_FAILED.value)
        if outcome.referenced_by_orders:
            return notify.error(M.VARIANT_ORDERED.value)
        self._reload()
        return deleted_notification(outcome, success=M.VARIANT_DELETED.value)
