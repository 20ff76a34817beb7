"""Sign-in, registration and password-reset requests, shared by the dialog and the /auth page.

Handlers here are thin: validate with the domain rules, call ``services.auth``, then mark the
tab signed in; the layout then has the browser trade the one-time ticket for its HttpOnly cookie.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import reflex as rx
from sqlmodel import Session

from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.domain.messages import AuthMessage
from shop_app.services import auth, sessions
from shop_app.services.cart import merge_guest_cart
from shop_app.services.passwords import run_password_work
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
        """Returns (signed in, message). On success the tab is signed in and the cart merged.

        The password check (bcrypt) and the database work run in a password thread
        (``services.passwords.run_password_work``)."""
        email, password = _text(form, "email"), _text(form, "password")
        problem = validation.validate_login(email, password, on_page=on_page)
        if problem:
            return False, problem
        cart = await self.get_state(CartState)
        auth_state = await self.get_state(AuthState)
        attempt = _Attempt(
            email=email,
            password=password,
            remember_me=_checked(form, "remember_me"),
            client_ip=self.router.session.client_ip or "",
            user_agent=self.router.headers.user_agent or "",
            browser_binding=auth_state._browser_binding(),
            cart_token=cart.cart_token if cart._durable_token() else "",
        )
        try:
            refused, signed_in = await run_password_work(_authenticate, attempt)
        except Exception:
            log.exception("sign-in failed")
            return False, (AuthMessage.LOGIN_ERROR if on_page else AuthMessage.UNEXPECTED_ERROR).value
        if refused or signed_in is None:
            return False, refused
        # Whatever this tab held for the previous visitor (a guest's empty profile, orders and
        # favourites) is not the new customer's: back to "not loaded", so pages show placeholders.
        await auth_state._forget_private_data()
        auth_state._signed_in(*signed_in)
        return True, AuthMessage.WELCOME_BACK.value

    async def _register(self, form: dict, *, on_page: bool) -> tuple[bool, str]:
        """Returns (created, message); the hashing (bcrypt) and the database work run in a password
        thread. The verification mail is only recorded (the delivery worker sends it)."""
        try:
            await run_password_work(
                _create_account,
                form=dict(form),
                on_page=on_page,
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


@dataclass(frozen=True)
class _Attempt:
    """A sign-in, as read from the tab on the event loop (the thread reads no state)."""

    email: str
    password: str
    remember_me: bool
    client_ip: str
    user_agent: str
    browser_binding: str
    cart_token: str  # the guest's cart to merge, "" when none


_SignedIn = tuple[sessions.Started, sessions.SessionUser | None]


def _authenticate(attempt: _Attempt) -> tuple[str, _SignedIn | None]:
    """Check the credentials and open the session (in a worker thread: bcrypt blocks).

    Returns (refusal, None) or ("", (started, current)). A refusal leaves the block normally, so
    the failure ``authenticate`` recorded is committed and the sign-in rate limit counts it (an
    exception would roll it back).
    """
    with session_scope() as session:
        try:
            user = auth.authenticate(
                session,
                email=attempt.email,
                password=attempt.password,
                ip_address=attempt.client_ip,
                browser_binding=attempt.browser_binding,
            )
        except auth.AuthError as error:
            return str(error), None
        started = sessions.start(
            session,
            user=user,
            remember_me=attempt.remember_me,
            user_agent=attempt.user_agent,
            ip_address=attempt.client_ip,
            browser_binding=attempt.browser_binding,
        )
        if attempt.cart_token:
            merge_guest_cart(session, token=attempt.cart_token, user_id=user.id)
        return "", (started, sessions.resolve_key(session, started.state_key))


def _create_account(*, form: dict, on_page: bool, client: str) -> None:
    """Register (in a worker thread: bcrypt blocks); raises ``auth.AuthError`` when refused."""
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
            client=client,
        )
