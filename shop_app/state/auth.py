"""Who is signed in on this tab, re-checked on the server for every private request.

The session id lives in a backend-only var (never sent to the browser). A new websocket (a
reload, a new tab) finds it again from the HttpOnly session cookie sent with the handshake.
"""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie

import reflex as rx
from sqlmodel import Session

from shop_app.db import session_scope
from shop_app.services import sessions
from shop_app.services.sessions import SessionUser


class AuthState(rx.State):
    """The signed-in customer's public details (what the header and menus show)."""

    auth_loaded: bool = False
    is_authenticated: bool = False
    is_admin: bool = False
    email_verified: bool = False
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    # A just-minted, single-use sign-in ticket: the layout's invisible image trades it for the cookie.
    cookie_ticket: str = ""
    _session_id: int | None = None

    @rx.var
    def initial(self) -> str:
        """The avatar's letter: the first letter of the first name."""
        return (self.first_name or self.email or "?")[:1].upper()

    @rx.var
    def full_name(self) -> str:
        """First and last name."""
        return f"{self.first_name} {self.last_name}".strip()

    def _cookie_secret(self) -> str:
        try:
            jar = SimpleCookie(self.router.headers.cookie or "")
        except CookieError:
            return ""
        morsel = jar.get(sessions.COOKIE_NAME)
        return morsel.value if morsel else ""

    def user(self, session: Session) -> SessionUser | None:
        """The signed-in user, checked against the database now (None when signed out/expired)."""
        current = sessions.resolve_id(session, self._session_id)
        if current is None and self._session_id is None:
            current = sessions.resolve_cookie(session, self._cookie_secret())
        self._show(current)
        return current

    def _show(self, current: SessionUser | None) -> None:
        self._session_id = current.session_id if current else None
        self.is_authenticated = current is not None
        self.is_admin = bool(current and current.is_admin)
        self.email_verified = bool(current and current.email_verified)
        self.first_name = current.first_name if current else ""
        self.last_name = current.last_name if current else ""
        self.email = current.email if current else ""

    def signed_in(self, current: SessionUser, *, ticket: str) -> None:
        """Mark this tab signed in; ``ticket`` makes the browser fetch its session cookie."""
        self._show(current)
        self.cookie_ticket = ticket
        self.auth_loaded = True

    @rx.event
    async def load(self) -> None:
        """Find the session of this tab (idempotent; every page runs it).

        Private data is forgotten when the tab was signed in and no longer is (signed out,
        expired, revoked). A tab that was never signed in holds none: resetting every private
        state on each of a guest's page loads would load, reset and send them all every time.
        """
        was_signed_in = self.is_authenticated or self._session_id is not None
        with session_scope() as session:
            current = self.user(session)
        self.auth_loaded = True
        if current is None and was_signed_in:
            await self._forget_private_data()

    async def _forget_private_data(self) -> None:
        for state_class in _PRIVATE_STATES:
            private = await self.get_state(state_class)
            private.reset()


# States that hold a customer's private data; reset on sign-out (filled in by their modules).
_PRIVATE_STATES: list[type[rx.State]] = []


def private_state(cls: type[rx.State]) -> type[rx.State]:
    """Class decorator: register a state whose data must vanish at sign-out."""
    _PRIVATE_STATES.append(cls)
    return cls
