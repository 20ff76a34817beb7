"""The demo catalogue's candles: signature, summer, fall, mandles, holiday and the custom candle.

Each row is ``demo_product(base, scent, subcategory, price_cents, stock, ...)``; the 8oz
soy candle comes in four vessels and some of the scents, never every combination.
"""

from __future__ import annotations

from .demo_builder import demo_product
from .demo_categories import FALL, HOLIDAY, MANDLES, SIGNATURE, SUMMER
from .demo_types import DemoProduct

__all__ = ["CANDLE_PRODUCTS"]

CANDLE_PRODUCTS: tuple[DemoProduct, ...] = (
    # --- Signature Candle Collection: 8oz in four vessels, 16oz in two, travel tins.
    demo_product("8oz Matte White Soy Candle", "Lavender Fields", SIGNATURE, 3000, 42, featured=True),
    demo_product("8oz Matte White Soy Candle", "Fresh Linen", SIGNATURE, 3000, 35),
    demo_product("8oz Matte White Soy Candle", "Eucalyptus Mint", SIGNATURE, 3000, 3),
    demo_product("8oz Matte Black Soy Candle", "Cedar & Sage", SIGNATURE, 3200, 28, featured=True),
    demo_product("8oz Matte Black Soy Candle", "Sea Salt & Orchid", SIGNATURE, 3200, 0),
    demo_product("8oz Matte Black Soy Candle", "Vanilla Bean", SIGNATURE, 3200, 19),
    demo_product("8oz Amber Soy Candle", "Vanilla Bean", SIGNATURE, 2800, 60, featured=True),
    demo_product("8oz Amber Soy Candle", "Lavender Fields", SIGNATURE, 2800, 24, sale=2400),
    demo_product("8oz Amber Soy Candle", "Cedar & Sage", SIGNATURE, 2800, 5),
    demo_product("8oz Frosted Soy Candle", "Sea Salt & Orchid", SIGNATURE, 3400, 16, new=True, featured=True),
    demo_product("8oz Frosted Soy Candle", "Fresh Linen", SIGNATURE, 3400, 12),
    demo_product("8oz Frosted Soy Candle", "Eucalyptus Mint", SIGNATURE, 3400, 9, sale=2900),
    demo_product("16oz Frosted Soy Candle", "Cedar & Sage", SIGNATURE, 4800, 14, featured=True),
    demo_product("16oz Frosted Soy Candle", "Lavender Fields", SIGNATURE, 4800, 2),
    demo_product("16oz Amber Soy Candle", "Vanilla Bean", SIGNATURE, 4200, 22, featured=True),
    demo_product("16oz Amber Soy Candle", "Fresh Linen", SIGNATURE, 4200, 7, sale=3600),
    demo_product("4oz Travel Tin Candle", "Lavender Fields", SIGNATURE, 1400, 48),
    demo_product("4oz Travel Tin Candle", "Eucalyptus Mint", SIGNATURE, 1400, 33),
    demo_product("4oz Travel Tin Candle", "Vanilla Bean", SIGNATURE, 1400, 0),
    # --- Summer Collection.
    demo_product("10oz Sunshine Soy Candle", "Mango Sorbet", SUMMER, 3200, 26, new=True, featured=True),
    demo_product("10oz Sunshine Soy Candle", "Coconut Lime", SUMMER, 3200, 18, new=True),
    demo_product("10oz Sunshine Soy Candle", "Pink Grapefruit", SUMMER, 3200, 4, sale=2600),
    demo_product("10oz Blush Soy Candle", "Watermelon Mint", SUMMER, 3200, 21, new=True),
    demo_product("10oz Blush Soy Candle", "Beach Bonfire", SUMMER, 3200, 11, featured=True),
    # --- Fall Candle Collection.
    demo_product("12oz Amber Soy Candle", "Pumpkin Chai", FALL, 3800, 38, featured=True),
    demo_product("12oz Amber Soy Candle", "Apple Orchard", FALL, 3800, 0),
    demo_product("12oz Amber Soy Candle", "Maple Bourbon", FALL, 3800, 13, sale=3200),
    demo_product("12oz Matte Black Soy Candle", "Harvest Spice", FALL, 3800, 8),
    demo_product("12oz Matte Black Soy Candle", "Flannel & Firewood", FALL, 3800, 1),
    # --- Mandles.
    demo_product("Mandle", "Whiskey & Tobacco", MANDLES, 3400, 27, featured=True),
    demo_product("Mandle", "Leather & Oak", MANDLES, 3400, 15),
    demo_product("Mandle", "Campfire Pine", MANDLES, 3400, 3),
    demo_product("Mandle", "Bay Rum", MANDLES, 3400, 0, new=True),
    demo_product("Mandle", "Black Pepper & Vetiver", MANDLES, 3400, 20, sale=2900),
    # --- Holiday Collection.
    demo_product("9oz Glossy Soy Candle", "Sugared Cranberry", HOLIDAY, 3200, 30, new=True, featured=True),
    demo_product("9oz Glossy Soy Candle", "Winter Fir", HOLIDAY, 3200, 25, new=True),
    demo_product("9oz Allure Soy Candle", "Gingerbread Cottage", HOLIDAY, 3400, 6, new=True),
    demo_product("9oz Allure Soy Candle", "Christmas Cabin", HOLIDAY, 3400, 10, new=True, featured=True),
    demo_product("9oz Allure Soy Candle", "Peppermint Bark", HOLIDAY, 3400, 1, new=True),
    # --- Custom.
    demo_product(
        "Custom Candle",
        "Your Signature Blend",
        None,
        3800,
        50,
        category="Custom",
        # Poured to order in the scent the shopper picks (more than 8: the page lists 8, "+N more").
        option_scents=(
            "Lavender Fields",
            "Vanilla Bean",
            "Cedar & Sage",
            "Fresh Linen",
            "Eucalyptus Mint",
            "Coconut Lime",
            "Pumpkin Chai",
            "Sea Salt & Orchid",
            "Winter Fir",
            "Honey & Oat",
        ),
    ),
)
