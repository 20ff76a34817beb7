"""The demo catalogue: categories, products, website images and the demo admin.

Pure data, no I/O.  A loader maps these frozen dataclasses onto the database
tables; the artwork for each product and website image is described by a
:class:`~shop_app.services.seed.images.DemoImageSpec` and drawn on demand.

Product names follow the shop's grouping pattern::

    [size ][vessel ]<product type words> - <scent>

e.g. ``"8oz Matte White Soy Candle - Lavender Fields"`` or
``"Mandle - Whiskey & Tobacco"``.  The vessel word, when present, is one of
:data:`VESSEL_WORDS`; no scent contains a vessel word.  Money is integer cents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .images import CARD_IMAGE_SIZE, HERO_IMAGE_SIZE, DemoImageSpec

__all__ = [
    "CATEGORIES",
    "DEMO_ADMIN_EMAIL",
    "DEMO_ADMIN_PASSWORD",
    "MAIN_CATEGORIES",
    "PRODUCTS",
    "PRODUCT_FORMATS",
    "PRODUCT_TYPES",
    "SUBCATEGORIES",
    "VESSEL_COLOURS",
    "VESSEL_PHRASES",
    "VESSEL_WORDS",
    "WEBSITE_IMAGES",
    "DemoCategory",
    "DemoImageSpec",
    "DemoProduct",
    "DemoWebsiteImage",
    "ProductFormat",
    "ProductType",
    "format_for",
    "parse_base_name",
    "split_name",
]

ProductType = Literal["candles", "body-care", "home-fragrance"]
PRODUCT_TYPES: tuple[str, ...] = ("candles", "body-care", "home-fragrance")

#: Vessel words recognised by the storefront's grouping, in the shop's order.
VESSEL_WORDS: tuple[str, ...] = (
    "Matte White",
    "Matte Black",
    "Sunshine",
    "Blush",
    "Glossy",
    "Allure",
    "Frosted",
    "Amber",
)

#: Hex colour of each vessel, used for the artwork.
VESSEL_COLOURS: dict[str, str] = {
    "Matte White": "#f1eee9",
    "Matte Black": "#2a2a2d",
    "Sunshine": "#f3c443",
    "Blush": "#ebbab4",
    "Glossy": "#1f4a3b",
    "Allure": "#6e2333",
    "Frosted": "#dde5ea",
    "Amber": "#a1571c",
}

#: A documented demo credential for the seeded administrator (local demo only).
DEMO_ADMIN_EMAIL = "admin@example.com"
DEMO_ADMIN_PASSWORD = "candlelight-admin-2026"

_DECIMAL = re.compile(r"^\d+(\.\d+)?$")
_SIZE = re.compile(r"^\d+(\.\d+)?(oz|ml)$")


# --------------------------------------------------------------------------- types


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

    def __post_init__(self) -> None:
        if " - " not in self.name:
            raise ValueError(f"product name must contain ' - ': {self.name!r}")
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
        return split_name(self.name)[0]

    @property
    def scent(self) -> str:
        return split_name(self.name)[1]


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


def split_name(name: str) -> tuple[str, str]:
    """``"8oz Amber Soy Candle - Vanilla Bean"`` -> ``("8oz Amber Soy Candle", "Vanilla Bean")``."""
    base, _, scent = name.partition(" - ")
    return base, scent


# --------------------------------------------------------------------------- categories

MAIN_CATEGORIES: tuple[str, ...] = ("Candles", "Body Care", "Home Fragrance", "Custom")

CATEGORIES: tuple[DemoCategory, ...] = (
    DemoCategory(
        "Candles",
        "Clean-burning soy candles, hand-poured in small batches in British Columbia.",
        1,
    ),
    DemoCategory(
        "Body Care",
        "Gentle, nourishing lotions made with shea butter and aloe, scented to match your favourite candles.",
        2,
    ),
    DemoCategory(
        "Home Fragrance",
        "Reed diffusers, room sprays and wax melts that fill your home with scent, no flame needed.",
        3,
    ),
    DemoCategory(
        "Custom",
        "Made-to-order candles in your choice of vessel and scent, for weddings, showers and gifts.",
        4,
    ),
    DemoCategory(
        "Signature Candle Collection",
        "Our year-round favourites, the scents our customers come back for again and again.",
        1,
        "Candles",
    ),
    DemoCategory(
        "Summer Collection",
        "Bright, juicy scents for long West Coast evenings and open windows.",
        2,
        "Candles",
    ),
    DemoCategory(
        "Fall Candle Collection",
        "Warm spice, crisp apples and crackling firewood for sweater weather.",
        3,
        "Candles",
    ),
    DemoCategory(
        "Mandles",
        "Bold, woodsy candles for the guys, with notes of whiskey, leather and campfire smoke.",
        4,
        "Candles",
    ),
    DemoCategory(
        "Holiday Collection",
        "Limited-edition seasonal scents that make the house smell like the holidays.",
        5,
        "Candles",
    ),
    DemoCategory(
        "Hand & Body Lotion",
        "Silky, fast-absorbing hand and body lotion in our most-loved scents.",
        1,
        "Body Care",
    ),
    DemoCategory(
        "Room Fragrance",
        "Flameless fragrance for every room, from slow-release reed diffusers to quick-refresh sprays.",
        1,
        "Home Fragrance",
    ),
)

#: Subcategory name -> main category name.
SUBCATEGORIES: dict[str, str] = {c.name: c.parent for c in CATEGORIES if c.parent is not None}


# --------------------------------------------------------------------------- scents


@dataclass(frozen=True, slots=True)
class _Scent:
    notes: tuple[str, ...]
    blurb: str
    accent: str
    code: str


_SCENTS: dict[str, _Scent] = {
    # Signature
    "Lavender Fields": _Scent(
        ("French lavender", "chamomile", "white musk"),
        "Sun-warmed lavender and a whisper of chamomile, "
        "like an evening walk through an Okanagan lavender farm.",
        "#b7a3d3",
        "LAV",
    ),
    "Vanilla Bean": _Scent(
        ("Madagascar vanilla", "tonka bean", "creamy sandalwood"),
        "Rich, creamy vanilla with a soft, toasty warmth that makes any room feel like home.",
        "#ecd9b0",
        "VAN",
    ),
    "Cedar & Sage": _Scent(
        ("clary sage", "western red cedar", "vetiver"),
        "Crisp sage over the grounding scent of western red cedar, inspired by rainy hikes on the coast.",
        "#9fb39a",
        "CDS",
    ),
    "Fresh Linen": _Scent(
        ("bergamot", "cotton blossom", "clean musk"),
        "Line-dried cotton and a breath of bergamot: the scent of crisp sheets on a breezy spring morning.",
        "#c9d8e4",
        "LIN",
    ),
    "Eucalyptus Mint": _Scent(
        ("eucalyptus", "spearmint", "cool moss"),
        "A bright, spa-like blend of eucalyptus and cool mint "
        "that clears the head and freshens the whole house.",
        "#a9cfc0",
        "EUM",
    ),
    "Sea Salt & Orchid": _Scent(
        ("sea salt", "white orchid", "driftwood"),
        "Salty Pacific air meets delicate orchid petals in a fresh, airy coastal scent.",
        "#b9d3dc",
        "SSO",
    ),
    # Summer
    "Mango Sorbet": _Scent(
        ("ripe mango", "pineapple", "sugared vanilla"),
        "Juicy mango and a scoop of pineapple sorbet, pure sunshine in a jar.",
        "#f7b267",
        "MAN",
    ),
    "Watermelon Mint": _Scent(
        ("juicy watermelon", "crushed mint", "cucumber"),
        "Cool, crunchy watermelon with a sprig of fresh mint, as refreshing as a picnic in the shade.",
        "#f4a3a8",
        "WAT",
    ),
    "Coconut Lime": _Scent(
        ("key lime", "coconut milk", "vanilla"),
        "Zesty lime and creamy coconut for an instant beach-day mood.",
        "#cfe39a",
        "COL",
    ),
    "Pink Grapefruit": _Scent(
        ("pink grapefruit", "rhubarb", "white musk"),
        "Sparkling pink grapefruit with a tart twist of rhubarb, bright and uplifting.",
        "#f6a58f",
        "PGF",
    ),
    "Beach Bonfire": _Scent(
        ("sea salt", "toasted marshmallow", "driftwood smoke"),
        "Toasted marshmallows, salty air and driftwood smoke from a late-night fire on the beach.",
        "#e3b27a",
        "BBF",
    ),
    # Fall
    "Pumpkin Chai": _Scent(
        ("spiced pumpkin", "cardamom chai", "clove"),
        "Creamy pumpkin folded into a mug of cardamom chai, the coziest way to welcome fall.",
        "#d98b4a",
        "PCH",
    ),
    "Apple Orchard": _Scent(
        ("crisp apple", "cinnamon", "oak barrel"),
        "Crisp, just-picked apples and a dusting of cinnamon, straight from a Fraser Valley orchard.",
        "#d0674d",
        "APO",
    ),
    "Maple Bourbon": _Scent(
        ("maple syrup", "bourbon", "toasted oak"),
        "Golden maple and a splash of bourbon over toasted oak, sweet, smooth and a little indulgent.",
        "#b98040",
        "MBO",
    ),
    "Harvest Spice": _Scent(
        ("nutmeg", "cinnamon bark", "brown sugar"),
        "Nutmeg, cinnamon bark and brown sugar, like a pie cooling on the counter.",
        "#b76a3c",
        "HSP",
    ),
    "Flannel & Firewood": _Scent(
        ("cedarwood", "crackling firewood", "soft suede"),
        "Your favourite flannel shirt and a crackling fire on a chilly night.",
        "#9a6a52",
        "FLF",
    ),
    # Mandles
    "Whiskey & Tobacco": _Scent(
        ("aged whiskey", "sweet tobacco leaf", "oak"),
        "Aged whiskey and sweet tobacco leaf over smooth oak, like a leather armchair by the fire.",
        "#b07c3e",
        "WHT",
    ),
    "Leather & Oak": _Scent(
        ("saddle leather", "oakmoss", "cedar"),
        "Worn saddle leather and oakmoss with a dry cedar finish.",
        "#8a5c3c",
        "LEO",
    ),
    "Campfire Pine": _Scent(
        ("pine needle", "campfire smoke", "birch tar"),
        "Fresh-cut pine and drifting campfire smoke, a weekend in the backcountry without the bugs.",
        "#6f8a5e",
        "CPI",
    ),
    "Bay Rum": _Scent(
        ("bay leaf", "dark rum", "clove"),
        "A classic barbershop blend of bay leaf, dark rum and clove.",
        "#a2613f",
        "BRM",
    ),
    "Black Pepper & Vetiver": _Scent(
        ("black pepper", "vetiver", "smoked cedar"),
        "Cracked black pepper and earthy vetiver with a hint of smoked cedar, sharp and sophisticated.",
        "#7a7a6a",
        "BPV",
    ),
    # Holiday
    "Sugared Cranberry": _Scent(
        ("tart cranberry", "sugared orange", "vanilla"),
        "Tart cranberries rolled in sugar with a twist of orange, festive from the first light.",
        "#c23b4b",
        "SCR",
    ),
    "Winter Fir": _Scent(
        ("balsam fir", "eucalyptus", "cedar"),
        "A freshly cut balsam fir, snowy air and a hint of cedar, like bringing the tree home.",
        "#5e8a6c",
        "WFR",
    ),
    "Christmas Cabin": _Scent(
        ("spruce", "cinnamon stick", "wood smoke"),
        "Spruce boughs, cinnamon sticks and wood smoke curling from a snowy cabin chimney.",
        "#8a5442",
        "CCB",
    ),
    "Peppermint Bark": _Scent(
        ("peppermint", "dark chocolate", "vanilla cream"),
        "Cool peppermint swirled through dark chocolate and vanilla cream, "
        "a holiday treat with zero calories.",
        "#e48d98",
        "PMB",
    ),
    "Gingerbread Cottage": _Scent(
        ("ginger", "molasses", "brown sugar"),
        "Warm ginger, molasses and brown sugar, like a tray of gingerbread fresh from the oven.",
        "#bf8350",
        "GBC",
    ),
    # Body care only
    "Honey & Oat": _Scent(
        ("wildflower honey", "oat milk", "sweet almond"),
        "Soft, comforting wildflower honey and oat milk with a touch of sweet almond.",
        "#e2c27e",
        "HOA",
    ),
    "Cucumber Melon": _Scent(
        ("cucumber", "honeydew melon", "green tea"),
        "Cool cucumber and ripe honeydew with a splash of green tea, light and clean.",
        "#b5dca8",
        "CUM",
    ),
    "Unscented": _Scent(
        (),
        "No added fragrance at all, made for sensitive skin and anyone who prefers it pure.",
        "#e6ded0",
        "UNS",
    ),
    # Custom
    "Your Signature Blend": _Scent(
        ("your choice of up to three scents",),
        "Your favourite scents blended into one candle that is entirely yours.",
        "#e8c9a0",
        "BLD",
    ),
}


# --------------------------------------------------------------------------- product formats

_CANDLE_INGREDIENTS = ("100% soy wax", "cotton wick", "phthalate-free fragrance oil", "essential oils")
_CANDLE_CARE = (
    "Trim the wick to 1/4 inch before every burn and burn 2 to 3 hours at a time so the wax melts evenly "
    "to the edges. Never leave a burning candle unattended, and keep it away from drafts, children and pets."
)
_LOTION_INGREDIENTS = (
    "aloe vera juice",
    "shea butter",
    "sunflower seed oil",
    "vegetable glycerin",
    "vitamin E",
    "phthalate-free fragrance oil",
)
_LOTION_CARE = (
    "Store below 25\u00b0C (77\u00b0F) and out of direct sunlight. For external use only; "
    "patch test first if you have sensitive skin."
)

#: How each vessel is described in a product description.
VESSEL_PHRASES: dict[str, str] = {
    "Matte White": "a matte white tumbler",
    "Matte Black": "a matte black tumbler",
    "Amber": "an apothecary-style amber glass jar",
    "Frosted": "a softly frosted glass jar",
    "Sunshine": "a cheerful sunshine-yellow tumbler",
    "Blush": "a blush-pink tumbler",
    "Glossy": "a glossy emerald tumbler",
    "Allure": "our Allure jar in deep burgundy",
}


@dataclass(frozen=True, slots=True)
class ProductFormat:
    """What a product line shares, keyed by ``"[size ]type words"`` (the name minus vessel and scent)."""

    product_type: ProductType
    kind: str  # image kind
    sku_prefix: str
    blurb: str  # one sentence; may contain {vessel}
    size: str | None
    burn_time: str | None
    volume: str | None
    ingredients: tuple[str, ...]
    care: str | None
    weight_oz: str
    dimensions: str
    colour: str | None = None  # vessel colour when the name has no vessel word


def _candle_format(
    sku_prefix: str, blurb: str, *, size: str, burn_time: str, weight_oz: str, dimensions: str, **extra: str
) -> ProductFormat:
    return ProductFormat(
        product_type="candles",
        kind=extra.get("kind", "jar"),
        sku_prefix=sku_prefix,
        blurb=blurb,
        size=size,
        burn_time=burn_time,
        volume=None,
        ingredients=_CANDLE_INGREDIENTS,
        care=_CANDLE_CARE,
        weight_oz=weight_oz,
        dimensions=dimensions,
        colour=extra.get("colour"),
    )


def _lotion_format(
    sku_prefix: str, blurb: str, *, size: str, volume: str, weight_oz: str, **extra: str
) -> ProductFormat:
    return ProductFormat(
        product_type="body-care",
        kind=extra.get("kind", "pump"),
        sku_prefix=sku_prefix,
        blurb=blurb,
        size=size,
        burn_time=None,
        volume=volume,
        ingredients=_LOTION_INGREDIENTS,
        care=_LOTION_CARE,
        weight_oz=weight_oz,
        dimensions=extra["dimensions"],
        colour=extra.get("colour", "#f4efe8"),
    )


_DIFFUSER_INGREDIENTS = ("plant-based diffuser base", "phthalate-free fragrance oil", "natural rattan reeds")
_DIFFUSER_CARE = (
    "Insert the reeds, let them soak for a few hours, then flip them once a week to refresh the scent. "
    "Keep away from finished wood, fabrics, children and pets."
)
_SPRAY_INGREDIENTS = ("purified water", "witch hazel", "phthalate-free fragrance oil", "polysorbate 20")
_SPRAY_CARE = (
    "Shake well and mist into the air, away from finished wood and delicate fabrics. Not for use on skin."
)
_HAND_POURED = "Hand-poured in small batches in British Columbia with pure soy wax and a cotton wick"

#: Product lines by ``"[size ]type words"``.
PRODUCT_FORMATS: dict[str, ProductFormat] = {
    "4oz Travel Tin Candle": _candle_format(
        "TIN",
        "A travel-sized tin, hand-poured in BC and just right for a weekend away or a little thank-you gift.",
        size="4 oz (113 g)",
        burn_time="20-25 hours",
        weight_oz="5.5",
        dimensions="2.9 x 2.9 x 2.0 in",
        kind="tin",
        colour="#c9c6c0",
    ),
    "8oz Soy Candle": _candle_format(
        "C08",
        _HAND_POURED + ", in {vessel}.",
        size="8 oz (227 g)",
        burn_time="50-55 hours",
        weight_oz="11.5",
        dimensions="3.1 x 3.1 x 3.6 in",
    ),
    "9oz Soy Candle": _candle_format(
        "C09",
        "A limited-edition holiday candle, hand-poured in {vessel}; it wraps up beautifully for the tree.",
        size="9 oz (255 g)",
        burn_time="55-60 hours",
        weight_oz="12.5",
        dimensions="3.2 x 3.2 x 3.8 in",
    ),
    "10oz Soy Candle": _candle_format(
        "C10",
        "Part of our Summer Collection, hand-poured in {vessel} and made for long, bright evenings.",
        size="10 oz (283 g)",
        burn_time="60-65 hours",
        weight_oz="14.0",
        dimensions="3.3 x 3.3 x 4.0 in",
    ),
    "12oz Soy Candle": _candle_format(
        "C12",
        "From our Fall Candle Collection, hand-poured in {vessel} to keep you cozy from the first frost.",
        size="12 oz (340 g)",
        burn_time="70-75 hours",
        weight_oz="17.0",
        dimensions="3.5 x 3.5 x 4.3 in",
    ),
    "16oz Soy Candle": _candle_format(
        "C16",
        "Our generous 16oz size, hand-poured in {vessel} with two cotton wicks for a wide, even melt pool.",
        size="16 oz (454 g)",
        burn_time="90-100 hours",
        weight_oz="22.5",
        dimensions="4.0 x 4.0 x 4.5 in",
    ),
    "Mandle": _candle_format(
        "MDL",
        "A candle for the guys, hand-poured in small batches in a matte black tumbler.",
        size="10 oz (283 g)",
        burn_time="60-65 hours",
        weight_oz="14.0",
        dimensions="3.3 x 3.3 x 4.0 in",
        colour=VESSEL_COLOURS["Matte Black"],
    ),
    "16oz Mandle": _candle_format(
        "M16",
        "A big, bold candle for the guys, hand-poured in a matte black tumbler with two cotton wicks.",
        size="16 oz (454 g)",
        burn_time="90-100 hours",
        weight_oz="22.5",
        dimensions="4.0 x 4.0 x 4.5 in",
        colour=VESSEL_COLOURS["Matte Black"],
    ),
    "Custom Candle": _candle_format(
        "CUS",
        "Choose your vessel, pick up to three scents and we will hand-pour a candle just for you in "
        "British Columbia, made to order within 5 to 7 business days.",
        size="8 oz (227 g)",
        burn_time="50-55 hours",
        weight_oz="11.5",
        dimensions="3.1 x 3.1 x 3.6 in",
        colour=VESSEL_COLOURS["Matte White"],
    ),
    "8oz Hand & Body Lotion": _lotion_format(
        "L08",
        "A silky, fast-absorbing lotion made in small batches with shea butter and aloe, in a pump bottle.",
        size="8 oz",
        volume="236 ml",
        weight_oz="9.2",
        dimensions="2.4 x 2.4 x 7.5 in",
    ),
    "2oz Hand & Body Lotion": _lotion_format(
        "L02",
        "Our hand and body lotion in a purse-sized bottle for travel, gym bags and stocking stuffers.",
        size="2 oz",
        volume="59 ml",
        weight_oz="2.6",
        dimensions="1.4 x 1.4 x 4.5 in",
        kind="bottle",
    ),
    "16oz Hand & Body Lotion": _lotion_format(
        "L16",
        "The family-size pump of our silky shea butter and aloe lotion, made in small batches.",
        size="16 oz",
        volume="473 ml",
        weight_oz="17.8",
        dimensions="3.0 x 3.0 x 8.5 in",
        colour=VESSEL_COLOURS["Blush"],
    ),
    "100ml Reed Diffuser": ProductFormat(
        product_type="home-fragrance",
        kind="diffuser",
        sku_prefix="RD1",
        blurb="Flameless, all-day fragrance through natural rattan reeds; one bottle lasts 8 to 10 weeks.",
        size="100 ml",
        burn_time=None,
        volume="100 ml",
        ingredients=_DIFFUSER_INGREDIENTS,
        care=_DIFFUSER_CARE,
        weight_oz="9.8",
        dimensions="2.8 x 2.8 x 10.5 in (with reeds)",
        colour="#d8e2e0",
    ),
    "200ml Reed Diffuser": ProductFormat(
        product_type="home-fragrance",
        kind="diffuser",
        sku_prefix="RD2",
        blurb="Our large reed diffuser, made to scent a living room for up to four months.",
        size="200 ml",
        burn_time=None,
        volume="200 ml",
        ingredients=_DIFFUSER_INGREDIENTS,
        care=_DIFFUSER_CARE,
        weight_oz="16.4",
        dimensions="3.4 x 3.4 x 12.0 in (with reeds)",
        colour="#d8e2e0",
    ),
    "4oz Room Spray": ProductFormat(
        product_type="home-fragrance",
        kind="spray",
        sku_prefix="RS4",
        blurb="A fine mist that refreshes any room, closet or set of linens in seconds.",
        size="4 oz",
        burn_time=None,
        volume="118 ml",
        ingredients=_SPRAY_INGREDIENTS,
        care=_SPRAY_CARE,
        weight_oz="5.9",
        dimensions="1.8 x 1.8 x 6.0 in",
        colour="#8c4a17",
    ),
    "8oz Room Spray": ProductFormat(
        product_type="home-fragrance",
        kind="spray",
        sku_prefix="RS8",
        blurb="The refill size of our fine-mist room spray, for the rooms you love most.",
        size="8 oz",
        burn_time=None,
        volume="236 ml",
        ingredients=_SPRAY_INGREDIENTS,
        care=_SPRAY_CARE,
        weight_oz="10.6",
        dimensions="2.3 x 2.3 x 7.8 in",
        colour="#8c4a17",
    ),
    "2.5oz Wax Melt": ProductFormat(
        product_type="home-fragrance",
        kind="melt",
        sku_prefix="WM2",
        blurb="Six soy wax cubes for your warmer, each one scenting a room for 8 to 10 hours.",
        size="2.5 oz (6 cubes)",
        burn_time=None,
        volume=None,
        ingredients=("100% soy wax", "phthalate-free fragrance oil"),
        care=(
            "Place one cube in a wax warmer and never leave the warmer unattended. "
            "Reuse the wax until the scent fades, then pop it out and add a fresh cube."
        ),
        weight_oz="2.9",
        dimensions="3.3 x 2.3 x 0.9 in",
        colour="#c9a27a",
    ),
}


def format_for(base: str) -> tuple[ProductFormat, str | None]:
    """The product line of a base name and its vessel word (``None`` when it has none)."""
    size_word, vessel, type_words = parse_base_name(base)
    return PRODUCT_FORMATS[f"{size_word} {type_words}".strip()], vessel


_CHARITY = "A portion of every sale supports cancer care in our community."

_VESSEL_CODE = {
    "Matte White": "MW",
    "Matte Black": "MB",
    "Sunshine": "SU",
    "Blush": "BL",
    "Glossy": "GL",
    "Allure": "AL",
    "Frosted": "FR",
    "Amber": "AM",
}

_CATEGORY_OF_TYPE = {"candles": "Candles", "body-care": "Body Care", "home-fragrance": "Home Fragrance"}


def _main_category(subcategory: str | None, product_type: str) -> str:
    return SUBCATEGORIES[subcategory] if subcategory else _CATEGORY_OF_TYPE[product_type]


def _product(
    base: str,
    scent: str,
    subcategory: str | None,
    price: int,
    stock: int,
    *,
    sale: int | None = None,
    new: bool = False,
    featured: bool = False,
    category: str | None = None,
) -> DemoProduct:
    """Build a product from ``base`` ("[size ][vessel ]type words") and a scent."""
    fmt, vessel = format_for(base)
    sc = _SCENTS[scent]
    vessel_phrase = VESSEL_PHRASES.get(vessel or "", "a reusable glass vessel")
    description = f"{sc.blurb} {fmt.blurb.format(vessel=vessel_phrase)}"
    if featured:
        description += f" {_CHARITY}"
    ingredients = fmt.ingredients
    if scent == "Unscented":
        ingredients = tuple(i for i in ingredients if "fragrance" not in i)
    colour = VESSEL_COLOURS[vessel] if vessel else (fmt.colour or "#f1eee9")
    label = "Your Blend" if scent == "Your Signature Blend" else scent
    sku = "-".join(p for p in (fmt.sku_prefix, _VESSEL_CODE.get(vessel or "", ""), sc.code) if p)
    return DemoProduct(
        name=f"{base} - {scent}",
        description=description,
        category=category or _main_category(subcategory, fmt.product_type),
        subcategory=subcategory,
        product_type=fmt.product_type,
        base_price_cents=price,
        sale_price_cents=sale,
        stock_quantity=stock,
        is_new=new,
        is_featured=featured,
        scent_notes=sc.notes,
        size=fmt.size,
        burn_time=fmt.burn_time,
        volume=fmt.volume,
        ingredients=ingredients,
        care_instructions=fmt.care,
        weight_oz=fmt.weight_oz,
        dimensions=fmt.dimensions,
        sku=sku,
        image=DemoImageSpec(kind=fmt.kind, colour=colour, accent=sc.accent, label=label),  # type: ignore[arg-type]
    )


def parse_base_name(base: str) -> tuple[str, str | None, str]:
    """``"8oz Matte White Soy Candle"`` -> ``("8oz", "Matte White", "Soy Candle")``; size may be ``""``."""
    words = base.split(" ", 1)
    if _SIZE.match(words[0]):
        size_word, rest = words[0], words[1]
    else:
        size_word, rest = "", base
    for vessel in VESSEL_WORDS:
        if rest.startswith(vessel + " "):
            return size_word, vessel, rest[len(vessel) + 1 :]
    return size_word, None, rest


_SIG = "Signature Candle Collection"
_SUMMER = "Summer Collection"
_FALL = "Fall Candle Collection"
_MANDLES = "Mandles"
_HOLIDAY = "Holiday Collection"
_LOTION = "Hand & Body Lotion"
_ROOM = "Room Fragrance"

PRODUCTS: tuple[DemoProduct, ...] = (
    # --- Signature Candle Collection: 8oz in four vessels, 16oz in two, travel tins.
    _product("8oz Matte White Soy Candle", "Lavender Fields", _SIG, 3000, 42, featured=True),
    _product("8oz Matte White Soy Candle", "Fresh Linen", _SIG, 3000, 35),
    _product("8oz Matte White Soy Candle", "Eucalyptus Mint", _SIG, 3000, 3),
    _product("8oz Matte Black Soy Candle", "Cedar & Sage", _SIG, 3200, 28, featured=True),
    _product("8oz Matte Black Soy Candle", "Sea Salt & Orchid", _SIG, 3200, 0),
    _product("8oz Matte Black Soy Candle", "Vanilla Bean", _SIG, 3200, 19),
    _product("8oz Amber Soy Candle", "Vanilla Bean", _SIG, 2800, 60, featured=True),
    _product("8oz Amber Soy Candle", "Lavender Fields", _SIG, 2800, 24, sale=2400),
    _product("8oz Amber Soy Candle", "Cedar & Sage", _SIG, 2800, 5),
    _product("8oz Frosted Soy Candle", "Sea Salt & Orchid", _SIG, 3400, 16, new=True, featured=True),
    _product("8oz Frosted Soy Candle", "Fresh Linen", _SIG, 3400, 12),
    _product("8oz Frosted Soy Candle", "Eucalyptus Mint", _SIG, 3400, 9, sale=2900),
    _product("16oz Frosted Soy Candle", "Cedar & Sage", _SIG, 4800, 14, featured=True),
    _product("16oz Frosted Soy Candle", "Lavender Fields", _SIG, 4800, 2),
    _product("16oz Amber Soy Candle", "Vanilla Bean", _SIG, 4200, 22, featured=True),
    _product("16oz Amber Soy Candle", "Fresh Linen", _SIG, 4200, 7, sale=3600),
    _product("4oz Travel Tin Candle", "Lavender Fields", _SIG, 1400, 48),
    _product("4oz Travel Tin Candle", "Eucalyptus Mint", _SIG, 1400, 33),
    _product("4oz Travel Tin Candle", "Vanilla Bean", _SIG, 1400, 0),
    # --- Summer Collection.
    _product("10oz Sunshine Soy Candle", "Mango Sorbet", _SUMMER, 3200, 26, new=True, featured=True),
    _product("10oz Sunshine Soy Candle", "Coconut Lime", _SUMMER, 3200, 18, new=True),
    _product("10oz Sunshine Soy Candle", "Pink Grapefruit", _SUMMER, 3200, 4, sale=2600),
    _product("10oz Blush Soy Candle", "Watermelon Mint", _SUMMER, 3200, 21, new=True),
    _product("10oz Blush Soy Candle", "Beach Bonfire", _SUMMER, 3200, 11, featured=True),
    # --- Fall Candle Collection.
    _product("12oz Amber Soy Candle", "Pumpkin Chai", _FALL, 3800, 38, featured=True),
    _product("12oz Amber Soy Candle", "Apple Orchard", _FALL, 3800, 0),
    _product("12oz Amber Soy Candle", "Maple Bourbon", _FALL, 3800, 13, sale=3200),
    _product("12oz Matte Black Soy Candle", "Harvest Spice", _FALL, 3800, 8),
    _product("12oz Matte Black Soy Candle", "Flannel & Firewood", _FALL, 3800, 1),
    # --- Mandles.
    _product("Mandle", "Whiskey & Tobacco", _MANDLES, 3400, 27, featured=True),
    _product("Mandle", "Leather & Oak", _MANDLES, 3400, 15),
    _product("Mandle", "Campfire Pine", _MANDLES, 3400, 3),
    _product("Mandle", "Bay Rum", _MANDLES, 3400, 0, new=True),
    _product("Mandle", "Black Pepper & Vetiver", _MANDLES, 3400, 20, sale=2900),
    # --- Holiday Collection.
    _product("9oz Glossy Soy Candle", "Sugared Cranberry", _HOLIDAY, 3200, 30, new=True, featured=True),
    _product("9oz Glossy Soy Candle", "Winter Fir", _HOLIDAY, 3200, 25, new=True),
    _product("9oz Allure Soy Candle", "Gingerbread Cottage", _HOLIDAY, 3400, 6, new=True),
    _product("9oz Allure Soy Candle", "Christmas Cabin", _HOLIDAY, 3400, 10, new=True, featured=True),
    _product("9oz Allure Soy Candle", "Peppermint Bark", _HOLIDAY, 3400, 1, new=True),
    # --- Custom.
    _product("Custom Candle", "Your Signature Blend", None, 3800, 50, category="Custom"),
    # --- Body Care: Hand & Body Lotion.
    _product("8oz Hand & Body Lotion", "Coconut Lime", _LOTION, 2000, 40, featured=True),
    _product("8oz Hand & Body Lotion", "Lavender Fields", _LOTION, 2000, 31),
    _product("8oz Hand & Body Lotion", "Vanilla Bean", _LOTION, 2000, 0),
    _product("8oz Hand & Body Lotion", "Honey & Oat", _LOTION, 2200, 17, new=True, featured=True),
    _product("8oz Hand & Body Lotion", "Cucumber Melon", _LOTION, 2000, 5, sale=1600),
    _product("8oz Hand & Body Lotion", "Unscented", _LOTION, 1800, 44),
    _product("2oz Hand & Body Lotion", "Coconut Lime", _LOTION, 900, 55),
    _product("2oz Hand & Body Lotion", "Lavender Fields", _LOTION, 900, 2),
    _product("2oz Hand & Body Lotion", "Honey & Oat", _LOTION, 900, 29),
    # --- Home Fragrance: Room Fragrance.
    _product("100ml Reed Diffuser", "Fresh Linen", _ROOM, 3200, 20, featured=True),
    _product("100ml Reed Diffuser", "Eucalyptus Mint", _ROOM, 3200, 14),
    _product("100ml Reed Diffuser", "Cedar & Sage", _ROOM, 3200, 4, sale=2700),
    _product("100ml Reed Diffuser", "Sea Salt & Orchid", _ROOM, 3200, 9, new=True),
    _product("4oz Room Spray", "Eucalyptus Mint", _ROOM, 1600, 37, featured=True),
    _product("4oz Room Spray", "Lavender Fields", _ROOM, 1600, 26),
    _product("4oz Room Spray", "Fresh Linen", _ROOM, 1600, 12),
    _product("4oz Room Spray", "Pink Grapefruit", _ROOM, 1600, 3, new=True),
    _product("2.5oz Wax Melt", "Vanilla Bean", _ROOM, 900, 45),
    _product("2.5oz Wax Melt", "Pumpkin Chai", _ROOM, 900, 18),
    _product("2.5oz Wax Melt", "Sugared Cranberry", _ROOM, 900, 23, sale=700),
)


# --------------------------------------------------------------------------- website images

WEBSITE_IMAGES: tuple[DemoWebsiteImage, ...] = (
    DemoWebsiteImage(
        "hero",
        "Homepage hero image",
        DemoImageSpec(
            "banner",
            "#3a2c27",
            "#f0c987",
            "Hand-Poured in British Columbia",
            ("tin", "jar", "diffuser", "jar"),
        ),
    ),
    DemoWebsiteImage(
        "category_candles",
        "Candles category",
        DemoImageSpec("banner", "#4a3429", "#f2c98a", "Soy Candles", ("tin", "jar", "jar")),
    ),
    DemoWebsiteImage(
        "category_bodycare",
        "Body care category",
        DemoImageSpec("banner", "#dcbdb3", "#8a5a44", "Body Care", ("bottle", "pump", "bottle")),
    ),
    DemoWebsiteImage(
        "category_fragrance",
        "Room fragrance category",
        DemoImageSpec("banner", "#b3c2b4", "#4f6b58", "Room Fragrance", ("spray", "diffuser", "melt")),
    ),
    DemoWebsiteImage(
        "mission",
        "Our mission",
        DemoImageSpec("banner", "#2f3b36", "#eab3b0", "Every Candle Gives Back", ("jar", "jar", "tin")),
    ),
    DemoWebsiteImage(
        "about",
        "About us",
        DemoImageSpec(
            "banner", "#efe6da", "#b0733a", "Made by Hand in Small Batches", ("pump", "jar", "diffuser")
        ),
    ),
)
