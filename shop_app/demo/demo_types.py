"""The demo catalogue's record types: categories, products and website images.

Pure data, no I/O.  Money is integer cents; a product's name follows the shop's
naming pattern (:mod:`shop_app.domain.product_names`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from shop_app.domain.product_names import SCENT_SEPARATOR, split_scent

from .artwork import CARD_IMAGE_SIZE, HERO_IMAGE_SIZE, DemoImageSpec

__all__ = ["PRODUCT_TYPES", "DemoCategory", "DemoProduct", "DemoWebsiteImage", "ProductType"]

ProductType = Literal["candles", "body-care", "home-fragrance"]
PRODUCT_TYPES: tuple[str, ...] = ("candles", "body-care", "home-fragrance")

_DECIMAL = re.compile(r"^\d+(\.\d+)?$")


@dataclass(frozen=True, slots=True)
class DemoCategory:
    """A catalogue category; ``parent`` is the parent's name (``None`` for a main category)."""

    name: str
    description: str
    sort_order: int
    parent: str | None = None


@dataclass(frozen=True, slots=True)
class DemoProduct:
    """One sellable product (one variation: a size, vessel and scent)."""

    name: str
    description: str
    category: str
    subcategory: str | None
    product_type: ProductType
    base_price_cents: int
    sale_price_cents: int | None
    stock_quantity: int
    is_new: bool
    is_featured: bool
    scent_notes: tuple[str, ...]
    size: str | None
    burn_time: str | None
    volume: str | None
    ingredients: tuple[str, ...]
    care_instructions: str | None
    weight_oz: str | None
    dimensions: str | None
    sku: str
    image: DemoImageSpec
    #: Scents the shopper picks on the product page (an option of this one product, not variations).
    option_scents: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if SCENT_SEPARATOR not in self.name:
            raise ValueError(f"product name must contain {SCENT_SEPARATOR!r}: {self.name!r}")
        if self.product_type not in PRODUCT_TYPES:
            raise ValueError(f"unknown product type {self.product_type!r}")
        for field in ("base_price_cents", "stock_quantity"):
            value = getattr(self, field)
            if type(value) is not int:
                raise ValueError(f"{field} must be an int, got {value!r}")
        if self.base_price_cents <= 0:
            raise ValueError("base price must be positive")
        if self.stock_quantity < 0:
            raise ValueError("stock must not be negative")
        if self.sale_price_cents is not None and (
            type(self.sale_price_cents) is not int or not 0 < self.sale_price_cents < self.base_price_cents
        ):
            raise ValueError(f"sale price must be an int between 0 and the base price: {self.name!r}")
        if self.weight_oz is not None and not _DECIMAL.match(self.weight_oz):
            raise ValueError(f"weight_oz must be a decimal string, got {self.weight_oz!r}")

    @property
    def is_on_sale(self) -> bool:
        return self.sale_price_cents is not None

    @property
    def price_cents(self) -> int:
        """What the customer pays: the sale price when set, else the base price."""
        return self.sale_price_cents if self.sale_price_cents is not None else self.base_price_cents

    @property
    def base_name(self) -> str:
        """The part before ``" - "`` (size, vessel and product type)."""
        return split_scent(self.name)[0]

    @property
    def scent(self) -> str:
        """The part after ``" - "``."""
        return split_scent(self.name)[1] or ""


@dataclass(frozen=True, slots=True)
class DemoWebsiteImage:
    """A stored site image (hero, category cards, mission, about)."""

    image_type: str
    alt_text: str
    spec: DemoImageSpec

    @property
    def size(self) -> tuple[int, int]:
        """Pixel size to render: 2100x900 for the hero, 1200x900 otherwise."""
        return HERO_IMAGE_SIZE if self.image_type == "hero" else CARD_IMAGE_SIZE
