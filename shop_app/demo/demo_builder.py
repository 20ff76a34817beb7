"""How one row of the demo catalogue becomes a :class:`DemoProduct`.

A row names a base (``"[size ][vessel ]type words"``), a scent, a subcategory, a
price and a stock level; the product format, the vessel and the scent fill in the
description, details, SKU and artwork.
"""

from __future__ import annotations

from shop_app.domain.product_names import variation_name

from .artwork import DemoImageSpec
from .demo_categories import SUBCATEGORIES
from .demo_formats import format_for
from .demo_scents import SCENTS
from .demo_types import DemoProduct
from .demo_vessels import VESSEL_CODES, vessel_colour, vessel_phrase

__all__ = ["demo_product"]

_CHARITY = "A portion of every sale supports cancer care in our community."
_CATEGORY_OF_TYPE = {"candles": "Candles", "body-care": "Body Care", "home-fragrance": "Home Fragrance"}
_SHORT_LABELS = {"Your Signature Blend": "Your Blend"}


def demo_product(
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
    option_scents: tuple[str, ...] = (),
) -> DemoProduct:
    """Build a product from ``base`` ("[size ][vessel ]type words") and a scent of :data:`SCENTS`.

    The main category is the subcategory's parent (or follows the product type when there is no
    subcategory) unless ``category`` is given.  Featured products mention the shop's charity.
    """
    fmt, vessel = format_for(base)
    sc = SCENTS[scent]
    description = f"{sc.blurb} {fmt.blurb.format(vessel=vessel_phrase(vessel))}"
    if featured:
        description += f" {_CHARITY}"
    ingredients = fmt.ingredients
    if scent == "Unscented":
        ingredients = tuple(i for i in ingredients if "fragrance" not in i)
    sku = "-".join(p for p in (fmt.sku_prefix, VESSEL_CODES.get(vessel or "", ""), sc.code) if p)
    main_category = SUBCATEGORIES[subcategory] if subcategory else _CATEGORY_OF_TYPE[fmt.product_type]
    return DemoProduct(
        name=variation_name(base, scent),
        description=description,
        category=category or main_category,
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
        image=DemoImageSpec(
            kind=fmt.kind,
            colour=vessel_colour(vessel, fmt.colour),
            accent=sc.accent,
            label=_SHORT_LABELS.get(scent, scent),
        ),
        option_scents=option_scents,
    )
