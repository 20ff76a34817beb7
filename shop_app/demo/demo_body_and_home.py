"""The demo catalogue's body care (hand and body lotion) and home fragrance (diffusers, sprays, melts).

Each row is ``demo_product(base, scent, subcategory, price_cents, stock, ...)``.
"""

from __future__ import annotations

from .demo_builder import demo_product
from .demo_categories import LOTION, ROOM_FRAGRANCE
from .demo_types import DemoProduct

__all__ = ["BODY_AND_HOME_PRODUCTS"]

BODY_AND_HOME_PRODUCTS: tuple[DemoProduct, ...] = (
    # --- Body Care: Hand & Body Lotion.
    demo_product("8oz Hand & Body Lotion", "Coconut Lime", LOTION, 2000, 40, featured=True),
    demo_product("8oz Hand & Body Lotion", "Lavender Fields", LOTION, 2000, 31),
    demo_product("8oz Hand & Body Lotion", "Vanilla Bean", LOTION, 2000, 0),
    demo_product("8oz Hand & Body Lotion", "Honey & Oat", LOTION, 2200, 17, new=True, featured=True),
    demo_product("8oz Hand & Body Lotion", "Cucumber Melon", LOTION, 2000, 5, sale=1600),
    demo_product("8oz Hand & Body Lotion", "Unscented", LOTION, 1800, 44),
    demo_product("2oz Hand & Body Lotion", "Coconut Lime", LOTION, 900, 55),
    demo_product("2oz Hand & Body Lotion", "Lavender Fields", LOTION, 900, 2),
    demo_product("2oz Hand & Body Lotion", "Honey & Oat", LOTION, 900, 29),
    # --- Home Fragrance: Room Fragrance.
    demo_product("100ml Reed Diffuser", "Fresh Linen", ROOM_FRAGRANCE, 3200, 20, featured=True),
    demo_product("100ml Reed Diffuser", "Eucalyptus Mint", ROOM_FRAGRANCE, 3200, 14),
    demo_product("100ml Reed Diffuser", "Cedar & Sage", ROOM_FRAGRANCE, 3200, 4, sale=2700),
    demo_product("100ml Reed Diffuser", "Sea Salt & Orchid", ROOM_FRAGRANCE, 3200, 9, new=True),
    demo_product("4oz Room Spray", "Eucalyptus Mint", ROOM_FRAGRANCE, 1600, 37, featured=True),
    demo_product("4oz Room Spray", "Lavender Fields", ROOM_FRAGRANCE, 1600, 26),
    demo_product("4oz Room Spray", "Fresh Linen", ROOM_FRAGRANCE, 1600, 12),
    demo_product("4oz Room Spray", "Pink Grapefruit", ROOM_FRAGRANCE, 1600, 3, new=True),
    demo_product("2.5oz Wax Melt", "Vanilla Bean", ROOM_FRAGRANCE, 900, 45),
    demo_product("2.5oz Wax Melt", "Pumpkin Chai", ROOM_FRAGRANCE, 900, 18),
    demo_product("2.5oz Wax Melt", "Sugared Cranberry", ROOM_FRAGRANCE, 900, 23, sale=700),
)
