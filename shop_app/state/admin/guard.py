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
from shop_app.services.admin_dashboard import store_counts
from shop_app.state.auth import AuthState, private_state

ACCESS_DENIED = AdminLabel.ACCESS_DENIED.value


class AdminGuardMixin(rx.State, mixin=True):
    """``_admin_user_id()`` is the only way an admin handler learns who acts."""

    async def _admin_user_id(self) -> int | None:
        auth = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth.user(session)
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


@private_state
class AdminDashboardState(AdminGuardMixin, rx.State):
    """The dashboard's figures (loaded only for admins)."""

    products: int = 0
    active_products: int = 0
    low_stock: int = 0
    paid_orders: int = 0
    customers: int = 0
    verified_customers: int = 0
    subscribers: int = 0

    @rx.event
    async def load(self) -> None:
        """Admins see the figures; nothing is loaded for anyone else."""
        if await self._admin_user_id() is None:
            return
        with session_scope() as session:
            counts = store_counts(session)
        self.products, self.active_products, self.low_stock = (
            counts.products,
            counts.active_products,
            counts.low_stock,
        )
        self.paid_orders, self.customers = counts.paid_orders, counts.customers
        self.verified_customers, self.subscribers = counts.verified_customers, counts.subscribers
