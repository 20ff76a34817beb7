"""The back office's access check and dashboard. Every admin handler re-checks the role."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.services.admin_dashboard import store_counts
from shop_app.state.auth import AuthState, private_state

ACCESS_DENIED = "Access Denied - You don't have permission to access the admin dashboard."


class AdminGuardMixin(rx.State, mixin=True):
    """``_admin_user_id()`` is the only way an admin handler learns who acts."""

    async def _admin_user_id(self) -> int | None:
        auth = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth.user(session)
        return current.user_id if current and current.is_admin else None


@private_state
class AdminDashboardState(AdminGuardMixin, rx.State):
    """The dashboard's figures (loaded only for admins)."""

    checked: bool = False
    allowed: bool = False
    products: int = 0
    active_products: int = 0
    low_stock: int = 0
    paid_orders: int = 0
    customers: int = 0
    verified_customers: int = 0
    subscribers: int = 0

    @rx.event
    async def load(self):
        """Admins see the figures; everyone else is sent home and nothing is loaded."""
        self.allowed = await self._admin_user_id() is not None
        self.checked = True
        if not self.allowed:
            return rx.redirect(routes.HOME)
        with session_scope() as session:
            counts = store_counts(session)
        self.products, self.active_products, self.low_stock = (
            counts.products,
            counts.active_products,
            counts.low_stock,
        )
        self.paid_orders, self.customers = counts.paid_orders, counts.customers
        self.verified_customers, self.subscribers = counts.verified_customers, counts.subscribers
        return None
