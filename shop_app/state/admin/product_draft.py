"""What the product wizard and the full-page product form share: typed text, flags, categories, errors.

The text of every input is kept as typed in ``form`` (keys: ``domain.product_draft.DraftField``
values; the keys a screen has are its fields). Publish or Save turns it into the editors' one
``ProductDraft`` (:meth:`ProductDraftMixin._draft`), which the service holds to the one rule set
(``domain.product_editing``) as it saves, so nothing typed is lost when a step changes or a check
fails. ``errors`` holds the message shown next to each field (:meth:`ProductDraftMixin._show_problems`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.product_editing import Problem, ProductDraft, draft_from_form
from shop_app.services.admin.product_creation import (
    CategoryChoice,
    CreatedProduct,
    category_choices,
    create_product,
)
from shop_app.services.admin.product_images import ImageRef, purge_stale_staging
from shop_app.services.square.catalog_sync import SquareCatalog, square_catalog
from shop_app.settings import get_settings
from shop_app.state.admin.guard import admin_event
from shop_app.state.admin.image_picker import ImagePickerMixin

log = logging.getLogger(__name__)


@dataclass
class Choice:
    """An option of a select."""

    value: str = ""
    label: str = ""


@dataclass
class CategoryOption:
    """A main category and its collections."""

    value: str = ""
    label: str = ""
    slug: str = ""
    collections: list[Choice] = field(default_factory=list)


def category_option(choice: CategoryChoice) -> CategoryOption:
    """The select option of a main category."""
    return CategoryOption(
        str(choice.id), choice.name, choice.slug, [Choice(str(i), name) for i, name in choice.collections]
    )


def _catalog() -> SquareCatalog | None:
    try:
        return square_catalog(get_settings())
    except Exception:  # not configured (no token or location): the product is still created
        log.warning("Square catalogue unavailable; creating the product locally only", exc_info=True)
        return None


def create_with_square(draft: ProductDraft, images: list[ImageRef]) -> CreatedProduct:
    """Create the product (all or nothing), then on the configured Square (blocking); a draft the
    rules refuse raises ``DraftInvalid``."""
    return create_product(draft, images, media_dir=get_settings().media_dir, catalog=_catalog())


def _read_categories(include: Iterable[int | None]) -> list[CategoryChoice]:
    with session_scope() as session:
        return category_choices(session, include=include)


class ProductDraftMixin(ImagePickerMixin, mixin=True):
    """Typed fields, Featured / New flags, category choices and per-field errors."""

    form: dict[str, str] = {}
    errors: dict[str, str] = {}
    is_featured: bool = False
    is_new_arrival: bool = False
    categories: list[CategoryOption] = []

    @rx.var
    def collections(self) -> list[Choice]:
        """The collections of the chosen main category."""
        chosen = self.form.get("category", "")
        return next((c.collections for c in self.categories if c.value == chosen), [])

    @rx.var
    def category_label(self) -> str:
        """The chosen main category's name."""
        chosen = self.form.get("category", "")
        return next((c.label for c in self.categories if c.value == chosen), "")

    @rx.var
    def collection_label(self) -> str:
        """The chosen collection's name."""
        chosen = self.form.get("subcategory", "")
        return next((c.label for c in self.collections if c.value == chosen), "")

    def _draft(
        self, *, scent_notes: Sequence[str] | None = None, leave_out: Iterable[str] = ()
    ) -> ProductDraft:
        """The typed fields as the editors' one draft (``leave_out``: form keys not to change)."""
        skipped = set(leave_out)
        form = {key: value for key, value in self.form.items() if key not in skipped}
        return draft_from_form(
            form, is_featured=self.is_featured, is_new_arrival=self.is_new_arrival, scent_notes=scent_notes
        )

    def _show_problems(self, problems: Sequence[Problem]) -> None:
        """Show each problem's message next to its field (the first one per field)."""
        errors: dict[str, str] = {}
        for draft_field, message in problems:
            errors.setdefault(draft_field.value, message)
        self.errors = errors

    async def _load_categories(self, include: Iterable[int | None] = ()) -> None:
        """Offer the active main categories and their collections; purge abandoned uploads."""
        choices = await asyncio.to_thread(_read_categories, tuple(include))
        self.categories = [category_option(choice) for choice in choices]
        await asyncio.to_thread(purge_stale_staging, get_settings().media_dir)

    @admin_event
    async def set_field(self, name: str, value: str) -> None:
        """Keep what was typed into one input (unknown names are ignored)."""
        if name not in self.form:
            return
        self.form[name] = str(value)
        self.errors.pop(name, None)

    @admin_event
    async def set_category(self, value: str) -> None:
        """Choose the main category; its collections replace the previous ones."""
        self.form["category"] = str(value)
        self.form["subcategory"] = ""
        self.errors.pop("category", None)

    @admin_event
    async def set_featured(self, value: bool) -> None:
        """The Featured flag."""
        self.is_featured = bool(value)

    @admin_event
    async def set_new_arrival(self, value: bool) -> None:
        """The New Arrival flag."""
        self.is_new_arrival = bool(value)
