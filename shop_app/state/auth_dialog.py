"""The sign-in dialog: Sign In / Create Account tabs and the forgot-password form.

The dialog knows the account pages and the cart it reloads after a sign-in, not the features
built on it: the favourites (``state/wishlist.py``) open it for a guest's heart and register, with
:func:`after_dialog_sign_in`, what they do once the guest has signed in. So the dependency runs
one way (wishlist → dialog) and the two modules import no cycle (tests/unit/state/test_import_cycles.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import reflex as rx

from shop_app import routes
from shop_app.domain.messages import WishlistMessage
from shop_app.state import notify
from shop_app.state.account import AccountState
from shop_app.state.cart import CartState
from shop_app.state.orders import OrdersState
from shop_app.state.sign_in import SignInMixin

CLOSE_AFTER_LOGIN_S = 0.1  # docs/spec/limits.md#storefront: the dialog closes about 100 ms after login
Tab = Literal["login", "register", "forgot"]


class AuthDialogState(SignInMixin, rx.State):
    """Whether the dialog is open, on which tab, and what it is doing."""

    is_open: bool = False
    tab: str = "login"

    _opened_on: str = ""  # the page the dialog was opened on
    # The product whose heart a guest clicked: favourited once they sign in here. Set only by the
    # server (WishlistState.toggle, after validating the id), forgotten when used or the dialog closes.
    _favorite_after_sign_in: int = 0

    def _open(self, tab: Tab) -> None:
        self.tab, self.is_open, self.error, self.notice, self.submitting = tab, True, "", "", False
        self._opened_on = self.router.url.path
        self._favorite_after_sign_in = 0

    def _set_closed(self) -> None:
        self.is_open = False
        self._favorite_after_sign_in = 0

    def _open_for_favorite(self, product_id: int):
        """A guest clicked the heart of ``product_id`` (a validated id): sign in, then favourite it."""
        self._open("login")
        self._favorite_after_sign_in = product_id
        return notify.info(WishlistMessage.SIGN_IN_REQUIRED.value)

    @rx.event
    def open_sign_in(self) -> None:
        """Open on the Sign In tab."""
        self._open("login")

    @rx.event
    def open_register(self) -> None:
        """Open on the Create Account tab."""
        self._open("register")

    @rx.event
    def open_for_wishlist(self):
        """A guest tried to favourite something: ask them to sign in."""
        self._open("login")
        return notify.info(WishlistMessage.SIGN_IN_REQUIRED.value)

    @rx.event
    def close(self) -> None:
        """On a page load: close a dialog opened on another page (it must not follow the shopper
        around), but not one the shopper opened on this page while it was still loading."""
        if self.is_open and self.router.url.path != self._opened_on:
            self._set_closed()

    @rx.event
    def set_open(self, is_open: bool) -> None:
        """Open or close (Escape, the close button, Continue as Guest)."""
        if is_open is True:
            self.is_open = True
        else:
            self._set_closed()

    @rx.event
    def set_tab(self, tab: str) -> None:
        """Switch between Sign In, Create Account and Forgot password."""
        if tab in ("login", "register", "forgot"):
            self.tab, self.error, self.notice = tab, "", ""

    @rx.event
    async def submit_login(self, form: dict):
        """Sign in; on success close about 100 ms later. A submit of a closed dialog (a second
        click queued behind the first, which signed in and closed it) does nothing: it would open
        a second session."""
        if not self.is_open:
            return
        self.submitting, self.error = True, ""
        yield
        ok, message = await self._sign_in(form, on_page=False)
        if not ok:
            self.submitting, self.error = False, message
            yield notify.error(message)
            return
        favorite = self._favorite_after_sign_in
        # Shown with the signed-in header in this very update: a yielded notify event would reach
        # the browser only after this handler ends (the browser sends a tab's events one at a
        # time), that is after the close below and the reloads (issue 18, acceptance 6).
        (await self.get_state(notify.NotificationState))._put(message, "success")
        yield
        await asyncio.sleep(CLOSE_AFTER_LOGIN_S)
        self.submitting = False
        self._set_closed()
        yield _after_sign_in(self.router.url.path)
        for hook in _AFTER_SIGN_IN_HOOKS:
            yield await hook(self, favorite)

    @rx.event
    async def submit_register(self, form: dict):
        """Create the account ("Creating Account..." meanwhile); on success close with the message.
        A submit of a closed dialog (a second click queued behind the first, which created the
        account and closed it) does nothing: it would mail "you already have an account"."""
        if not self.is_open:
            return
        self.submitting, self.error = True, ""
        yield
        ok, message = await self._register(form, on_page=False)
        self.submitting = False
        if not ok:
            self.error = message
            yield notify.error(message)
            return
        self._set_closed()
        yield notify.success(message)

    @rx.event
    def submit_forgot(self, form: dict):
        """Mail a reset link (the same answer whether or not the address has an account)."""
        self.notice = self._forgot(form)
        return notify.info(self.notice)


AfterSignIn = Callable[[AuthDialogState, int], Awaitable[Any]]
"""``hook(dialog, favorite)`` → the events to send once a shopper signed in through the dialog;
``favorite`` is the (validated) product whose heart opened the dialog, 0 when none did."""

_AFTER_SIGN_IN_HOOKS: list[AfterSignIn] = []


def after_dialog_sign_in(hook: AfterSignIn) -> AfterSignIn:
    """Decorator: run ``hook`` after every sign-in through the dialog (see the module docstring)."""
    if hook not in _AFTER_SIGN_IN_HOOKS:
        _AFTER_SIGN_IN_HOOKS.append(hook)
    return hook


def _after_sign_in(path: str) -> list:
    """Reload what depends on who is signed in: the header's cart, and the data of the account
    page the dialog was used on (reset at sign-in, so it shows placeholders meanwhile). The
    favourites reload themselves (their :func:`after_dialog_sign_in` hook)."""
    events: list = [CartState.load]
    path = path.rstrip("/") or "/"
    if path == routes.ACCOUNT:
        events.append(AccountState.load)
    elif path == routes.ACCOUNT_ORDERS:
        events.append(OrdersState.load)
    elif path.startswith(routes.ACCOUNT_ORDERS + "/"):
        events.append(OrdersState.load_one)
    return events
