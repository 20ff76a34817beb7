"""Sign-in, registration and password-reset requests, shared by the dialog and the /auth page.

Handlers here are thin: validate with the domain rules, call ``services.auth``, then mark the
tab signed in; the layout then has the browser trade the one-time ticket for its HttpOnly cookie.
"""

from __future__ import annotations

import logging

import reflex as rx
from sqlmodel import Session

from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.domain.messages import AuthMessage
from shop_app.services import auth, sessions
from shop_app.services.cart import merge_guest_cart
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import get_settings
from shop_app.state.auth import AuthState
from shop_app.state.cart import CartState

log = logging.getLogger(__name__)


def links(session: Session) -> auth.Links:
    """Where mailed links point and the brand that signs the mails."""
    return auth.Links(site_url=get_settings().site_url, brand=get_store_settings(session).company_name)


def _text(form: dict, key: str) -> str:
    value = form.get(key, "")
    return value if isinstance(value, str) else ""


def _checked(form: dict, key: str) -> bool:
    return form.get(key) in (True, "on", "true", "1")


class SignInMixin(rx.State, mixin=True):
    """Submitting state and the shared sign-in/register/forgot handlers' logic."""

    submitting: bool = False
    error: str = ""
    notice: str = ""
    show_password: bool = False

    @rx.event
    def toggle_password(self) -> None:
        """Show or hide the password fields."""
        self.show_password = not self.show_password

    async def _sign_in(self, form: dict, *, on_page: bool) -> tuple[bool, str]:
        """Returns (signed in, message). On success the tab is signed in and the cart merged."""
        email, password = _text(form, "email"), _text(form, "password")
        problem = validation.validate_login(email, password, on_page=on_page)
        if problem:
            return False, problem
        cart = await self.get_state(CartState)
        auth_state = await self.get_state(AuthState)
        binding = auth_state._browser_binding()
        client_ip, refused = self.router.session.client_ip or "", ""
        try:
            with session_scope() as session:
                try:
                    user = auth.authenticate(
                        session, email=email, password=password, ip_address=client_ip, browser_binding=binding
                    )
                except auth.AuthError as error:
                    # Leave the block normally: the failure ``authenticate`` recorded is committed,
                    # so the sign-in rate limit counts it (an exception would roll it back).
                    refused = str(error)
                else:
                    started = sessions.start(
                        session,
                        user=user,
                        remember_me=_checked(form, "remember_me"),
                        user_agent=self.router.headers.user_agent or "",
                        ip_address=client_ip,
                        browser_binding=binding,
                    )
                    if cart._durable_token():
                        merge_guest_cart(session, token=cart.cart_token, user_id=user.id)
                    current = sessions.resolve_key(session, started.state_key)
        except Exception:
            log.exception("sign-in failed")
            return False, (AuthMessage.LOGIN_ERROR if on_page else AuthMessage.UNEXPECTED_ERROR).value
        if refused:
            return False, refused
        # Whatever this tab held for the previous visitor (a guest's empty profile, orders and
        # favourites) is not the new customer's: back to "not loaded", so pages show placeholders.
        await auth_state._forget_private_data()
        auth_state._signed_in(started, current)
        return True, AuthMessage.WELCOME_BACK.value

    def _register(self, form: dict, *, on_page: bool) -> tuple[bool, str]:
        try:
            with session_scope() as session:
                auth.register(
                    session,
                    first_name=_text(form, "first_name"),
                    last_name=_text(form, "last_name"),
                    email=_text(form, "email"),
                    password=_text(form, "password"),
                    confirm_password=_text(form, "confirm_password"),
                    agree_to_terms=None if on_page else _checked(form, "agree_to_terms"),
                    phone=_text(form, "phone"),
                    links=links(session),
                    client=self.router.session.client_ip or "",
                )
        except auth.AuthError as error:
            return False, str(error)
        except Exception:
            log.exception("registration failed")
            return False, (AuthMessage.REGISTRATION_ERROR if on_page else AuthMessage.UNEXPECTED_ERROR).value
        return True, AuthMessage.ACCOUNT_CREATED.value

    def _forgot(self, form: dict) -> str:
        client = self.router.session.client_ip or ""
        try:
            with session_scope() as session:
                return auth.request_password_reset(
                    session, email=_text(form, "email"), links=links(session), client=client
                )
        except auth.AuthError as error:  # asked too often from this address
            return str(error)
