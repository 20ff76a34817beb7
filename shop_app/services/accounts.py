"""Accounts use-cases over a database session."""

from __future__ import annotations

from sqlmodel import Session, select

from shop_app.domain.messages import AuthMessage
from shop_app.domain.validation import is_valid_email, normalize_email, validate_admin_password
from shop_app.models import AdminRole, User
from shop_app.models.base import saved_id, utcnow
from shop_app.services.passwords import hash_password


class AccountError(ValueError):
    """A use-case refused its input; the message is meant for the person who gave it."""


def find_user_by_email(session: Session, email: str) -> User | None:
    """The account registered with ``email``, if any."""
    return session.exec(select(User).where(User.email == normalize_email(email))).first()


def create_admin(
    session: Session, *, email: str, password: str, first_name: str = "Shop", last_name: str = "Admin"
) -> User:
    """Create an administrator, or promote an existing account and set its password.

    Admin passwords need at least 12 characters (docs/architecture.md#sessions). The e-mail counts as
    confirmed: the person running this command owns the shop.
    """
    email = normalize_email(email)
    if not is_valid_email(email):
        raise AccountError(AuthMessage.INVALID_EMAIL)
    problem = validate_admin_password(password)
    if problem:
        raise AccountError(problem)
    now = utcnow()
    user = find_user_by_email(session, email)
    if user is None:
        user = User(email=email, password_hash="", first_name=first_name, last_name=last_name)
    user.password_hash = hash_password(password)
    user.email_confirmed_at = user.email_confirmed_at or now
    user.is_active = True
    user.updated_at = now
    session.add(user)
    session.flush()
    role = session.exec(select(AdminRole).where(AdminRole.user_id == user.id)).first()
    if role is None:
        session.add(AdminRole(user_id=saved_id(user), role="admin"))
    else:
        role.is_active = True
    session.flush()
    return user


def is_admin(session: Session, user_id: int) -> bool:
    """Whether the user holds an active admin role."""
    role = session.exec(select(AdminRole).where(AdminRole.user_id == user_id, AdminRole.is_active)).first()
    return role is not None
