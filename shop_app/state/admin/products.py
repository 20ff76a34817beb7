"""State of Manage Products, individual view (docs/spec/admin-products.md#manage, #delete, #edit).

``ManageProductsState`` is the list: one page of rows at a time, searched, filtered, counted and
paged by the database (``services.admin.product_listing``), like the orders list; the stats cards
are counted there too. After a change only the current page and the cards are read again. Each
dialog owns its state: ``ProductEditState`` (Edit Product), ``ProductConvertState`` (Convert to
Variant) and ``ProductDeleteState`` (Delete Product, then archive instead); they read the product
from the database and have the list's page re-read after a change. Every handler is an
``admin_event`` (the role is re-checked on the server first); a refused call changes and reveals
nothing. The rules live in ``domain`` and ``services.admin``; these states only move values
between the dialogs and those services. Edit Product is one of the three product editors: its
fields make the editors' one ``ProductDraft``, saved by the full-page form's service
(``product_form.update_product``) under the one rule set, each message shown under its field.
"""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.admin_listing import SEARCH_MAX, page_text
from shop_app.domain.admin_messages import ProductAdminMessage as M
from shop_app.domain.admin_messages import ProductDraftText
from shop_app.domain.money import format_plain
from shop_app.domain.product_draft import DraftField
from shop_app.domain.product_editing import DraftInvalid, ProductDraft, draft_from_form, update_enabled
from shop_app.domain.square_agreement import kept_names
from shop_app.services.admin import product_listing as listing
from shop_app.services.admin import products as svc
from shop_app.services.admin import variants
from shop_app.services.admin.product_form import (
    ProductUpdateError,
    edit_values_of_row,
    read_product_for_edit,
    update_product,
)
from shop_app.services.admin.products import AdminProductRow, CategoryChoice
from shop_app.settings import get_settings
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.admin.product_delete import DeleteOrArchiveMixin
from shop_app.state.admin.product_views import (
    ALL,
    NONE,
    Choice,
    ProductRowView,
    category_id,
    choices,
    row_view,
    sync_in_thread,
)
from shop_app.state.auth import private_state

log = logging.getLogger(__name__)

# The dialog's text inputs and the draft field each one is (the key of its message in edit_errors).
_EDIT_FIELDS: dict[str, DraftField] = {
    "name": DraftField.NAME,
    "description": DraftField.DESCRIPTION,
    "base_price": DraftField.BASE_PRICE,
    "sale_price": DraftField.SALE_PRICE,
    "stock": DraftField.STOCK,
}


def _choice(value: str) -> str:
    """A filter's value: a category id, else "all"."""
    return value if category_id(value) is not None else ALL


def _save_edit(product_id: int, draft: ProductDraft, stock_seen: int, version_seen: str) -> None:
    update_product(
        product_id,
        draft,
        None,
        media_dir=get_settings().media_dir,
        stock_seen=stock_seen,
        version_seen=version_seen,
    )


@private_state
class ManageProductsState(AdminGuardMixin, rx.State):
    """The individual view: one page of the list, filters, stats, the Active switch and the sync
    from Square."""

    _categories: list[CategoryChoice] = []
    _page_rows: list[AdminProductRow] = []  # the page on show, as read (the dialogs open from it)
    loaded: bool = False
    rows: list[ProductRowView] = []
    has_products: bool = False
    total: int = 0
    active: int = 0
    featured: int = 0
    low_stock: int = 0
    search: str = ""
    category: str = ALL
    subcategory: str = ALL
    main_categories: list[Choice] = []
    filter_subcategories: list[Choice] = []
    page: int = 1
    pages: int = 1
    matches: int = 0
    syncing: bool = False

    @rx.var
    def page_text(self) -> str:
        """ "Page 2 of 5 · 93 products"."""
        return page_text(self.page, self.pages, self.matches, "product")

    # ------------------------------------------------------------------ loading and filtering

    def _reload(self) -> None:
        """Read the categories, the cards and the current page."""
        with session_scope() as session:
            self._categories = svc.category_choices(session)
            stats = listing.product_counts(session)
        self.main_categories = choices(self._categories, None)
        self.total, self.active, self.featured, self.low_stock = (
            stats.total,
            stats.active,
            stats.featured,
            stats.low_stock,
        )
        self.has_products = stats.total > 0
        self._apply()
        self.loaded = True

    def _apply(self) -> None:
        """Read the current page of the search and filters."""
        category = category_id(self.category)
        self.filter_subcategories = choices(self._categories, category) if category is not None else []
        with session_scope() as session:
            found = listing.list_products(
                session,
                search=self.search,
                category_id=category,
                subcategory_id=category_id(self.subcategory),
                page=self.page,
            )
        self._page_rows = list(found.rows)
        self.rows = [row_view(row) for row in found.rows]
        self.page, self.pages, self.matches = found.page, found.pages, found.total

    def _row(self, product_id: int) -> AdminProductRow | None:
        """A product of the page on show, else as read now (None: it no longer exists)."""
        row = next((row for row in self._page_rows if row.id == product_id), None)
        if row is not None:
            return row
        with session_scope() as session:
            return listing.product_row(session, product_id)

    @admin_event(failure=M.LOAD_FAILED.value)
    async def load(self) -> None:
        """Read the list (admins only); search, filters and page are kept."""
        self._reload()

    @admin_event
    async def set_search(self, value: str) -> None:
        """Narrow the list to names, ids or category names containing ``value``, from page 1."""
        self.search, self.page = str(value)[:SEARCH_MAX], 1
        self._apply()

    @admin_event
    async def set_category(self, value: str) -> None:
        """Filter by main category; the subcategory filter starts again."""
        self.category, self.subcategory, self.page = _choice(value), ALL, 1
        self._apply()

    @admin_event
    async def set_subcategory(self, value: str) -> None:
        """Filter by subcategory of the chosen category."""
        self.subcategory, self.page = _choice(value), 1
        self._apply()

    @admin_event
    async def clear_filters(self) -> None:
        """Clear Filters: no search, every category."""
        self.search, self.category, self.subcategory, self.page = "", ALL, ALL, 1
        self._apply()

    @admin_event
    async def go_to_page(self, page: int) -> None:
        """Show another page (clamped to the pages there are)."""
        try:
            self.page = max(1, int(page))
        except (TypeError, ValueError):
            return
        self._apply()

    # ------------------------------------------------------------------ status

    @admin_event
    async def toggle_active(self, product_id: int):
        """Archive an active product or activate an archived one."""
        try:
            row = self._row(product_id)
            if row is None:
                raise svc.ProductNotFoundError(product_id)
            with session_scope() as session:
                svc.set_active(session, product_id, not row.is_active)
        except svc.NotForSaleError as refused:
            return notify.error(str(refused))
        except Exception:
            log.exception("Changing the status of product %s failed", product_id)
            return notify.error(M.STATUS_FAILED.value)
        self._reload()
        return notify.success((M.ARCHIVED if row.is_active else M.ACTIVATED).value)

    # ------------------------------------------------------------------ sync

    @admin_event(background=True)
    async def sync_square(self):
        """Sync from Square without freezing the page; 'Syncing...' shows meanwhile."""
        async with self:
            if self.syncing:
                return
            self.syncing = True
        yield notify.info(M.SYNC_STARTING.value)
        try:
            outcome = await asyncio.to_thread(sync_in_thread)
        except Exception as exc:
            log.warning("Sync from Square failed: %r", exc)
            async with self:
                self.syncing = False
            yield notify.error(M.SYNC_FAILED.format(message=str(exc) or type(exc).__name__))
            return
        async with self:
            self.syncing = False
            self._reload()
        yield notify.success(M.SYNC_DONE.format(n=outcome.synced))
        if outcome.kept:
            yield notify.warning(M.SYNC_KEPT.format(n=len(outcome.kept), names=kept_names(outcome.kept)))


@private_state
class ProductEditState(AdminGuardMixin, rx.State):
    """Edit Product: the product's values as typed, until Update or Cancel."""

    edit_open: bool = False
    edit_id: int = 0
    edit_name: str = ""
    edit_description: str = ""
    edit_base_price: str = ""
    edit_sale_price: str = ""
    edit_category: str = NONE
    edit_subcategory: str = NONE
    edit_stock: str = ""
    edit_active: bool = True
    edit_featured: bool = False
    edit_new: bool = False
    edit_categories: list[Choice] = []
    edit_subcategories: list[Choice] = []
    edit_errors: dict[str, str] = {}  # draft field → the message shown under it
    _categories: list[CategoryChoice] = []
    _stock_seen: int = 0  # the stock when the dialog was opened
    _version_seen: str = ""  # the product's content version then (product_form.content_version)

    @rx.var
    def can_update(self) -> bool:
        """Update is disabled while the name is empty or the base price is 0 or less."""
        return update_enabled(self.edit_name, self.edit_base_price)

    @admin_event
    async def open_edit(self, product_id: int):
        """Open Edit Product with the product's values as stored now (not as the list row shows
        them: the list may be older than another tab's edit).

        When the product cannot be read (the database failing), the dialog opens with the list's
        row and an unknown version: Update then says what failed, or, once the database is back,
        that the product must be opened again, and never writes over values it did not read.
        """
        products = await self.get_state(ManageProductsState)
        try:
            product = await asyncio.to_thread(read_product_for_edit, int(product_id))
        except Exception:
            log.exception("Reading product %s for Edit Product failed", product_id)
            if (row := products._row(int(product_id))) is None:
                return notify.error(M.UPDATE_FAILED.value)
            product = edit_values_of_row(row)
        if product is None:
            return notify.error(ProductDraftText.PRODUCT_NOT_FOUND.value)
        self._categories = list(products._categories)
        self.edit_id, self.edit_name = product.product_id, product.name
        self.edit_description = product.description
        self.edit_base_price = format_plain(product.base_price_cents)
        self.edit_sale_price = format_plain(product.sale_price_cents) if product.sale_price_cents else ""
        self.edit_category = str(product.category_id) if product.category_id else NONE
        self.edit_subcategory = str(product.subcategory_id) if product.subcategory_id else NONE
        self.edit_categories = choices(self._categories, None)
        category = product.category_id
        self.edit_subcategories = choices(self._categories, category) if category else []
        self.edit_stock = str(product.stock_quantity)
        self._stock_seen, self._version_seen = product.stock_quantity, product.version
        self.edit_errors = {}
        self.edit_active, self.edit_featured, self.edit_new = (
            product.is_active,
            product.is_featured,
            product.is_new_arrival,
        )
        self.edit_open = True
        return None

    @admin_event
    def set_edit_open(self, value: bool) -> None:
        """Open or close the dialog (closing keeps nothing)."""
        self.edit_open = value

    @admin_event
    def set_edit_field(self, field: str, value: str) -> None:
        """Keep what the admin types in a text field of the dialog."""
        if field in _EDIT_FIELDS:
            setattr(self, f"edit_{field}", str(value))
            self.edit_errors.pop(_EDIT_FIELDS[field].value, None)

    @admin_event
    def set_edit_flag(self, field: str, value: bool) -> None:
        """Keep a switch of the dialog (Active, Featured, New Arrival)."""
        if field in {"active", "featured", "new"}:
            setattr(self, f"edit_{field}", bool(value))

    @admin_event
    async def set_edit_category(self, value: str) -> None:
        """Choose the category; the subcategory starts again among its children."""
        self.edit_category, self.edit_subcategory = value, NONE
        category = category_id(value)
        self.edit_subcategories = choices(self._categories, category) if category is not None else []
        self.edit_errors.pop(DraftField.CATEGORY.value, None)
        self.edit_errors.pop(DraftField.SUBCATEGORY.value, None)

    @admin_event
    def set_edit_subcategory(self, value: str) -> None:
        """Choose the collection (or none)."""
        self.edit_subcategory = value
        self.edit_errors.pop(DraftField.SUBCATEGORY.value, None)

    def _draft(self) -> ProductDraft:
        """The dialog's fields as the editors' one draft (it has no Product ID, gallery or details)."""
        form = {
            DraftField.NAME.value: self.edit_name,
            DraftField.DESCRIPTION.value: self.edit_description,
            DraftField.BASE_PRICE.value: self.edit_base_price,
            DraftField.SALE_PRICE.value: self.edit_sale_price,
            DraftField.CATEGORY.value: "" if self.edit_category == NONE else self.edit_category,
            DraftField.SUBCATEGORY.value: "" if self.edit_subcategory == NONE else self.edit_subcategory,
            DraftField.STOCK.value: self.edit_stock,
        }
        return draft_from_form(
            form, is_featured=self.edit_featured, is_new_arrival=self.edit_new, is_active=self.edit_active
        )

    @admin_event
    async def save_edit(self):
        """Update under the editors' one rule set; a refused field keeps the dialog open with its
        message under it. A second click on Update (its event runs after the first save closed the
        dialog) does nothing."""
        if not self.edit_open:
            return None
        try:
            await asyncio.to_thread(
                _save_edit, self.edit_id, self._draft(), self._stock_seen, self._version_seen
            )
        except DraftInvalid as invalid:
            self.edit_errors = {field.value: message for field, message in invalid.problems}
            return notify.error(invalid.problems[0][1])
        except ProductUpdateError as error:
            return notify.error(str(error))
        except Exception:
            log.exception("Updating product %s failed", self.edit_id)
            return notify.error(M.UPDATE_FAILED.value)
        self.edit_errors = {}
        self.edit_open = False
        (await self.get_state(ManageProductsState))._reload()
        return notify.success(M.UPDATED.value)


@private_state
class ProductConvertState(AdminGuardMixin, rx.State):
    """Convert to Variant: the product, the vessel group chosen (or a new one) and the scent."""

    convert_open: bool = False
    convert_id: int = 0
    convert_product: str = ""
    convert_group: str = ""
    convert_new_vessel: str = ""
    convert_scent: str = ""
    group_names: list[str] = []

    @admin_event
    async def open_convert(self, product_id: int) -> None:
        """Open Convert to Variant for a product."""
        if (row := (await self.get_state(ManageProductsState))._row(product_id)) is None:
            return
        try:
            with session_scope() as session:
                self.group_names = listing.vessel_group_names(session)
        except Exception:  # the dialog still opens; converting will say what failed
            log.exception("Reading the vessel groups failed")
            self.group_names = []
        self.convert_id, self.convert_product = row.id, row.name
        self.convert_group, self.convert_new_vessel, self.convert_scent = "", "", ""
        self.convert_open = True

    @admin_event
    def set_convert_open(self, value: bool) -> None:
        """Open or close the dialog."""
        self.convert_open = value

    @admin_event
    def set_convert_field(self, field: str, value: str) -> None:
        """Keep the chosen group, the new vessel's name or the scent."""
        if field in {"group", "new_vessel", "scent"}:
            setattr(self, f"convert_{field}", value)

    @admin_event
    async def save_convert(self):
        """Rename the product into the chosen (or new) vessel group."""
        try:
            with session_scope() as session:
                group = variants.convert_to_variant(
                    session,
                    self.convert_id,
                    group=self.convert_group,
                    new_vessel=self.convert_new_vessel,
                    scent=self.convert_scent,
                )
        except variants.VariantError as refused:
            return notify.error(str(refused))
        except Exception:
            log.exception("Converting product %s to a variant failed", self.convert_id)
            return notify.error(M.CONVERT_TO_VARIANT_FAILED.value)
        self.convert_open = False
        (await self.get_state(ManageProductsState))._reload()
        scent = " ".join(self.convert_scent.split())
        return notify.success(M.CONVERTED_TO_VARIANT.format(scent=scent, group=group))


@private_state
class ProductDeleteState(DeleteOrArchiveMixin, rx.State):
    """Delete Product, and Archive Product instead for an ordered one (``product_delete``)."""

    async def _product_name(self, product_id: int) -> str | None:
        row = (await self.get_state(ManageProductsState))._row(product_id)
        return row.name if row is not None else None

    async def _after_change(self) -> None:
        (await self.get_state(ManageProductsState))._reload()
