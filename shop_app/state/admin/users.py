"""State of View Users (customers) (work in progress: replaced by the screen's real state)."""

from __future__ import annotations

import reflex as rx

from shop_app.state.admin.guard import AdminGuardMixin


class ViewUsersState(AdminGuardMixin, rx.State):
    """Placeholder until the screen lands."""

    @rx.event
    async def load(self) -> None:
        """Load the screen's data (admins only)."""
        await self._admin_user_id()
