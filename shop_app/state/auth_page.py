"""/auth: the full-page Sign In / Sign Up forms (the seed's page rules and messages)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.state import notify
from shop_app.state.auth import AuthState
from shop_app.state.sign_in import SignInMixin


class AuthPageState(SignInMixin, rx.State):
    """Which tab shows, and the page's own submit handlers."""

    tab: str = "signin"
    form_key: int = 0  # bumped to clear the forms

    @rx.event
    async def load(self):
        """Signed-in visitors are sent home."""
        auth = await self.get_state(AuthState)
        await auth.load()
        self.error = ""
        if auth.is_authenticated:
            return rx.redirect(routes.HOME)
        return None

    @rx.event
    def set_tab(self, tab: str) -> None:
        """Sign In or Sign Up."""
        if tab in ("signin", "signup"):
            self.tab, self.error = tab, ""

    @rx.event
    async def submit_login(self, form: dict):
        """Sign in; on success go home. A submit once this tab is signed in (a second click queued
        behind the first) does nothing: it would open a second session."""
        if (await self.get_state(AuthState)).is_authenticated:
            return
        self.submitting, self.error = True, ""
        yield
        ok, message = await self._sign_in(form, on_page=True)
        self.submitting = False
        if not ok:
            self.error = message
            yield notify.error(message)
            return
        yield [notify.success(message), rx.redirect(routes.HOME)]

    @rx.event
    async def submit_register(self, form: dict):
        """Create the account; on success clear the form and show the Sign In tab. A submit once
        the Sign In tab shows (a second click queued behind the first, which created the account)
        does nothing: it would mail "you already have an account"."""
        if self.tab != "signup":
            return
        self.submitting, self.error = True, ""
        yield
        ok, message = await self._register(form, on_page=True)
        self.submitting = False
        if not ok:
            self.error = message
            yield notify.error(message)
            return
        self.tab, self.form_key = "signin", self.form_key + 1
        yield notify.success(message)
