"""The legacy admin login page: admin access now goes through the main sign-in and the admin flag."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.state.auth import AuthState


class AdminLoginState(rx.State):
    """Sends a signed-in admin to /admin and a signed-in customer to /."""

    @rx.event
    async def load(self):
        """Redirect the signed-in; the signed-out stay and see the two buttons."""
        auth = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth._user(session)
        if current is None:
            return None
        return rx.redirect(routes.ADMIN if current.is_admin else routes.HOME)
