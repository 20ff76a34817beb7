"""The cart drawer's state: a thin cache of the cart stored in the database.

The cart is found by the ``cart`` cookie (a random token; the database keeps only its hash), so
it survives reloads, new tabs and server restarts. The first page a browser loads brings its token
(``domain.cart_cookie``), so every tab of a browser reads the same one. Every handler
re-reads and re-prices the cart on the server; the browser only ever sends product ids, options
and quantities.
"""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.cart_cookie import (
    CART_COOKIE,
    CART_COOKIE_MAX_AGE_S,
    cart_token_from_header,
    is_cart_token,
)
from shop_app.domain.money import format_cents
from shop_app.domain.shipping import free_shipping_note
from shop_app.domain.tax import tax_rows
from shop_app.services import cart as carts
from shop_app.services import checkout
from shop_app.services.cart import CartError, CartOwner, CartView
from shop_app.settings import get_settings
from shop_app.state import notify
from shop_app.state.auth import AuthState
from shop_app.state.views import CartLineRow, TaxRow, cart_rows, discount_row, tax_row_views


class CartState(rx.State):
    """Cart lines, count badge, subtotal and whether the drawer is open.

    Not reset at sign-out (the cookie token must survive): every load re-derives whose cart to
    show from the session, so a signed-out tab sees only the guest cart.
    """

    cart_token: str = rx.Cookie(
        "",
        name=CART_COOKIE,
        max_age=CART_COOKIE_MAX_AGE_S,
        same_site="lax",
        secure=get_settings().site_url.startswith("https://"),
    )
    lines: list[CartLineRow] = []
    count: int = 0
    subtotal: str = format_cents(0)
    # Estimated before an address is known: the shop's own province's taxes (checkout has yours)
    shipping: str = format_cents(0)
    taxes: list[TaxRow] = []
    estimated_total: str = format_cents(0)
    free_shipping: str = ""  # "$34.50 away from free shipping" (domain.shipping.free_shipping_note)
    code: str = ""  # the discount code the cart holds (state/discount_code.py adds and removes it)
    code_refused: str = ""  # why it does not apply now (a minimum no longer met…): not taken off
    discount_label: str = ""  # "Discount (TEN)" when it applies
    discount: str = ""  # "-$5.00"
    drawer_open: bool = False
    _drawer_opened_on: str = ""
    _customer_email: str = ""  # a signed-in customer's: a code's per-customer limit counts by it

    def _durable_token(self) -> str:
        """The cart cookie's token; read back from the browser's cookie when this state lost it.

        Reflex state can vanish while the browser keeps its cookies (Redis restarted without
        persistence, the tab idle for an hour): the new state starts with an empty token, and a
        new cart made then would overwrite the cookie and leave the shopper's cart behind. The
        browser sent the cookie with the websocket handshake, so it is taken from there.

        The browser may set the cookie to anything (Reflex applies cookie values sent by the
        client): a value that is not a token of the shop's form
        (``domain.cart_cookie.is_cart_token``) counts as none.
        """
        token = self.cart_token
        if not is_cart_token(token):
            token = self.cart_token = ""
        if not token:
            token = self.cart_token = cart_token_from_header(self.router.headers.cookie)
        return token

    async def _owner(self) -> CartOwner:
        """A signed-in customer's cart is theirs; a guest's is found by the cookie."""
        auth = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth._user(session)
        self._customer_email = current.email if current else ""
        return CartOwner(token=self._durable_token(), user_id=current.user_id if current else None)

    def _show(self, view: CartView) -> None:
        """Show the cart, with its estimate (reads the store settings: call it after the cart's
        own transaction)."""
        self.lines = cart_rows(view)
        self.count = view.count
        self.subtotal = format_cents(view.subtotal_cents)
        with session_scope() as session:
            estimate = checkout.estimate(session, view, email=self._customer_email or None)
        totals = estimate.totals
        self.free_shipping = free_shipping_note(estimate.free_shipping_in)
        self.code, self.code_refused = estimate.discount.code, estimate.discount.refused or ""
        self.discount_label, self.discount = discount_row(totals)
        self.shipping = "Free" if totals.shipping_cents == 0 else format_cents(totals.shipping_cents)
        self.taxes = tax_row_views(tax_rows(totals.tax_lines, totals.tax_cents))
        self.estimated_total = format_cents(totals.total_cents)

    @rx.event
    async def load(self) -> None:
        """Read the cart of this browser (on every page load; idempotent)."""
        owner = await self._owner()
        with session_scope() as session:
            view = carts.view_cart(session, owner)
        self._show(view)

    @rx.event
    async def add(self, product_id: int, quantity: int = 1):
        """Add a product (without options) to the cart and confirm with the seed's message.

        No third argument: a button's ``on_click=CartState.add(id, 1)`` would fill it with the
        click's mouse data (Reflex passes an event's own arguments to the handler's remaining
        parameters), and that read as options the product does not offer. A product with options
        is added from its page (``ProductState.add_to_cart``).
        """
        return await self._add_product(product_id, quantity, None)

    async def _add_product(self, product_id: int, quantity: int = 1, options: dict[str, str] | None = None):
        """What ``add`` does, for the handlers of other states (the product page's button)."""
        if not self._durable_token():  # a browser that brought none (domain.cart_cookie)
            self.cart_token = carts.new_token()
        owner = await self._owner()
        try:
            with session_scope() as session:
                view, message = carts.add_item(
                    session,
                    owner,
                    product_id=int(product_id),
                    quantity=int(quantity),
                    selected_options=options or {},
                )
        except CartError as error:
            return notify.error(str(error))
        self._show(view)
        return notify.success(message)

    @rx.event
    async def set_quantity(self, line_id: int, quantity: int):
        """Change a line's quantity (zero removes it)."""
        owner = await self._owner()
        try:
            with session_scope() as session:
                view = carts.set_quantity(session, owner, line_id=int(line_id), quantity=int(quantity))
        except CartError as error:
            with session_scope() as session:
                view = carts.view_cart(session, owner)
            self._show(view)
            return notify.error(str(error))
        self._show(view)
        return None

    @rx.event
    async def remove(self, line_id: int) -> None:
        """Remove a line."""
        owner = await self._owner()
        with session_scope() as session:
            view = carts.remove_line(session, owner, line_id=int(line_id))
        self._show(view)

    @rx.event
    def set_drawer_open(self, is_open: bool) -> None:
        """Open or close the cart drawer."""
        self.drawer_open = bool(is_open)
        if self.drawer_open:
            self._drawer_opened_on = self.router.url.path

    @rx.event
    def close_drawer_from_another_page(self) -> None:
        """On a page load: close a drawer left open on another page (not one just opened here)."""
        if self.drawer_open and self.router.url.path != self._drawer_opened_on:
            self.drawer_open = False
