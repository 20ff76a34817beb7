"""The demo catalogue: categories, products, website images and the demo admin.

Pure data, no I/O.  A loader maps these frozen dataclasses onto the database
tables; the artwork for each product and website image is described by a
:class:`~shop_app.demo.artwork.DemoImageSpec` and drawn on demand.

Product names follow the shop's naming pattern (:mod:`shop_app.domain.product_names`)::

    [size ][vessel ]<product type words> - <scent>

e.g. ``"8oz Matte White Soy Candle - Lavender Fields"`` or
``"Mandle - Whiskey & Tobacco"``.  The vessel, when present, is one of
:data:`~shop_app.domain.product_names.VESSELS`; no scent contains a vessel word.
Money is integer cents.

This module is the catalogue's front door; the parts live in sibling modules:
:mod:`.demo_types` (the records), :mod:`.demo_categories`, :mod:`.demo_scents`,
:mod:`.demo_vessels`, :mod:`.demo_formats` (product lines), :mod:`.demo_builder`
(row -> product), :mod:`.demo_candles` and :mod:`.demo_body_and_home` (the rows).
"""

from __future__ import annotations

from .artwork import DemoImageSpec
from .demo_body_and_home import BODY_AND_HOME_PRODUCTS
from .demo_candles import CANDLE_PRODUCTS
from .demo_categories import CATEGORIES, MAIN_CATEGORIES, SUBCATEGORIES
from .demo_formats import PRODUCT_FORMATS, ProductFormat, format_for
from .demo_types import PRODUCT_TYPES, DemoCategory, DemoProduct, DemoWebsiteImage, ProductType
from .demo_vessels import VESSEL_COLOURS, VESSEL_PHRASES

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
    "WEBSITE_IMAGES",
    "DemoCategory",
    "DemoImageSpec",
    "DemoProduct",
    "DemoWebsiteImage",
    "ProductFormat",
    "ProductType",
    "format_for",
]

#: A documented demo credential for the seeded administrator (local demo only).
DEMO_ADMIN_EMAIL = "admin@example.com"
DEMO_ADMIN_PASSWORD = "candlelight-admin-2026"

#: Every demo product: the candles, then body care and home fragrance.
PRODUCTS: tuple[DemoProduct, ...] = CANDLE_PRODUCTS + BODY_AND_HOME_PRODUCTS


#: The site's slot images carry no text of their own: the pages set their headings over them.
WEBSITE_IMAGES: tuple[DemoWebsiteImage, ...] = (
    DemoWebsiteImage(
        "hero",
        "Homepage hero image",
        DemoImageSpec(
            "banner",
            "#3a2c27",
            "#f0c987",
            "",
            ("tin", "jar", "diffuser", "jar"),
        ),
    ),
    DemoWebsiteImage(
        "category_candles",
        "Candles category",
        DemoImageSpec("banner", "#4a3429", "#f2c98a", "", ("tin", "jar", "jar")),
    ),
    DemoWebsiteImage(
        "category_bodycare",
        "Body care category",
        DemoImageSpec("banner", "#dcbdb3", "#8a5a44", "", ("bottle", "pump", "bottle")),
    ),
    DemoWebsiteImage(
        "category_fragrance",
        "Room fragrance category",
        DemoImageSpec("banner", "#b3c2b4", "#4f6b58", "", ("spray", "diffuser", "melt")),
    ),
    DemoWebsiteImage(
        "mission",
        "Our mission",
        DemoImageSpec("banner", "#2f3b36", "#eab3b0", "", ("jar", "jar", "tin")),
    ),
    DemoWebsiteImage(
        "about",
        "About us",
        DemoImageSpec("banner", "#efe6da", "#b0733a", "", ("pump", "jar", "diffuser")),
    ),
)
