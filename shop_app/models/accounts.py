"""Accounts: users with their profile, server-side sessions, admin roles and one-time tokens.

Secrets are never stored in clear: passwords as bcrypt hashes, session and mail tokens as
SHA-256 digests of a random value that only the browser (or the mail) holds.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from shop_app.models.base import utcnow


class User(SQLModel, table=True):
    """A customer or administrator account with its profile fields."""

    __tablename__ = "users"
    # The back office lists customers newest first, a page at a time.
    __table_args__ = (sa.Index("ix_users_created", "created_at", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254, unique=True, index=True)  # stored lower-cased
    password_hash: str = Field(max_length=128)
    first_name: str = Field(default="", max_length=100)
    last_name: str = Field(default="", max_length=100)
    phone: str = Field(default="", max_length=40)
    address: str = Field(default="", max_length=255)
    address_line2: str = Field(default="", max_length=255)
    city: str = Field(default="", max_length=100)
    state: str = Field(default="", max_length=100)
    zip_code: str = Field(default="", max_length=20)
    country: str = Field(default="", max_length=100)
    email_notifications: bool = Field(default=True)
    sms_notifications: bool = Field(default=False)
    is_active: bool = Field(default=True)
    failed_sign_ins: int = Field(default=0)
    locked_until: datetime | None = Field(default=None)
    email_confirmed_at: datetime | None = Field(default=None)
    last_sign_in_at: datetime | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class UserSession(SQLModel, table=True):
    """A signed-in browser. The cookie holds the secret; we keep only its hash."""

    __tablename__ = "sessions"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    token_hash: str = Field(max_length=64, unique=True)
    # SHA-256 of the state key: the secret a signed-in tab's server-side state finds it by.
    state_key_hash: str | None = Field(default=None, max_length=64, unique=True)
    # SHA-256 of the signing-in browser's binding cookie: Sign Out ends every session it opened.
    browser_hash: str | None = Field(default=None, max_length=64, index=True)
    remember_me: bool = Field(default=False)
    created_at: datetime = Field(default_factory=utcnow)
    last_seen_at: datetime = Field(default_factory=utcnow)
    idle_expires_at: datetime
    absolute_expires_at: datetime
    user_agent: str = Field(default="", max_length=255)
    ip_address: str = Field(default="", max_length=64)


class AdminRole(SQLModel, table=True):
    """Grants a user the back office. The only role offered is ``admin``."""

    __tablename__ = "admin_roles"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE", unique=True)
    role: str = Field(default="admin", max_length=50)
    granted_at: datetime = Field(default_factory=utcnow)
    granted_by: int | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    is_active: bool = Field(default=True)


class TokenPurpose(StrEnum):
    """What a one-time token proves."""

    VERIFY_EMAIL = "verify_email"
    RESET_PASSWORD = "reset_password"
    SIGN_IN_TICKET = "sign_in_ticket"  # exchanged once by the browser for the HttpOnly cookie


class AuthToken(SQLModel, table=True):
    """A single-use, expiring token (e-mail verification, password reset, sign-in ticket)."""

    __tablename__ = "auth_tokens"
    __table_args__ = (sa.Index("ix_auth_tokens_user_purpose", "user_id", "purpose"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    purpose: str = Field(max_length=32)
    token_hash: str = Field(max_length=64, unique=True)
    remember_me: bool = Field(default=False)
    # A sign-in ticket names the session whose cookie it sets.
    session_id: int | None = Field(default=None, foreign_key="sessions.id", ondelete="CASCADE")
    # A sign-in ticket is spent only by the browser that signed in: SHA-256 of its binding cookie.
    binding_hash: str | None = Field(default=None, max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime
    used_at: datetime | None = Field(default=None)


class SignInAttempt(SQLModel, table=True):
    """A failed sign-in, counted per account and per client address to slow down guessing.

    Kept in the database so the limit holds across every backend worker.
    """

    __tablename__ = "sign_in_attempts"
    __table_args__ = (
        sa.Index("ix_sign_in_attempts_email_time", "email", "attempted_at"),
        sa.Index("ix_sign_in_attempts_address_time", "ip_address", "attempted_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254)
    ip_address: str = Field(default="", max_length=64)
    # SHA-256 of the browser's binding cookie: a known browser is held back by its own failures only.
    browser_hash: str | None = Field(default=None, max_length=64)
    attempted_at: datetime = Field(default_factory=utcnow)


class KnownBrowser(SQLModel, table=True):
    """A browser that has signed in to an account (by the SHA-256 of its binding cookie).

    The account-wide sign-in limit does not hold a known browser back (``services.rate_limit``),
    so guessing from elsewhere cannot lock the owner out of their usual browser.
    """

    __tablename__ = "known_browsers"
    __table_args__ = (sa.UniqueConstraint("user_id", "browser_hash", name="uq_known_browsers_user_browser"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    browser_hash: str = Field(max_length=64)
    last_signed_in_at: datetime = Field(default_factory=utcnow)
