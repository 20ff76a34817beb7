"""One module per page. ``PAGES`` is the table the app registers in a loop."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import reflex as rx

from shop_app import routes
from shop_app.pages.account.auth_page import auth_page
from shop_app.pages.account.orders import order_detail, order_history
from shop_app.pages.account.profile import account
from shop_app.pages.account.reset_password import reset_password
from shop_app.pages.account.wishlist import wishlist
from shop_app.pages.admin import ADMIN_SCREENS
from shop_app.pages.admin.login import admin_login
from shop_app.pages.checkout import checkout_page
from shop_app.pages.custom_creator import custom_creator
from shop_app.pages.custom_orders import custom_orders
from shop_app.pages.home import home
from shop_app.pages.info.about import about
from shop_app.pages.info.contact import contact
from shop_app.pages.info.faq import faq
from shop_app.pages.info.legal import privacy, terms
from shop_app.pages.info.reviews import reviews
from shop_app.pages.info.unsubscribe import unsubscribe
from shop_app.pages.not_found import not_found
from shop_app.pages.order_lookup import order_lookup, order_status
from shop_app.pages.order_success import order_success
from shop_app.pages.product import product
from shop_app.pages.shop import shop
from shop_app.state.account import AccountState
from shop_app.state.admin.login import AdminLoginState
from shop_app.state.auth import AuthState
from shop_app.state.auth_dialog import AuthDialogState
from shop_app.state.auth_page import AuthPageState
from shop_app.state.cart import CartState
from shop_app.state.checkout import CheckoutState
from shop_app.state.custom_creator import CustomCreatorState
from shop_app.state.custom_orders import CustomOrdersState
from shop_app.state.home import HomeState
from shop_app.state.info import AboutState
from shop_app.state.newsletter_unsubscribe import UnsubscribeState
from shop_app.state.notify import NotificationState
from shop_app.state.order_lookup import OrderLookupState, OrderStatusState
from shop_app.state.order_success import OrderSuccessState
from shop_app.state.orders import OrdersState
from shop_app.state.product import NOT_FOUND_TITLE, ProductState
from shop_app.state.reset_password import ResetPasswordState
from shop_app.state.shop import ShopState
from shop_app.state.site import SiteState
from shop_app.state.wishlist import WishlistState

# Every public page loads the header's data: the brand, who is signed in, the cart, favourites.
COMMON_LOAD = [
    SiteState.load,
    AuthState.load,
    CartState.load,
    WishlistState.load,
    AuthDialogState.close,
    CartState.close_drawer_from_another_page,  # overlays left open must not follow the shopper
    NotificationState.expire,
    CheckoutState.forget_visit,  # the next checkout starts from its placeholder, not the last cart
]
PRIVATE = "noindex"  # pages search engines should leave alone
# The title the document has (the server's, on a product page's first load) until the page's
# state brings its own: it read "Product Not Found" over the product meanwhile.
_TITLE_AS_SENT: rx.Var[str] = rx.Var(
    f'(typeof document === "undefined" ? {json.dumps(NOT_FOUND_TITLE)} : document.title)', _var_type=str
)


@dataclass(frozen=True, kw_only=True)
class Page:
    """A page of the site: where it lives, what it is called, what it loads."""

    route: str
    component: Callable[[], rx.Component]
    title: str | rx.Var[str]
    description: str = ""
    on_load: list[Any] = field(default_factory=list)
    robots: str = ""


PAGES: tuple[Page, ...] = (
    Page(
        route=routes.PRODUCT,
        component=product,
        title=rx.cond(ProductState.page_title != "", ProductState.page_title, _TITLE_AS_SENT),
        description="Hand-poured in small batches in British Columbia.",
        on_load=[*COMMON_LOAD, ProductState.load],
    ),
    Page(
        route=routes.ACCOUNT_ORDER,
        component=order_detail,
        title="Order Details",
        on_load=[*COMMON_LOAD, OrdersState.load_one],
        robots=PRIVATE,
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
    Page(
        route=routes.AUTH,
        component=auth_page,
        title="Sign In",
        on_load=[SiteState.load, AuthPageState.load],
        robots=PRIVATE,
    ),
    Page(
        route=routes.ACCOUNT,
        component=account,
        title="My Account",
        on_load=[*COMMON_LOAD, AccountState.load],
        robots=PRIVATE,
    ),
    Page(
        route=routes.ACCOUNT_ORDERS,
        component=order_history,
        title="Order History",
        on_load=[*COMMON_LOAD, OrdersState.load],
        robots=PRIVATE,
    ),
    Page(
        route=routes.ACCOUNT_WISHLIST,
        component=wishlist,
        title="My Favorites",
        on_load=COMMON_LOAD,
        robots=PRIVATE,
    ),
    Page(
        route=routes.RESET_PASSWORD,
        component=reset_password,
        title="Reset Password",
        on_load=[*COMMON_LOAD, ResetPasswordState.load],
        robots=PRIVATE,
    ),
    Page(
        route=routes.CHECKOUT,
        component=checkout_page,
        title="Checkout",
        # Indexable like any page a shopper can reach (the SEO budget covers /checkout):
        # its HTML holds nothing of a shopper's; the cart and form arrive over the websocket.
        description="Check out securely: shipping to Canada and the US, card payment through Square.",
        on_load=[*COMMON_LOAD, CheckoutState.load],
    ),
    Page(
        route=routes.ORDER_SUCCESS,
        component=order_success,
        title="Thank You",
        on_load=[*COMMON_LOAD, OrderSuccessState.load],
        robots=PRIVATE,
    ),
    Page(
        route=routes.ORDER_STATUS,
        component=order_status,
        title="Your Order",
        on_load=[*COMMON_LOAD, OrderStatusState.load],
        robots=PRIVATE,
    ),
    Page(
        route=routes.ORDER_LOOKUP,
        component=order_lookup,
        title="Find Your Order",
        description="Check the status and tracking of an order with your email address and order number.",
        on_load=[*COMMON_LOAD, OrderLookupState.load],
    ),
    Page(
        route=routes.CUSTOM_ORDERS,
        component=custom_orders,
        title="Custom Orders",
        description="Custom, bulk and wholesale orders of our hand-poured soy candles and body care.",
        on_load=[*COMMON_LOAD, CustomOrdersState.load],
    ),
    Page(
        route=routes.CUSTOM_CREATOR,
        component=custom_creator,
        title="Custom Candle Creator",
        description="Design your own soy candle: choose a vessel, blend up to three scents.",
        on_load=[*COMMON_LOAD, CustomCreatorState.load],
    ),
    Page(route=routes.TERMS, component=terms, title="Terms of Service", on_load=COMMON_LOAD),
    Page(route=routes.PRIVACY, component=privacy, title="Privacy Policy", on_load=COMMON_LOAD),
    Page(
        route=routes.FAQ,
        component=faq,
        title="FAQ",
        description="How to order, shipping to Canada and the US, soy wax, candle care and custom orders.",
        on_load=COMMON_LOAD,
    ),
    Page(
        route=routes.REVIEWS,
        component=reviews,
        title="Customer Reviews",
        description="What our customers say about our hand-poured soy candles.",
        on_load=COMMON_LOAD,
    ),
    Page(
        route=routes.CONTACT,
        component=contact,
        title="Contact Us",
        description="Get in touch about an order, a scent or a custom piece.",
        on_load=COMMON_LOAD,
    ),
    Page(
        route=routes.ABOUT,
        component=about,
        title="About Us",
        description="Our story, our mission and the cancer charity every sale supports.",
        on_load=[*COMMON_LOAD, AboutState.load],
    ),
    Page(
        route=routes.NEWSLETTER_UNSUBSCRIBE,
        component=unsubscribe,
        title="Unsubscribe",
        on_load=[*COMMON_LOAD, UnsubscribeState.load],
        robots=PRIVATE,
    ),
    Page(
        route=routes.ADMIN_LOGIN,
        component=admin_login,
        title="Admin Login",
        on_load=[*COMMON_LOAD, AdminLoginState.load],
        robots=PRIVATE,
    ),
    *(
        Page(
            route=path, component=screen.component, title=screen.title, on_load=screen.on_load, robots=PRIVATE
        )
        for screen in ADMIN_SCREENS
        for path in screen.paths
    ),
)

NOT_FOUND = Page(
    route="404", component=not_found, title="Page Not Found", on_load=COMMON_LOAD, robots=PRIVATE
)
