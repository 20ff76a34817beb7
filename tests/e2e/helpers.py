"""Shared knowledge of the demo catalogue for the browser tests."""

from __future__ import annotations

from shop_app.domain.grouping import parse_product_name
from shop_app.services.seed.demo_catalog import PRODUCTS, DemoProduct


def demo_id(product: DemoProduct) -> int:
    """The database id of a demo product: the e2e database is fresh and loads them in order."""
    return PRODUCTS.index(product) + 1


def product_named(name: str) -> DemoProduct:
    """The demo product with this exact name."""
    return next(p for p in PRODUCTS if p.name == name)


def with_sibling_scent() -> tuple[DemoProduct, DemoProduct]:
    """Two in-stock demo products in the same vessel with different scents."""
    for first in PRODUCTS:
        base = parse_product_name(first.name).base_name
        for second in PRODUCTS:
            if (
                second is not first
                and parse_product_name(second.name).base_name == base
                and first.stock_quantity > 5
                and second.stock_quantity > 5
            ):
                return first, second
    raise LookupError("the demo catalogue has no vessel with two scents in stock")


def low_stock() -> DemoProduct:
    """A demo product with only a few left."""
    return next(p for p in PRODUCTS if 1 <= p.stock_quantity <= 3)
