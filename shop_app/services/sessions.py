"""Server-side sessions (docs/architecture.md#sessions).

The browser holds a random 256-bit secret in an HttpOnly cookie; the database keeps only its
SHA-256 with an idle and an absolute expiry. A sign-in inside the app creates the session and a
single-use, 60-second ticket; the browser trades the ticket at ``/api/auth/session`` for the
cookie, which rotates the secret, so the value never passes through page JavaScript.

A tab that signed in holds the session until its next websocket brings the cookie: its page
state keeps a second random secret, the *state key* (never sent to the browser; the database
keeps its SHA-256 too). Every lookup is by one of the two secrets, never by the session's row id,
which counts up from 1 and which a client could guess or send (docs/security.md).

The ticket is bound to the browser that signed in: ``start`` stores the SHA-256 of that browser's
binding cookie with it, and ``exchange_ticket`` spends it only when the same cookie comes back, so
another site cannot sign a victim's browser into the attacker's account with the attacker's
ticket (login CSRF).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, select

from shop_app.models import AdminRole, AuthToken, KnownBrowser, TokenPurpose, User, UserSession
from shop_app.models.base import saved_id, utcnow

COOKIE_NAME = "shop_session"
TOKEN_BYTES = 32
TICKET_TTL = timedelta(seconds=60)
# A browser-session sign-in, and "Remember me".
IDLE_TIMEOUT = timedelta(hours=2)
ABSOLUTE_TIMEOUT = timedelta(hours=12)
REMEMBER_IDLE_TIMEOUT = timedelta(days=30)
REMEMBER_ABSOLUTE_TIMEOUT = timedelta(days=90)
TOUCH_EVERY = timedelta(minutes=1)  # how often activity extends the idle expiry


@dataclass(frozen=True, slots=True)
class Started:
    """A session just opened by a sign-in."""

    row: UserSession
    ticket: str
    """Trades for the session cookie at ``/api/auth/session`` (single use, 60 s, this browser only)."""
    state_key: str
    """Finds the session from the tab's server-side state (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class SessionUser:
    """Who a valid session belongs to."""

    session_id: int
    user_id: int
    email: str
    first_name: str
    last_name: str
    is_admin: bool
    email_verified: bool
    remember_me: bool

    @property
    def full_name(self) -> str:
        """First and last name."""
        return f"{self.first_name} {self.last_name}".strip()


def hash_secret(secret: str) -> str:
    """The SHA-256 (hex) under which a secret is stored."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_secret() -> str:
    """A fresh random secret (cookie, ticket or mail token)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def cookie_max_age(remember_me: bool) -> int | None:
    """Seconds the cookie lives: a long-lived one for Remember me, else until the browser closes."""
    return int(REMEMBER_ABSOLUTE_TIMEOUT.total_seconds()) if remember_me else None


def start(
    session: Session,
    *,
    user: User,
    remember_me: bool,
    user_agent: str = "",
    ip_address: str = "",
    browser_binding: str = "",
) -> Started:
    """Open a session for ``user``: its row, the ticket that sets its cookie and its state key.

    ``browser_binding`` is the value of the signing-in browser's binding cookie; the ticket is
    spent only by a request that carries the same, non-empty value (without one, never: the
    session is then used through its state key only).
    """
    now = utcnow()
    idle, absolute = _timeouts(remember_me)
    state_key = new_secret()
    row = UserSession(
        user_id=saved_id(user),
        token_hash=hash_secret(new_secret()),  # replaced when the ticket is exchanged
        state_key_hash=hash_secret(state_key),
        browser_hash=hash_secret(browser_binding) if browser_binding else None,
        remember_me=remember_me,
        created_at=now,
        last_seen_at=now,
        idle_expires_at=now + idle,
        absolute_expires_at=now + absolute,
        user_agent=user_agent[:255],
        ip_address=ip_address[:64],
    )
    session.add(row)
    session.flush()
    ticket = new_secret()
    session.add(
        AuthToken(
            user_id=saved_id(user),
            purpose=TokenPurpose.SIGN_IN_TICKET,
            token_hash=hash_secret(ticket),
            remember_me=remember_me,
            session_id=row.id,
            binding_hash=hash_secret(browser_binding) if browser_binding else None,
            expires_at=now + TICKET_TTL,
        )
    )
    session.flush()
    return Started(row=row, ticket=ticket, state_key=state_key)


def exchange_ticket(
    session: Session, ticket: str, *, browser_binding: str = ""
) -> tuple[str, UserSession] | None:
    """Spend a sign-in ticket: rotate its session's secret and return the new cookie value.

    ``None`` (and the ticket left as it was) when the ticket is unknown, spent, expired, or
    presented by another browser than the one that signed in (``browser_binding`` differs). Run it
    in ``db.write_transaction``: it reads, then writes.
    """
    now = utcnow()
    token = session.exec(
        select(AuthToken).where(
            AuthToken.token_hash == hash_secret(ticket),
            AuthToken.purpose == TokenPurpose.SIGN_IN_TICKET,
        )
    ).first()
    if token is None or token.used_at is not None or token.expires_at <= now or token.session_id is None:
        return None
    if not (browser_binding and token.binding_hash) or not secrets.compare_digest(
        token.binding_hash, hash_secret(browser_binding)
    ):
        return None
    spent = session.exec(  # spent once, even by two exchanges at the same moment
        sa.update(AuthToken)
        .where(col(AuthToken.id) == token.id, col(AuthToken.used_at).is_(None))
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    ).rowcount
    if spent != 1:
        return None
    row = session.get(UserSession, token.session_id)
    if row is None or not _alive(row, now):
        return None
    secret = new_secret()
    row.token_hash = hash_secret(secret)
    session.add(row)
    session.flush()
    return secret, row


def ticket_pending(session: Session, ticket: str) -> bool:
    """Whether a sign-in ticket can still be traded for its cookie (unspent, unexpired)."""
    token = session.exec(
        select(AuthToken).where(
            AuthToken.token_hash == hash_secret(ticket), AuthToken.purpose == TokenPurpose.SIGN_IN_TICKET
        )
    ).first()
    return token is not None and token.used_at is None and token.expires_at > utcnow()


def resolve_cookie(session: Session, secret: str) -> SessionUser | None:
    """The user of the session whose cookie holds ``secret``, if it is still valid."""
    if not secret:
        return None
    row = session.exec(select(UserSession).where(UserSession.token_hash == hash_secret(secret))).first()
    return _resolve(session, row)


def resolve_key(session: Session, state_key: str) -> SessionUser | None:
    """The user of the session whose state key is ``state_key``, if it is still valid."""
    if not state_key:
        return None
    row = session.exec(
        select(UserSession).where(UserSession.state_key_hash == hash_secret(state_key))
    ).first()
    return _resolve(session, row)


def end_cookie(session: Session, secret: str) -> None:
    """Delete the session whose cookie holds ``secret``."""
    if secret:
        session.execute(sa.delete(UserSession).where(col(UserSession.token_hash) == hash_secret(secret)))
        session.flush()


def end_browser(session: Session, *, secret: str, browser_binding: str) -> None:
    """Sign a browser out: delete the session whose cookie holds ``secret`` and, when the browser
    sent its binding cookie, every session it opened by signing in (each of its tabs that signed
    in holds one, found by its state key, while the cookie holds the last one only)."""
    end_cookie(session, secret)
    if browser_binding:
        session.execute(
            sa.delete(UserSession).where(col(UserSession.browser_hash) == hash_secret(browser_binding))
        )
        session.flush()


def end_all(session: Session, *, user_id: int) -> None:
    """Delete every session of a user (after a password reset)."""
    session.execute(sa.delete(UserSession).where(col(UserSession.user_id) == user_id))
    session.flush()


def _timeouts(remember_me: bool) -> tuple[timedelta, timedelta]:
    return (
        (REMEMBER_IDLE_TIMEOUT, REMEMBER_ABSOLUTE_TIMEOUT)
        if remember_me
        else (IDLE_TIMEOUT, ABSOLUTE_TIMEOUT)
    )


def _alive(row: UserSession, now: datetime) -> bool:
    return row.idle_expires_at > now and row.absolute_expires_at > now


def _resolve(session: Session, row: UserSession | None) -> SessionUser | None:
    now = utcnow()
    if row is None:
        return None
    if not _alive(row, now):
        session.delete(row)
        session.flush()
        return None
    user = session.get(User, row.user_id)
    if user is None or not user.is_active:
        return None
    if now - row.last_seen_at >= TOUCH_EVERY:
        idle, absolute = _timeouts(row.remember_me)
        row.last_seen_at = now
        row.idle_expires_at = min(now + idle, row.created_at + absolute)
        session.add(row)
        session.flush()
    is_admin = (
        session.exec(select(AdminRole.id).where(AdminRole.user_id == user.id, AdminRole.is_active)).first()
        is not None
    )
    return SessionUser(
        session_id=saved_id(row),
        user_id=saved_id(user),
        email=user.email,
        first_name=user.first_name,
        last_name=user.last_name,
        is_admin=is_admin,
        email_verified=user.email_confirmed_at is not None,
        remember_me=row.remember_me,
    )


def is_known_browser(session: Session, *, user_id: int, browser_binding: str) -> bool:
    """Whether the browser with this binding cookie has signed in to the account before."""
    if not browser_binding:
        return False
    found = session.exec(
        select(KnownBrowser.id).where(
            KnownBrowser.user_id == user_id, KnownBrowser.browser_hash == hash_secret(browser_binding)
        )
    ).first()
    return found is not None


def remember_browser(session: Session, *, user_id: int, browser_binding: str) -> None:
    """Record that this browser signed in to the account (``services.rate_limit``)."""
    if not browser_binding:
        return
    values = {"user_id": user_id, "browser_hash": hash_secret(browser_binding), "last_signed_in_at": utcnow()}
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    session.execute(
        dialect.insert(KnownBrowser)
        .values(**values)
        .on_conflict_do_update(
            index_elements=["user_id", "browser_hash"],
            set_={"last_signed_in_at": values["last_signed_in_at"]},
        )
    )
    session.flush()
