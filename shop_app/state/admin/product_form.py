"""State of the full-page product form: add (/admin/products/new) and edit (/admin/products/edit/{id},
also the low-stock mail's "Restock" link).

Spec: docs/spec/admin-products.md#local-form, #one-editor. The Product ID is the product's SKU
(``domain.product_draft``); in edit mode it is shown locked. Save hands the form's draft to the
service, which holds it to the editors' one rule set; each message is shown beside its field,
keeping everything typed. Adding creates the product like the wizard does (``create_product``,
then Square); editing saves fields, stock and gallery in one transaction (``update_product``; the
stock only when it was changed here). Success: a notification and back to /admin.

A page load keeps the draft when it is for the same product (a reconnect re-runs on-load
handlers); opening another product, or Add after an edit, starts afresh.
"""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from shop_app import routes
from shop_app.domain.admin_messages import BackendMessage, ProductAdminMessage, ProductDraftText
from shop_app.domain.money import format_plain
from shop_app.domain.product_draft import parse_id
from shop_app.domain.product_editing import DraftInvalid, ProductDraft, add_scent_note
from shop_app.services.admin.product_creation import ProductCreationError
from shop_app.services.admin.product_form import (
    ProductChangedElsewhere,
    ProductForEdit,
    ProductUpdateError,
    read_product_for_edit,
    update_product,
)
from shop_app.services.admin.product_images import ImageRef
from shop_app.settings import get_settings
from shop_app.state import notify
from shop_app.state.admin.guard import admin_event
from shop_app.state.admin.image_picker import picked
from shop_app.state.admin.product_draft import ProductDraftMixin, create_with_square
from shop_app.state.auth import private_state

log = logging.getLogger(__name__)

FORM_FIELDS: tuple[str, ...] = (
    "sku",
    "name",
    "description",
    "category",
    "subcategory",
    "base_price",
    "sale_price",
    "stock_quantity",
    "size",
    "burn_time",
    "ingredients",
)
NEW = "new"


def _form_of(product: ProductForEdit) -> dict[str, str]:
    return {
        "sku": product.sku or f"#{product.product_id}",  # a product without a code shows its number
        "name": product.name,
        "description": product.description,
        "category": str(product.category_id or ""),
        "subcategory": str(product.subcategory_id or ""),
        "base_price": format_plain(product.base_price_cents),
        "sale_price": format_plain(product.sale_price_cents) if product.sale_price_cents else "",
        "stock_quantity": str(product.stock_quantity),
        "size": product.size,
        "burn_time": product.burn_time,
        "ingredients": ", ".join(product.ingredients),
    }


def _save(
    product_id: int | None,
    draft: ProductDraft,
    images: list[ImageRef],
    stock_seen: int | None,
    version_seen: str | None,
) -> str:
    """Add or update; the success text to show."""
    if product_id is None:
        return create_with_square(draft, images).message
    update_product(
        product_id,
        draft,
        images,
        media_dir=get_settings().media_dir,
        stock_seen=stock_seen,
        version_seen=version_seen,
    )
    return ProductAdminMessage.UPDATED.value


@private_state
class ProductFormState(ProductDraftMixin, rx.State):
    """The form's fields, scent notes, mode and per-field messages."""

    scent_notes: list[str] = []
    editing: bool = False  # edit mode: the Product ID is locked
    missing: bool = False  # the product to edit does not exist
    saving: bool = False
    _product_id: int | None = None
    _stock_seen: int | None = None  # the edited product's stock when the form was opened
    _version_seen: str | None = None  # its content version then (product_form.content_version)
    _loaded: str = ""  # "new" or the edited product's id: which draft the fields hold

    @rx.var
    def heading(self) -> str:
        """Add Product or Edit Product."""
        return "Edit Product" if self.editing else "Add Product"

    def _start(self, key: str) -> None:
        self._forget_staged()
        self.form = {**dict.fromkeys(FORM_FIELDS, ""), "stock_quantity": "0"}  # a new product: none yet
        self.images, self.scent_notes, self.errors, self._stock_seen = [], [], {}, None
        self._version_seen = None
        self.is_featured = self.is_new_arrival = self.missing = self.saving = False
        self.editing, self._product_id, self._loaded = key != NEW, parse_id(key), key

    @admin_event
    async def load(self):
        """Add: an empty form; edit: the product's values (admins only)."""
        segments = self.router.url.path.rstrip("/").split("/")  # …/edit/{product_id} or …/new
        raw = segments[-1] if len(segments) > 1 and segments[-2] == "edit" else ""
        key = str(parse_id(raw) or raw or NEW)
        # The same product again keeps what was typed (a reconnect re-runs this), unless the
        # draft was refused: opened again, the page shows the product as stored, not values the
        # rules turned down (which would block every later save until fixed by hand).
        if key == self._loaded and not self.errors:
            await self._load_categories(include=(parse_id(self.form.get("category")),))
            return
        self._start(key)
        if self.editing:
            product = (
                await asyncio.to_thread(read_product_for_edit, self._product_id) if self._product_id else None
            )
            if product is None:
                self.missing = True
                yield notify.error(ProductDraftText.PRODUCT_NOT_FOUND.value)
                return
            self.form = _form_of(product)
            self._stock_seen, self._version_seen = product.stock_quantity, product.version
            self.images = [picked(image) for image in product.images]
            self.scent_notes = list(product.scent_notes)
            self.is_featured, self.is_new_arrival = product.is_featured, product.is_new_arrival
        await self._load_categories(
            include=(parse_id(self.form["category"]), parse_id(self.form["subcategory"]))
        )

    @admin_event
    async def add_scent_note(self, data: dict) -> None:
        """Add the typed note (Enter or the Add button): trimmed, duplicates not added."""
        self.scent_notes = list(add_scent_note(self.scent_notes, str(data.get("scent_note", ""))))
        if self.scent_notes:
            self.errors.pop("scent_notes", None)

    @admin_event
    async def remove_scent_note(self, index: int) -> None:
        """Remove one scent note."""
        if 0 <= index < len(self.scent_notes):
            self.scent_notes.pop(index)

    @admin_event
    async def save(self):
        """Add or update (the editors' one rule set: each message beside its field); success → /admin."""
        if self.saving or self.missing:
            return
        # The Product ID is locked in edit mode: it is not part of an edit.
        draft = self._draft(scent_notes=self.scent_notes, leave_out=("sku",) if self.editing else ())
        self.saving = True
        yield
        try:
            message = await asyncio.to_thread(
                _save, self._product_id, draft, self._image_refs(), self._stock_seen, self._version_seen
            )
        except DraftInvalid as invalid:
            self.saving = False
            self._show_problems(invalid.problems)
            yield notify.error(invalid.problems[0][1])
            return
        except (ProductCreationError, ProductUpdateError) as error:
            self.saving = False
            if isinstance(error, ProductChangedElsewhere):
                self._loaded = ""  # opened again (a reload, a link): the product as stored now
            yield notify.error(str(error))
            return
        except Exception:
            log.exception("saving product %s failed", self._product_id)
            self.saving = False
            failed = ProductAdminMessage.UPDATE_FAILED.value
            if not self.editing:
                failed = ProductAdminMessage.CREATE_FAILED.format(message=BackendMessage.UNKNOWN_ERROR)
            yield notify.error(failed)
            return
        self.reset()
        yield [notify.success(message), rx.redirect(routes.ADMIN)]
