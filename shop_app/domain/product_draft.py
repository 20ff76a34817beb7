"""The product editors' inputs: parsing what was typed, and the wizard's own helpers
(docs/spec/admin-products.md#wizard, #one-editor, #product-record, #wizard-validation, #creation;
docs/spec/limits.md#back-office).

The wizard, the Edit Product dialog and the full-page form keep what the administrator typed as
text; :mod:`shop_app.domain.product_editing` holds their one set of fields and one rule set and
turns a valid draft into a :class:`NewProduct`, the typed product the services write. This module
holds the pieces it is built from and what only the wizard needs:

- prices are decimals with step 0.01 and minimum 0 (``domain.money.parse_dollars``), stored as
  cents; stock is a whole number; weight is a decimal in ounces with step 0.1;
- optional values left empty become ``None`` (stored NULL): sale price, cost price, weight,
  dimensions, care instructions, SEO texts; ingredients and tags are ``None`` when the list is
  empty (docs/spec/admin-products.md#wizard-validation). A sale price of 0 is no sale price (the
  edit rule of docs/spec/admin-products.md#edit: "0 or less saved as null");
- the wizard's steps, its percent-complete readout, its pricing preview and when Publish is
  enabled (:func:`publish_ready`); Next checks nothing, Publish checks everything and the wizard
  goes back to the step of the first field in error (:func:`step_of`).

The form's "Product ID" is the product's SKU (its code, unique, the same value Square's
variation carries); the database id is an internal number the administrator never types.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Final

from shop_app.domain import free_text
from shop_app.domain.admin_messages import ProductDraftText
from shop_app.domain.badges import discount_percent, profit_margin
from shop_app.domain.messages import MoneyMessage
from shop_app.domain.money import format_cents, parse_dollars, round_half_up_div
from shop_app.domain.slugs import category_slug

STEP_COUNT: Final = 6
STEP_TITLES: Final[tuple[str, ...]] = (
    "Basic Information",
    "Product Images",
    "Pricing & Sales",
    "Category & Collection",
    "Inventory & Shipping",
    "Review & Publish",
)
# docs/spec/admin-products.md#types-and-collections
PRODUCT_TYPES: Final[tuple[str, ...]] = ("candles", "body-care", "home-fragrance")
MAX_AMOUNT_CENTS: Final = 100_000_000  # $1,000,000.00: far above any price, far below the column
MAX_STOCK: Final = 1_000_000
MAX_WEIGHT_OZ: Final = Decimal("99999.9")
WEIGHT_STEP: Final = Decimal("0.1")
SKU_SLUG_CHARS: Final = 40  # slug + "-" + 13-digit ms timestamp + "-" + token stays within 64


class DraftField(StrEnum):
    """The inputs of the two screens; the value is the form key."""

    NAME = "name"
    DESCRIPTION = "description"
    SKU = "sku"  # the wizard's SKU and the local form's Product ID
    IMAGES = "images"
    BASE_PRICE = "base_price"
    SALE_PRICE = "sale_price"
    COST_PRICE = "cost_price"
    CATEGORY = "category"
    SUBCATEGORY = "subcategory"
    TAGS = "tags"
    STOCK = "stock_quantity"
    WEIGHT = "weight"
    DIMENSIONS = "dimensions"
    CARE = "care_instructions"
    INGREDIENTS = "ingredients"
    SEO_TITLE = "seo_title"
    SEO_DESCRIPTION = "seo_description"
    SCENT_NOTES = "scent_notes"
    SIZE = "size"
    BURN_TIME = "burn_time"


F = DraftField
# Column limits of models.catalog.Product (and of the details texts).
TEXT_LIMITS: Final[Mapping[DraftField, int]] = {
    F.NAME: 255,
    F.SKU: 64,
    F.DIMENSIONS: 255,
    F.SEO_TITLE: 255,
    F.SEO_DESCRIPTION: 500,
    F.SIZE: 100,
    F.BURN_TIME: 100,
}
MULTILINE_FIELDS: Final = frozenset({F.DESCRIPTION, F.CARE, F.SEO_DESCRIPTION})
"""Texts that keep their line breaks; the others are one line."""
FIELD_LABELS: Final[Mapping[DraftField, str]] = {
    F.NAME: "Product name",
    F.SKU: "SKU",
    F.DIMENSIONS: "Dimensions",
    F.SEO_TITLE: "SEO title",
    F.SEO_DESCRIPTION: "SEO description",
    F.SIZE: "Size",
    F.BURN_TIME: "Burn time",
}
_WIZARD_STEPS: Final[Mapping[DraftField, int]] = {
    F.NAME: 1,
    F.DESCRIPTION: 1,
    F.SKU: 1,
    F.IMAGES: 2,
    F.BASE_PRICE: 3,
    F.SALE_PRICE: 3,
    F.COST_PRICE: 3,
    F.CATEGORY: 4,
    F.SUBCATEGORY: 4,
    F.TAGS: 4,
}
_WHOLE_NUMBER = re.compile(r"[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)
_LIST_SEPARATORS = re.compile(r"[,\n]")


class DraftError(ValueError):
    """One input is not acceptable; ``message`` is the text to show next to ``field``."""

    def __init__(self, field: DraftField, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class NewProduct:
    """A product as the services write it: typed, trimmed, empties as ``None``."""

    name: str
    description: str
    base_price_cents: int
    stock_quantity: int
    category_id: int | None
    subcategory_id: int | None = None
    sku: str | None = None
    sale_price_cents: int | None = None
    cost_price_cents: int | None = None
    is_featured: bool = False
    is_new_arrival: bool = False
    weight_oz: Decimal | None = None
    dimensions: str | None = None
    care_instructions: str | None = None
    ingredients: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    seo_title: str | None = None
    seo_description: str | None = None
    scent_notes: tuple[str, ...] = ()
    details: tuple[tuple[str, str], ...] = ()  # ("size", "8 oz"), ("burn_time", "50 hours")


@dataclass(frozen=True, slots=True)
class PricePreview:
    """The wizard's pricing preview: shown only while the sale price is below the regular one."""

    discount_percent: int
    margin_cents: int | None  # with a cost price: selling (sale) price minus cost
    margin_percent: int | None


# --------------------------------------------------------------------------- single values


def optional_text(text: str | None, field: DraftField) -> str | None:
    """Sanitised text (``domain.free_text``), ``None`` when empty; longer than the column allows →
    :class:`DraftError`."""
    value = _multiline_or_one(text or "", field)
    limit = TEXT_LIMITS.get(field)
    if limit is not None and len(value) > limit:
        label = FIELD_LABELS.get(field, field.value)
        raise DraftError(field, ProductDraftText.TOO_LONG.format(field=label, limit=limit))
    return value or None


def _multiline_or_one(value: str, field: DraftField) -> str:
    return free_text.multiline(value) if field in MULTILINE_FIELDS else free_text.one_line(value)


def parse_price(text: str | None, field: DraftField, *, required: bool = False) -> int | None:
    """Dollars (step 0.01, min 0) as cents; ``None`` when empty and not required.

    Examples:
        >>> parse_price("12.5", F.BASE_PRICE), parse_price(" ", F.SALE_PRICE)
        (1250, None)
    """
    body = (text or "").strip()
    if not body:
        if required:
            raise DraftError(field, MoneyMessage.EMPTY.value)
        return None
    try:
        cents = parse_dollars(body)
    except ValueError as error:
        raise DraftError(field, str(error)) from error
    if cents > MAX_AMOUNT_CENTS:
        raise DraftError(field, ProductDraftText.AMOUNT_TOO_LARGE.format(max=format_cents(MAX_AMOUNT_CENTS)))
    return cents


def parse_stock(text: str | None) -> int:
    """A whole number of units from 0 to :data:`MAX_STOCK` (required).

    Examples:
        >>> parse_stock(" 12 ")
        12
    """
    body = (text or "").strip()
    if not _WHOLE_NUMBER.fullmatch(body) or int(body) > MAX_STOCK:
        raise DraftError(F.STOCK, ProductDraftText.STOCK_INVALID.format(max=f"{MAX_STOCK:,}"))
    return int(body)


def parse_weight(text: str | None) -> Decimal | None:
    """Ounces with step 0.1 (``"2.50"`` is 2.5, ``"2.55"`` is refused); ``None`` when empty.

    Examples:
        >>> parse_weight("8"), parse_weight("2.50"), parse_weight("")
        (Decimal('8.0'), Decimal('2.5'), None)
    """
    body = (text or "").strip()
    if not body:
        return None
    problem = DraftError(F.WEIGHT, ProductDraftText.WEIGHT_INVALID.format(max=MAX_WEIGHT_OZ))
    if not _DECIMAL.fullmatch(body):
        raise problem
    value = Decimal(body)
    if value % WEIGHT_STEP or value > MAX_WEIGHT_OZ:
        raise problem
    return value.quantize(WEIGHT_STEP)


def parse_list(text: str | None) -> tuple[str, ...] | None:
    """Comma- or line-separated entries, trimmed, duplicates dropped; ``None`` when empty.

    Examples:
        >>> parse_list("soy wax, cotton wick,\\n Soy wax"), parse_list(" , ")
        (('soy wax', 'cotton wick'), None)
    """
    items: list[str] = []
    for part in _LIST_SEPARATORS.split(text or ""):
        item = free_text.one_line(part)
        if item and all(item.casefold() != seen.casefold() for seen in items):
            items.append(item)
    return tuple(items) or None


def parse_id(text: str | int | None) -> int | None:
    """A select's value as a database id; ``None`` when empty or not an id."""
    body = str(text if text is not None else "").strip()
    return int(body) if _WHOLE_NUMBER.fullmatch(body) and int(body) > 0 else None


def product_type_for(main_category_slug: str | None) -> str | None:
    """The seed's product type of a main category (candles, body-care, home-fragrance) or None."""
    return main_category_slug if main_category_slug in PRODUCT_TYPES else None


def default_sku(name: str, *, timestamp_ms: int, token: str) -> str:
    """The SKU given to a product created without one (docs/spec/admin-products.md#creation): slug, timestamp,
    random text.

    Examples:
        >>> default_sku("Lavender Fields Candle", timestamp_ms=1718000000000, token="x7k2q9")
        'lavender-fields-candle-1718000000000-x7k2q9'
    """
    slug = category_slug(name)[:SKU_SLUG_CHARS].strip("-") or "product"
    return f"{slug}-{timestamp_ms}-{token}"


def image_alt_text(name: str, position: int) -> str:
    """The alt text of a product's image number ``position`` (1-based): "{name} Image N".

    Examples:
        >>> image_alt_text("Room Spray - Rose", 2)
        'Room Spray - Rose Image 2'
    """
    suffix = f" Image {position}"
    return f"{name[: 255 - len(suffix)]}{suffix}"


# --------------------------------------------------------------------------- the wizard


def clamp_step(step: int) -> int:
    """``step`` kept within 1..6."""
    return min(max(int(step), 1), STEP_COUNT)


def percent_complete(step: int) -> int:
    """The wizard's percent-complete readout: step N of 6, rounded half up (1 → 17, 6 → 100)."""
    return round_half_up_div(clamp_step(step) * 100, STEP_COUNT)


def step_of(field: DraftField) -> int:
    """The wizard step showing ``field`` (inventory, shipping and extra details are step 5)."""
    return _WIZARD_STEPS.get(field, 5)


def publish_ready(
    *, name: str, description: str, base_price: str, stock_quantity: str, category: str
) -> bool:
    """Whether Publish is enabled: name, description, base price, stock and category are set."""
    return all(value.strip() for value in (name, description, base_price, stock_quantity, category))


def price_preview(base_price: str, sale_price: str, cost_price: str) -> PricePreview | None:
    """The pricing preview, or ``None`` while the sale price is not below the regular price.

    Examples:
        >>> price_preview("20", "15", "6")
        PricePreview(discount_percent=25, margin_cents=900, margin_percent=60)
        >>> price_preview("20", "25", "6") is None, price_preview("20", "15", "")
        (True, PricePreview(discount_percent=25, margin_cents=None, margin_percent=None))
    """
    try:
        base = parse_price(base_price, F.BASE_PRICE)
        sale = parse_price(sale_price, F.SALE_PRICE)
        cost = parse_price(cost_price, F.COST_PRICE)
    except DraftError:
        return None
    if base is None or sale is None or not 0 < sale < base:
        return None
    if cost is None:
        return PricePreview(discount_percent(base, sale), None, None)
    margin, percent = profit_margin(sale, cost)
    return PricePreview(discount_percent(base, sale), margin, percent)
