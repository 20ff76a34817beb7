"""What the product wizard and the local product form share: typed text, flags, categories, errors.

The text of every input is kept as typed in ``form`` (keys: ``domain.product_draft.DraftField``
values); the domain rules turn it into a product only on Publish or Save, so nothing typed is lost
when a step changes or a check fails. ``errors`` holds the message shown next to each field.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.product_draft import NewProduct
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


def create_with_square(draft: NewProduct, images: list[ImageRef]) -> CreatedProduct:
    """Create the product (all or nothing), then on the configured Square (blocking)."""
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
