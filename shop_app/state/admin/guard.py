"""The back office's access check. Every admin handler re-checks the role on the server.

``AdminGuardState`` only decides what an admin page shows: a spinner until the check is done,
then the page for admins; everyone else is sent home (the dashboard shows "Access Denied"
instead). It never grants anything: each handler that reads or changes data asks
``_admin_user_id()`` again, so a stale tab of a demoted admin cannot act.
"""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain.admin_messages import AdminLabel
from shop_app.state.auth import AuthState, private_state

ACCESS_DENIED = AdminLabel.ACCESS_DENIED.value


class AdminGuardMixin(rx.State, mixin=True):
    """``_admin_user_id()`` is the only way an admin handler learns who acts."""

    async def _admin_user_id(self) -> int | None:
        auth = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth._user(session)
        return current.user_id if current and current.is_admin else None


@private_state
class AdminGuardState(AdminGuardMixin, rx.State):
    """Whether this tab may see the back office (checked on every admin page load)."""

    checked: bool = False
    allowed: bool = False

    async def _check(self) -> bool:
        self.allowed = await self._admin_user_id() is not None
        self.checked = True
        return self.allowed

    @rx.event
    async def check(self):
        """Admin pages: admins stay, everyone else goes to the home page."""
        if not await self._check():
            return rx.redirect(routes.HOME)
        return None

    @rx.event
    async def check_dashboard(self) -> None:
        """The dashboard: non-admins stay and read "Access Denied"."""
        await self._check()
