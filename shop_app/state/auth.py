"""Who is signed in on this tab, re-checked on the server for every private request.

Identity comes only from secrets (docs/security.md, "Sessions"):

- a new websocket (a reload, a new tab) finds the session from the HttpOnly session cookie the
  browser sent with the handshake;
- a tab that has just signed in (its websocket opened before the cookie existed) holds the
  session's *state key*, a random secret kept in a backend-only var, never sent to the browser
  and never taken from an event's arguments.

Nothing here is callable from the browser but ``load``: the helpers other states use
(``_user``, ``_signed_in``) are private, so Reflex does not register them as events.
"""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie

import reflex as rx
from sqlmodel import Session

from shop_app.db import session_scope
from shop_app.services import sessions
from shop_app.services.sessions import SessionUser, Started
from shop_app.settings import get_settings

BROWSER_COOKIE = "shop_browser"
BROWSER_COOKIE_MAX_AGE = 60 * 60 * 24 * 400  # the longest a browser keeps a cookie (400 days)
MAX_BROWSER_KEY_CHARS = 128


class AuthState(rx.State):
    """The signed-in customer's public details (what the header and menus show)."""

    auth_loaded: bool = False
    is_authenticated: bool = False
    is_admin: bool = False
    email_verified: bool = False
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    # A just-minted, single-use sign-in ticket: the page's script (assets/shop.js) trades it for the
    # cookie, once per tab.
    cookie_ticket: str = ""
    # This browser's binding value: a sign-in ticket is spent only with it (login CSRF). SameSite
    # strict: a request that another site starts never carries it.
    browser_key: str = rx.Cookie(
        "",
        name=BROWSER_COOKIE,
        max_age=BROWSER_COOKIE_MAX_AGE,
        same_site="strict",
        secure=get_settings().site_url.startswith("https://"),
    )
    _session_key: str = ""

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

    def _user(self, session: Session) -> SessionUser | None:
        """The signed-in user, checked against the database now (None when signed out/expired).

        The state key of a tab that signed in comes first; once its session is gone (signed out,
        expired, revoked) the key is dropped and the handshake's cookie decides.
        """
        current = sessions.resolve_key(session, self._session_key) if self._session_key else None
        if current is None:
            self._session_key = ""
            current = sessions.resolve_cookie(session, self._cookie_secret())
        self._show(current)
        return current

    def _show(self, current: SessionUser | None) -> None:
        self.is_authenticated = current is not None
        self.is_admin = bool(current and current.is_admin)
        self.email_verified = bool(current and current.email_verified)
        self.first_name = current.first_name if current else ""
        self.last_name = current.last_name if current else ""
        self.email = current.email if current else ""

    def _browser_binding(self) -> str:
        """This browser's binding value, minted the first time it signs in."""
        key = self.browser_key if isinstance(self.browser_key, str) else ""
        if not key or len(key) > MAX_BROWSER_KEY_CHARS:
            key = sessions.new_secret()
            self.browser_key = key
        return key

    def _signed_in(self, started: Started, current: SessionUser) -> None:
        """Mark this tab signed in; the ticket makes the browser fetch its session cookie."""
        self._session_key = started.state_key
        self._show(current)
        self.cookie_ticket = started.ticket
        self.auth_loaded = True

    @rx.event
    async def load(self) -> None:
        """Find the session of this tab (idempotent; every page runs it).

        Private data is forgotten when the tab was signed in and no longer is (signed out,
        expired, revoked). A tab that was never signed in holds none: resetting every private
        state on each of a guest's page loads would load, reset and send them all every time.
        """
        was_signed_in = self.is_authenticated or bool(self._session_key)
        with session_scope() as session:
            current = self._user(session)
            if self.cookie_ticket and not sessions.ticket_pending(session, self.cookie_ticket):
                self.cookie_ticket = ""  # traded (or expired): the next pages must not ask again
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
