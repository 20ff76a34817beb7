"""/checkout: the summary priced on the server, the shopper's details, and paying.

The browser sends only the form fields and the card token; the order total is computed from the
database by ``services.checkout`` and is the amount charged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, fields

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain.countries import (
    DEFAULT_COUNTRY,
    DEFAULT_SHIPPING_COUNTRIES,
    canonical_country,
    countries_phrase,
)
from shop_app.domain.messages import AddressMessage, CheckoutMessage, PaymentMessage
from shop_app.domain.money import format_cents
from shop_app.domain.orders import PaymentProvider
from shop_app.domain.shipping import free_shipping_note
from shop_app.domain.tax import tax_rows
from shop_app.models import User
from shop_app.services import auth, checkout
from shop_app.services.cart import CartOwner
from shop_app.services.payments import ChargeStatus
from shop_app.services.square.gateway import square_gateway
from shop_app.settings import SquareEnvironment, get_settings
from shop_app.state import notify
from shop_app.state.auth import AuthState
from shop_app.state.auth_dialog import AuthDialogState, after_dialog_sign_in
from shop_app.state.cart import CartState
from shop_app.state.views import CartLineRow, TaxRow, cart_rows, discount_row, tax_row_views

log = logging.getLogger(__name__)

SQUARE_SDK_SANDBOX = "https://sandbox.web.squarecdn.com/v1/square.js"
SQUARE_SDK_PRODUCTION = "https://web.squarecdn.com/v1/square.js"
PAYPAL_DELAY_S = 1.5  # docs/spec/limits.md#storefront: the simulated PayPal takes 1.5 s
STALE_PROCESSING_S = 120  # longer than any payment (3 Square attempts of 15 s) takes
LOCAL_TEST_CARDS = (
    ("Visa ending 1111 (approved)", "cnon:card-nonce-ok"),
    ("Card that is declined", "cnon:card-nonce-declined"),
    ("Wrong security code (CVV)", "cnon:card-nonce-rejected-cvv"),
    ("Wrong postal code", "cnon:card-nonce-rejected-postalcode"),
    ("Expired card", "cnon:card-nonce-rejected-expiration"),
)


@dataclass
class Prefill:
    """Values the form starts with (a signed-in customer's profile and saved address)."""

    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""
    address: str = ""
    address_line2: str = ""
    city: str = ""
    state: str = ""
    zip_code: str = ""
    country: str = DEFAULT_COUNTRY


def _form(data: dict) -> checkout.CheckoutForm:
    names = [f.name for f in fields(checkout.CheckoutForm)]
    return checkout.CheckoutForm(**{name: str(data.get(name, "") or "") for name in names})


def default_country(ships_to: tuple[str, ...]) -> str:
    """The country the form starts with: the United States (seed) when the shop ships there."""
    return DEFAULT_COUNTRY if DEFAULT_COUNTRY in ships_to else ships_to[0]


def _prefill(user: User | None, ships_to: tuple[str, ...]) -> tuple[Prefill, str]:
    """The form's starting values and, for a saved address the shop no longer ships to, why its
    address is not filled in (the contact details still are)."""
    country = default_country(ships_to)
    if user is None:
        return Prefill(country=country), ""
    contact = {
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "phone": user.phone,
    }
    saved = canonical_country(user.country) if user.country else None
    if user.country and saved not in ships_to:
        notice = AddressMessage.SAVED_ADDRESS_NOT_SHIPPED.format(
            country=saved or user.country, countries=countries_phrase(ships_to)
        )
        return Prefill(**contact, country=country), notice
    address = {
        "address": user.address,
        "address_line2": user.address_line2,
        "city": user.city,
        "state": user.state,
        "zip_code": user.zip_code,
    }
    return Prefill(**contact, **address, country=saved or country), ""


class CheckoutState(rx.State):
    """The checkout page."""

    loaded: bool = False
    lines: list[CartLineRow] = []
    subtotal: str = ""
    shipping: str = ""
    taxes: list[TaxRow] = []  # one row per tax of the address's province ("GST 5%"), or "Tax"
    total: str = ""
    free_shipping: bool = False
    free_shipping_note: str = ""  # "$34.50 away from free shipping" in the address's zone
    discount_label: str = ""  # "Discount (TEN)" when the cart's code applies
    discount: str = ""  # "-$5.00"
    code_refused: str = ""  # why the cart's code does not apply (for this customer, to this cart)
    signed_in: bool = False
    guest_checkout: bool = True
    prefill: Prefill = Prefill()
    countries: list[str] = list(DEFAULT_SHIPPING_COUNTRIES)  # where the shop ships (store settings)
    address_notice: str = ""  # a saved address in a country no longer shipped to
    form_key: int = 0
    payment_method: str = "card"
    processing: bool = False
    error: str = ""
    error_field: str = ""  # the form field the error is about: marked invalid and focused
    _processing_since: float = 0.0
    _shown: str = ""  # the summary this tab shows (Quote.shown): placing its order must find it
    _country: str = ""  # where the summary's taxes are those of: the form's country and province
    _region: str = ""
    _email: str = ""  # the e-mail of the last Place Order: a guest's code is checked for it

    @rx.var
    def is_empty(self) -> bool:
        """Nothing to check out."""
        return self.loaded and not self.lines

    @rx.var
    def square_sdk(self) -> dict[str, str]:
        """Where the card form of sandbox/production comes from (Square's Web Payments SDK)."""
        settings = get_settings()
        sandbox = settings.square_environment == SquareEnvironment.SANDBOX
        return {
            "src": SQUARE_SDK_SANDBOX if sandbox else SQUARE_SDK_PRODUCTION,
            "application_id": settings.square_application_id,
            "location_id": settings.square_location_id,
        }

    @rx.var
    def local_payments(self) -> bool:
        """Local mode: test cards and the simulated PayPal are offered."""
        return get_settings().square_environment == SquareEnvironment.LOCAL

    async def _owner(self) -> tuple[CartOwner, int | None]:
        auth = await self.get_state(AuthState)
        cart = await self.get_state(CartState)
        with session_scope() as session:
            current = auth._user(session)
        user_id = current.user_id if current else None
        return CartOwner(token=cart._durable_token(), user_id=user_id), user_id

    @rx.event
    def forget_visit(self) -> None:
        """On the load of every other page: the next visit of the checkout starts from its
        placeholder, not from this visit's cart (a tab coming back showed the old cart's total,
        or "Your Cart is Empty", until its own load answered)."""
        if (self.router.url.path.rstrip("/") or "/") != routes.CHECKOUT:
            self.loaded = False

    @rx.event
    async def cart_changed(self) -> None:
        """The cart drawer changed the cart: a checkout on screen prices it again, so its summary
        and Place Order's total follow (the typed values stay). Elsewhere nothing happens."""
        if self.loaded and (self.router.url.path.rstrip("/") or "/") == routes.CHECKOUT:
            await self._refresh()

    @rx.event
    async def load(self) -> None:
        """Price the cart on the server and pre-fill a signed-in customer's details."""
        if self.processing and time.time() - self._processing_since > STALE_PROCESSING_S:
            self.processing = False  # the worker placing the order stopped (restart, crash)
        await self._refresh(new_visit=True)

    @rx.event
    async def choose_country(self, country: str) -> None:
        """The shopper picked a country: the summary's taxes become that country's (the
        province/state typed stays)."""
        if isinstance(country, str) and len(country) <= checkout.FIELD_LIMITS["country"][1] and self.loaded:
            self._country = country
            await self._refresh()

    @rx.event
    async def choose_region(self, region: str) -> None:
        """The shopper left the province/state field: the summary's taxes become that
        province's (GST and PST in British Columbia, HST in Ontario…)."""
        if isinstance(region, str) and len(region) <= checkout.FIELD_LIMITS["state"][1] and self.loaded:
            self._region = region
            await self._refresh()

    async def _refresh(self, *, new_visit: bool = False) -> None:
        """Price the cart now for the form's address and show it (the typed values stay).

        ``new_visit``: the page was (re)loaded, so its form starts again from the pre-filled
        values, and so does the address the summary is priced for (a reload kept the state,
        which showed the taxes of the address typed before it)."""
        owner, user_id = await self._owner()
        with session_scope() as session:
            user = session.get(User, user_id) if user_id else None
            self.prefill, self.address_notice = _prefill(user, checkout.ships_to(session))
            if new_visit or not self.loaded:  # the address starts as the form does
                self._country, self._region = self.prefill.country, self.prefill.state
            destination = checkout.destination(self._country, self._region)
            customer = user.email if user else self._email or None  # a code's per-customer limit
            quote = checkout.quote(session, owner, destination, email=customer)
        self.countries = list(quote.ships_to)
        self.signed_in = user is not None
        self.guest_checkout = user is None
        self.lines = cart_rows(quote)
        self.subtotal = format_cents(quote.totals.subtotal_cents)
        self.shipping = format_cents(quote.totals.shipping_cents)
        self.taxes = tax_row_views(tax_rows(quote.totals.tax_lines, quote.totals.tax_cents))
        self.total = format_cents(quote.totals.total_cents)
        self.free_shipping = quote.totals.shipping_cents == 0 and not quote.is_empty
        self.free_shipping_note = free_shipping_note(quote.free_shipping_in)
        self.discount_label, self.discount = discount_row(quote.totals)
        self.code_refused = quote.discount.refused or ""
        self._shown = quote.shown
        if not self.loaded:
            self.form_key += 1  # mount the inputs again with the pre-filled values
        self.loaded = True

    @rx.event
    def set_guest_checkout(self, value: bool):
        """Continue as a guest (on by default when signed out); unticked, the sign-in dialog opens."""
        self.guest_checkout = bool(value)
        if not self.guest_checkout and not self.signed_in:
            return AuthDialogState.open_sign_in
        return None

    @rx.event
    def set_payment_method(self, method: str) -> None:
        """Card, or the simulated PayPal (local mode only)."""
        if method == "card" or (method == "paypal" and self.local_payments):
            self.payment_method = method

    async def _not_ready(self, form: checkout.CheckoutForm, shown_total: str) -> checkout.FieldProblem | None:
        """Why a valid form cannot be ordered from this tab yet (about no field), else ``None``.

        ``shown_total``: the total the page showed when Place Order was pressed (the form's
        hidden ``shown_total``). A province typed and Place Order pressed at once re-prices the
        summary (the field's blur) just before the order arrives: the shopper never saw that
        total, so it is shown first."""
        if not self.guest_checkout and not self.signed_in:
            return checkout.FieldProblem("", CheckoutMessage.SIGN_IN_OR_GUEST.value)
        if form.destination != checkout.destination(self._country, self._region):
            # The address's taxes are not the ones shown (a field filled in without being left,
            # by the browser's autofill): show them, and let the shopper confirm the new total.
            self._country, self._region = form.country, form.state
            await self._refresh()
            return checkout.FieldProblem("", CheckoutMessage.TAXES_UPDATED.value)
        if shown_total != self.total:
            return checkout.FieldProblem("", CheckoutMessage.TOTAL_UPDATED.value)
        return None

    @rx.event(background=True)
    async def place_order(self, data: dict):
        """Validate, place the order (stock taken atomically) and pay; success → /order-success.

        A background event: paying may wait on Square for up to three attempts of 15 s, longer
        than Reflex keeps a tab's state locked (10 s with Redis), and the lock would expire under
        the payment. The state is locked only to read and to show what happened.
        """
        form = _form(data)
        try:
            problem = await asyncio.to_thread(_check, form)
        except Exception:  # the database is out of reach: nothing was written, the form stays
            log.exception("checking the checkout form failed")
            problem = checkout.FieldProblem("", PaymentMessage.PROCESSING_FAILED.value)
        async with self:
            if self.processing:  # already placing this tab's order (a second click)
                return
            self.error_field = ""
            self._email = form.cleaned().email  # a refused code is shown for it from now on
            problem = problem or await self._not_ready(form, str(data.get("shown_total", "")))
            if problem:
                # The alert above the payment form says what is wrong; the field is marked.
                self.error, self.error_field = problem.message, problem.field
            else:
                self.processing, self.error, self._processing_since = True, "", time.time()
                owner, user_id = await self._owner()
                paypal = self.payment_method == "paypal" and self.local_payments
                shown = self._shown
        if problem:
            if problem.field:
                yield _focus(problem.field)  # the field with the problem, scrolled into view
            return
        save_address = bool(user_id) and data.get("save_address") in ("on", True, "true")
        try:
            result = await asyncio.to_thread(
                _place_and_pay,
                owner=owner,
                user_id=user_id,
                form=form,
                source_id=str(data.get("source_id", "")),
                paypal=paypal,
                save_address=save_address,
                shown=shown,
            )
        except checkout.CartChangedError as error:
            # Nothing was ordered or charged: show the cart as it is now (an empty one shows
            # "Your Cart is Empty") and ask again; the typed form stays.
            async with self:
                self.processing, self.error = False, str(error)
                await self._refresh()
                emptied = not self.lines
            yield CartState.load
            if emptied:  # the page now says "Your Cart is Empty": the form's alert is gone with it
                yield notify.warning(str(error))
            return
        except checkout.CheckoutError as error:
            async with self:
                self.processing, self.error = False, str(error)
            return
        except Exception:
            log.exception("checkout failed")
            async with self:
                self.processing = False
                failed = PaymentMessage.PAYPAL_FAILED if paypal else PaymentMessage.PROCESSING_FAILED
                self.error = failed.value
            return
        async with self:
            self.processing = False
            if result.status == ChargeStatus.DECLINED:
                # The order is cancelled and its stock released; the cart and the form stay as they are.
                self.error = result.message or PaymentMessage.CARD_FAILED.value
                return
        yield [CartState.load, rx.redirect(routes.order_success_url(result.order_id, result.order_number))]


def _focus(field: str) -> rx.event.EventSpec:
    """Focus the form's field, which scrolls it into view (``field``: a name of
    :class:`checkout.CheckoutForm`). ``rx.set_focus`` uses the field's React ref: the page's
    CSP refuses the ``eval`` of ``rx.call_script``."""
    return rx.set_focus(f"checkout-{'notes' if field == 'special_instructions' else field}")


def _check(form: checkout.CheckoutForm) -> checkout.FieldProblem | None:
    """The form's first problem against the store settings' countries (in a worker thread)."""
    with session_scope() as session:
        return checkout.check_form(session, form)


def _place_and_pay(
    *,
    owner: CartOwner,
    user_id: int | None,
    form: checkout.CheckoutForm,
    source_id: str,
    paypal: bool,
    save_address: bool,
    shown: str,
) -> checkout.PaymentResult:
    """Place the order and pay it, in a worker thread (database and Square calls block); only
    the cart the tab showed (``shown``) is ordered."""
    placed = checkout.place_order(
        owner=owner,
        user_id=user_id,
        form=form,
        provider=PaymentProvider.PAYPAL_SIMULATED if paypal else PaymentProvider.SQUARE,
        shown=shown,
    )
    if user_id and save_address:
        _save_address(user_id, form)
    if paypal:
        time.sleep(PAYPAL_DELAY_S)
        return checkout.pay_simulated_paypal(order_id=placed.order_id, owner=owner)
    gateway = square_gateway(get_settings())
    return checkout.pay(order_id=placed.order_id, source_id=source_id, gateway=gateway, owner=owner)


def _save_address(user_id: int, form: checkout.CheckoutForm) -> None:
    with session_scope() as session:
        auth.save_default_address(session, user_id=user_id, form=form)


@after_dialog_sign_in
async def _checkout_after_sign_in(dialog: AuthDialogState, _favorite: int) -> list:
    """After a sign-in through the dialog on the checkout: the page switches to the customer,
    priced with their (merged) cart, the form filled in from their account (it kept the guest's
    view, total and empty fields until Place Order was refused as a changed cart)."""
    if (dialog.router.url.path.rstrip("/") or "/") != routes.CHECKOUT:
        return []
    checkout_state = await dialog.get_state(CheckoutState)
    checkout_state.loaded = False  # mount the fields again, with the customer's details
    await checkout_state._refresh()
    return []
