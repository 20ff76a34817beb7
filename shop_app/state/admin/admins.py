"""State of Manage Admins (docs/spec/admin-people.md#admins, #admin-messages, #admin-rules;
docs/spec/README.md#roles): the admin list, Add Admin, Remove, 'Your Session'.

The rules are ``services.admin.admins``'; this state moves values between the screen and them.
Every handler is an ``admin_event`` (the role is read again), so a customer (or a removed admin's stale tab)
sending events by hand reads and changes nothing. The list is short (the shop's admins), so it is
read whole into a backend-only var and searched in memory; after every change it is read again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.admin_messages import AdminUserMessage as M
from shop_app.services.admin import admins as svc
from shop_app.services.admin.admins import AdminEntry
from shop_app.services.admin.customers import shop_date, shop_date_time
from shop_app.services.sessions import (
    ABSOLUTE_TIMEOUT,
    IDLE_TIMEOUT,
    REMEMBER_ABSOLUTE_TIMEOUT,
    REMEMBER_IDLE_TIMEOUT,
)
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import AuthState, private_state

log = logging.getLogger(__name__)

SESSION_NOTE = (
    f"Activity keeps this session alive for up to {int(ABSOLUTE_TIMEOUT.total_seconds() // 3600)} hours; "
    f"it ends after {int(IDLE_TIMEOUT.total_seconds() // 3600)} idle hours."
)
REMEMBERED_NOTE = (
    f"Remember me is on: activity keeps this session alive for up to {REMEMBER_ABSOLUTE_TIMEOUT.days} "
    f"days; it ends after {REMEMBER_IDLE_TIMEOUT.days} idle days."
)


@dataclass
class AdminRowView:
    """A row of the admin table."""

    role_id: int = 0
    name: str = ""
    email: str = ""
    role: str = ""
    granted_at: str = ""
    granted_by: str = ""
    is_active: bool = True
    is_you: bool = False


def admin_row(entry: AdminEntry, *, me: int) -> AdminRowView:
    """Format one admin for the table; ``me`` is the signed-in admin's user id."""
    return AdminRowView(
        role_id=entry.role_id,
        name=entry.name or entry.email,
        email=entry.email,
        role=entry.role,
        granted_at=shop_date(entry.granted_at),
        granted_by=entry.granted_by,
        is_active=entry.is_active,
        is_you=entry.user_id == me,
    )


@private_state
class ManageAdminsState(AdminGuardMixin, rx.State):
    """The list, its stats and search, the Add Admin and Remove dialogs and the session card."""

    _entries: list[AdminEntry] = []
    loaded: bool = False
    rows: list[AdminRowView] = []
    total: int = 0
    active: int = 0
    search: str = ""

    add_open: bool = False
    add_error: str = ""
    add_role: str = svc.DEFAULT_ROLE
    roles: list[str] = list(svc.ROLES)

    remove_id: int = 0  # the role the Remove confirmation asks about (0: closed)
    remove_name: str = ""

    me_name: str = ""
    me_email: str = ""
    me_role: str = ""
    me_since: str = ""
    me_expires: str = ""
    me_remembered: bool = False

    @rx.var
    def remove_question(self) -> str:
        """The Remove confirmation's question."""
        return (
            f"Remove admin access for {self.remove_name}? Their account stays; they can no longer "
            "open the back office."
        )

    def _reload(self, me: int) -> None:
        with session_scope() as session:
            self._entries = svc.list_admins(session)
        stats = svc.admin_stats(self._entries)
        self.total, self.active = stats.total, stats.active
        self._show(me)
        self.loaded = True

    def _show(self, me: int) -> None:
        self.rows = [admin_row(entry, me=me) for entry in svc.search_admins(self._entries, self.search)]

    async def _load_session_card(self) -> None:
        auth = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth._user(session)
            card = svc.session_card(session, session_id=current.session_id) if current else None
        if card is not None:
            self.me_name, self.me_email, self.me_role = card.name, card.email, card.role
            self.me_since, self.me_expires = (
                shop_date_time(card.signed_in_at),
                shop_date_time(card.expires_at),
            )
            self.me_remembered = card.remember_me

    @admin_event(failure=M.LOAD_ADMINS_FAILED.value)
    async def load(self, admin_id: int) -> None:
        """Read the admins and this session (admins only)."""
        self._reload(admin_id)
        await self._load_session_card()

    @admin_event
    async def set_search(self, value: str, admin_id: int) -> None:
        """Narrow the list to names, e-mails or roles containing ``value``."""
        self.search = str(value)[:200]
        self._show(admin_id)

    # ------------------------------------------------------------------ add

    @admin_event
    async def open_add(self) -> None:
        """Open Add Admin, empty."""
        self.add_error, self.add_role, self.add_open = "", svc.DEFAULT_ROLE, True

    @admin_event
    async def set_add_open(self, value: bool) -> None:
        """Close (or open) the dialog."""
        self.add_open = bool(value)

    @admin_event
    async def set_add_role(self, value: str) -> None:
        """Choose the role (only admin is offered)."""
        self.add_role = str(value)[: svc.ROLE_MAX_LENGTH]

    @admin_event
    async def save_add(self, form: dict, admin_id: int):
        """Add Admin: grant the role to the account with the e-mail typed."""
        email = str(form.get("email", ""))
        try:
            svc.add_admin(actor_id=admin_id, email=email, role=self.add_role)
        except svc.AdminError as refused:
            self.add_error = str(refused)
            return notify.error(str(refused))
        except Exception:
            log.exception("Adding an admin failed")
            self.add_error = M.ADD_FAILED.value
            return notify.error(M.ADD_FAILED.value)
        self.add_open, self.add_error = False, ""
        self._reload(admin_id)
        return notify.success(M.ADMIN_ADDED.value)

    # ------------------------------------------------------------------ remove

    @admin_event
    async def ask_remove(self, role_id: int, admin_id: int) -> None:
        """Open the Remove confirmation for an admin of the list (never for yourself)."""
        entry = next((e for e in self._entries if e.role_id == role_id), None)
        if entry is not None and entry.user_id != admin_id:
            self.remove_id = entry.role_id
            self.remove_name = f"{entry.name} ({entry.email})" if entry.email else entry.name

    @admin_event
    async def set_remove_open(self, value: bool) -> None:
        """Cancel (or Escape) closes the confirmation; nothing is removed."""
        if not value:
            self.remove_id, self.remove_name = 0, ""

    @admin_event
    async def confirm_remove(self, admin_id: int):
        """Remove: delete the role; the account stays."""
        role_id, self.remove_id, self.remove_name = self.remove_id, 0, ""
        if not role_id:
            return None
        try:
            svc.remove_admin(actor_id=admin_id, role_id=role_id)
        except svc.AdminError as refused:
            self._reload(admin_id)
            return notify.error(str(refused))
        except Exception:
            log.exception("Removing admin role %s failed", role_id)
            return notify.error(M.REMOVE_FAILED.value)
        self._reload(admin_id)
        return notify.success(M.ADMIN_REMOVED.value)
