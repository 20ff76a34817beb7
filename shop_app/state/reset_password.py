"""/reset-password?token=…: choose a new password with a mailed link."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain.messages import AuthMessage
from shop_app.services import auth
from shop_app.services.passwords import run_password_work
from shop_app.state import notify


class ResetPasswordState(rx.State):
    """Whether the link is usable, and the outcome of the form."""

    checked: bool = False
    link_ok: bool = False
    submitting: bool = False
    error: str = ""
    show_password: bool = False
    _changed: bool = False  # this visit's submit changed the password (the link is spent)

    @rx.event
    def toggle_password(self) -> None:
        """Show or hide the new password."""
        self.show_password = not self.show_password

    def _token(self) -> str:
        return self.router.url.query_parameters.get("token", "")

    @rx.event
    def load(self) -> None:
        """Check the link without spending it."""
        with session_scope() as session:
            self.link_ok = auth.reset_token_is_valid(session, self._token())
        self.checked, self.error, self.submitting, self._changed = True, "", False, False

    @rx.event
    async def submit(self, form: dict):
        """Set the new password, end every session of the account, and go to sign in (the hashing,
        bcrypt, runs in a password thread). A second click while the first is under way, or
        after it changed the password, does nothing (it would spend the used link and say it is
        invalid)."""
        if self.submitting or self._changed:
            return
        self.submitting, self.error = True, ""
        yield
        try:
            await run_password_work(
                _reset,
                token=self._token(),
                password=str(form.get("password", "")),
                confirm_password=str(form.get("confirm_password", "")),
            )
        except auth.AuthError as error:
            self.error = str(error)
        finally:
            self.submitting = False  # whatever happened (a failure Reflex reports included)
        if self.error:
            if self.error == AuthMessage.RESET_LINK_INVALID:
                self.link_ok = False
            yield notify.error(self.error)
            return
        self._changed = True
        yield [notify.success(AuthMessage.PASSWORD_CHANGED.value), rx.redirect(routes.AUTH)]


def _reset(*, token: str, password: str, confirm_password: str) -> None:
    """Set the new password (in a worker thread); raises ``auth.AuthError`` when refused."""
    with session_scope() as session:
        auth.reset_password(session, token=token, password=password, confirm_password=confirm_password)
