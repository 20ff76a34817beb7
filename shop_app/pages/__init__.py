"""One module per page. ``PAGES`` is the table the app registers in a loop."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import reflex as rx

from shop_app import routes
from shop_app.pages.home import home
from shop_app.pages.not_found import not_found
from shop_app.pages.product import product
from shop_app.pages.shop import shop
from shop_app.state.cart import CartState
from shop_app.state.home import HomeState
from shop_app.state.product import ProductState
from shop_app.state.shop import ShopState
from shop_app.state.site import SiteState

# Every public page loads the header's data: the brand and the cart.
COMMON_LOAD = [SiteState.load, CartState.load]


@dataclass(frozen=True, kw_only=True)
class Page:
    """A page of the site: where it lives, what it is called, what it loads."""

    route: str
    component: Callable[[], rx.Component]
    title: str | rx.Var[str]
    description: str = ""
    on_load: list[Any] = field(default_factory=list)


PAGES: tuple[Page, ...] = (
    Page(
        route=routes.PRODUCT,
        component=product,
        title=ProductState.page_title,
        description="Hand-poured in small batches in British Columbia.",
        on_load=[*COMMON_LOAD, ProductState.load],
    ),
    Page(
        route=routes.HOME,
        component=home,
        title="Handcrafted Soy Candles & Home Fragrance",
        description="Hand-poured soy candles, body care and home fragrance made in British Columbia.",
        on_load=[*COMMON_LOAD, HomeState.load],
    ),
    Page(
        route=routes.SHOP,
        component=shop,
        title="Shop",
        description="Browse our soy candles, body care and home fragrance.",
        on_load=[*COMMON_LOAD, ShopState.load],
    ),
)

NOT_FOUND = Page(route="404", component=not_found, title="Page Not Found", on_load=COMMON_LOAD)
