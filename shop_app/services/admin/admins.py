"""Manage Admins (docs/spec/admin-people.md#admins, #admin-messages, #admin-rules; docs/spec/README.md#roles):
who holds the back office, granting and withdrawing it.

An admin role grants the whole back office; the only role offered is ``admin`` (docs/spec/README.md#roles).
Adding needs an existing account (the seed looks the user up by e-mail first); removing deletes the
role record and leaves the account (docs/spec/admin-people.md#admins). Changes are immediate:
``services.sessions`` reads the role again on every request, so a removed admin is refused on their very next
one.

The caller has already checked that ``actor_id`` is a signed-in admin (docs/architecture.md#access-control).
The rules that protect the shop itself stay here: nobody removes their own access, and the last active
admin cannot be removed. Every change takes the admin roles' lock first (``BEGIN IMMEDIATE`` on
SQLite, ``FOR UPDATE`` on PostgreSQL), so two admins removing each other at the same moment
cannot leave the shop without one: the second removal sees the first and is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from shop_app.db import write_transaction
from shop_app.domain.admin_messages import AdminLabel, AdminUserMessage
from shop_app.domain.validation import normalize_email
from shop_app.models import AdminRole, User, UserSession
from shop_app.models.base import saved_id, utcnow

DEFAULT_ROLE: Final = "admin"
"""The seed's default role (docs/spec/admin-people.md#records; docs/spec/limits.md#back-office)."""
ROLES: Final[tuple[str, ...]] = (DEFAULT_ROLE,)
"""The roles the Add Admin dialog offers: only ``admin``, which grants full access
(docs/spec/README.md#roles)."""
ROLE_MAX_LENGTH: Final = 50
"""The role column's length (docs/spec/limits.md#back-office)."""


class AdminError(ValueError):
    """A refused change; the message is meant for the admin who asked."""


@dataclass(frozen=True, slots=True)
class AdminEntry:
    """An admin role with the account it belongs to, as Manage Admins lists it."""

    role_id: int
    user_id: int
    first_name: str  # "Unknown" when the account cannot be read (docs/spec/admin-people.md#admin-messages)
    last_name: str  # "User" likewise
    email: str  # "" when the account cannot be read
    role: str
    granted_at: datetime
    granted_by: str  # the granting admin's name (else e-mail); "" when unknown (CLI, deleted)
    role_active: bool
    account_active: bool

    @property
    def name(self) -> str:
        """First and last name."""
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def is_active(self) -> bool:
        """Whether this admin can use the back office now: an active role on an enabled account."""
        return self.role_active and self.account_active


@dataclass(frozen=True, slots=True)
class AdminStats:
    """Manage Admins' stats cards."""

    total: int
    active: int


@dataclass(frozen=True, slots=True)
class SessionCard:
    """The 'Your Session' card: who is signed in on this browser and until when."""

    name: str
    email: str
    role: str
    signed_in_at: datetime
    expires_at: datetime  # when the session ends without further activity
    remember_me: bool


def list_admins(session: Session) -> list[AdminEntry]:
    """Every admin role, most recently granted first (docs/spec/admin-people.md#admins), with its account."""
    granter = aliased(User)
    rows = session.execute(
        sa.select(
            col(AdminRole.id),
            col(AdminRole.user_id),
            col(AdminRole.role),
            col(AdminRole.granted_at),
            col(AdminRole.is_active),
            col(User.id).label("account_id"),
            col(User.first_name),
            col(User.last_name),
            col(User.email),
            col(User.is_active).label("account_active"),
            col(granter.first_name).label("granter_first"),
            col(granter.last_name).label("granter_last"),
            col(granter.email).label("granter_email"),
        )
        .outerjoin(User, col(User.id) == col(AdminRole.user_id))
        .outerjoin(granter, col(granter.id) == col(AdminRole.granted_by))
        .order_by(col(AdminRole.granted_at).desc(), col(AdminRole.id).desc())
    ).all()
    return [admin_entry(row) for row in rows]


def current_admins(session: Session) -> list[AdminEntry]:
    """The admins whose role is active (the dashboard's Admin Management tab)."""
    return [entry for entry in list_admins(session) if entry.role_active]


def admin_entry(row: sa.Row) -> AdminEntry:
    """An admin from a row of :func:`list_admins`' query; an account that cannot be read shows as
    'Unknown' 'User' (docs/spec/admin-people.md#admin-messages)."""
    known = row.account_id is not None
    granter = f"{row.granter_first or ''} {row.granter_last or ''}".strip() or (row.granter_email or "")
    return AdminEntry(
        role_id=row.id,
        user_id=row.user_id,
        first_name=row.first_name if known else AdminLabel.UNKNOWN_FIRST_NAME.value,
        last_name=row.last_name if known else AdminLabel.UNKNOWN_LAST_NAME.value,
        email=row.email if known else "",
        role=row.role,
        granted_at=row.granted_at,
        granted_by=granter,
        role_active=row.is_active,
        account_active=bool(known and row.account_active),
    )


def admin_stats(entries: list[AdminEntry]) -> AdminStats:
    """Total Admins (every role) and Active Admins (those who can use the back office now)."""
    return AdminStats(total=len(entries), active=sum(1 for e in entries if e.is_active))


def search_admins(entries: list[AdminEntry], text: str) -> list[AdminEntry]:
    """The admins whose name, e-mail or role contains ``text`` (case-insensitive)."""
    needle = " ".join(text.split()).casefold()
    if not needle:
        return list(entries)
    return [e for e in entries if any(needle in field.casefold() for field in (e.name, e.email, e.role))]


def add_admin(*, actor_id: int, email: str, role: str, engine: Engine | None = None) -> AdminEntry:
    """Grant ``role`` to the account registered with ``email`` (docs/spec/admin-people.md#admins,
    #admin-rules).

    A role withdrawn earlier (inactive) is granted again. ``actor_id`` is recorded as granted_by.

    Raises:
        AdminError: 'Please fill in all fields'; a role other than admin; 'User not found. The
            user must have an account first.'; 'User is already an admin'.
    """
    email, role = email.strip(), role.strip()
    if not email or not role:
        raise AdminError(AdminUserMessage.ALL_FIELDS.value)
    if role not in ROLES:
        raise AdminError(AdminUserMessage.ROLE_NOT_OFFERED.value)
    try:
        with write_transaction(engine) as session:
            _lock_roles(session)
            user = session.exec(select(User).where(User.email == normalize_email(email))).first()
            if user is None:
                raise AdminError(AdminUserMessage.USER_NOT_FOUND.value)
            row = session.exec(select(AdminRole).where(AdminRole.user_id == user.id)).first()
            if row is not None and row.is_active:
                raise AdminError(AdminUserMessage.ALREADY_ADMIN.value)
            row = row or AdminRole(user_id=saved_id(user))
            row.role, row.granted_at, row.granted_by, row.is_active = role, utcnow(), actor_id, True
            session.add(row)
            session.flush()
            return next(e for e in list_admins(session) if e.role_id == row.id)
    except sa.exc.IntegrityError:  # the same account granted by another admin at the same moment
        raise AdminError(AdminUserMessage.ALREADY_ADMIN.value) from None


def remove_admin(*, actor_id: int, role_id: int, engine: Engine | None = None) -> None:
    """Delete an admin role; the account stays (docs/spec/admin-people.md#admins).

    Raises:
        AdminError: the role is already gone; it is the actor's own; or it belongs to the last
            admin who can use the back office.
    """
    with write_transaction(engine) as session:
        _lock_roles(session)
        row = session.get(AdminRole, role_id)
        if row is None:
            raise AdminError(AdminUserMessage.ADMIN_GONE.value)
        if row.user_id == actor_id:
            raise AdminError(AdminUserMessage.CANNOT_REMOVE_SELF.value)
        active = _active_admin_ids(session)
        if row.id in active and not active - {row.id}:
            raise AdminError(AdminUserMessage.LAST_ADMIN.value)
        session.delete(row)


def _lock_roles(session: Session) -> None:
    """Serialise admin changes: every role row is locked until the transaction ends."""
    session.execute(select(AdminRole.id).with_for_update()).all()


def _active_admin_ids(session: Session) -> set[int]:
    """Role ids of the admins who can use the back office now."""
    rows = session.execute(
        select(col(AdminRole.id))
        .join(User, col(User.id) == col(AdminRole.user_id))
        .where(col(AdminRole.is_active), col(User.is_active))
    ).all()
    return {role_id for (role_id,) in rows}


def session_card(session: Session, *, session_id: int) -> SessionCard | None:
    """The signed-in admin's session: name, e-mail, role, since when and until when."""
    row = session.execute(
        select(UserSession, User, col(AdminRole.role))
        .join(User, col(User.id) == col(UserSession.user_id))
        .outerjoin(AdminRole, col(AdminRole.user_id) == col(User.id))
        .where(col(UserSession.id) == session_id)
    ).first()
    if row is None:
        return None
    current, user, role = row
    return SessionCard(
        name=f"{user.first_name} {user.last_name}".strip(),
        email=user.email,
        role=role or "",
        signed_in_at=current.created_at,
        expires_at=min(current.idle_expires_at, current.absolute_expires_at),
        remember_me=current.remember_me,
    )
