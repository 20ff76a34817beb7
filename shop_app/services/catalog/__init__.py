"""Catalogue use-cases for the storefront: listings, search and product pages."""

from shop_app.services.catalog.listing import (
    FEATURED_LIMIT,
    PAGE_SIZE,
    CategoryCount,
    ProductCard,
    ShopPage,
    ShopQuery,
    Variation,
    active_product_count,
    category_counts,
    featured_cards,
    shop_page,
    variation,
)
from shop_app.services.catalog.product import Image, ProductDetail, Sibling, get_product

__all__ = [
    "FEATURED_LIMIT",
    "PAGE_SIZE",
    "CategoryCount",
    "Image",
    "ProductCard",
    "ProductDetail",
    "ShopPage",
    "ShopQuery",
    "Sibling",
    "Variation",
    "active_product_count",
    "category_counts",
    "featured_cards",
    "get_product",
    "shop_page",
    "variation",
]
