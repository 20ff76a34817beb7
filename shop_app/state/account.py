"""/account: the customer's profile, its edit mode and the e-mail verification notice."""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.messages import AuthMessage
from shop_app.models import User
from shop_app.services import auth
from shop_app.state import notify
from shop_app.state.auth import AuthState, private_state
from shop_app.state.sign_in import links

NOT_SET = "Not set"


@private_state
class AccountState(rx.State):
    """Profile fields as saved, and the edit form's state."""

    loaded: bool = False
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""
    email_verified: bool = True
    editing: bool = False

    @rx.var
    def greeting_name(self) -> str:
        """The greeting uses the first name, else "User" (seed)."""
        return self.first_name or "User"

    async def _user(self) -> User | None:
        auth_state = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth_state._user(session)
            return session.get(User, current.user_id) if current else None

    def _show(self, user: User | None) -> None:
        self.first_name = user.first_name if user else ""
        self.last_name = user.last_name if user else ""
        self.email = user.email if user else ""
        self.phone = user.phone if user else ""
        self.email_verified = bool(user and user.email_confirmed_at)

    @rx.event
    async def load(self):
        """Load the profile; say how an e-mail verification link went (?verified=1|0)."""
        self._show(await self._user())
        self.loaded, self.editing = True, False
        verified = self.router.url.query_parameters.get("verified")
        if verified == "1":
            return notify.success(AuthMessage.EMAIL_VERIFIED.value)
        if verified == "0":
            return notify.error(AuthMessage.VERIFICATION_LINK_INVALID.value)
        return None

    @rx.event
    def edit(self) -> None:
        """Edit Profile."""
        self.editing = True

    @rx.event
    async def cancel(self) -> None:
        """Cancel: back to the saved values."""
        self._show(await self._user())
        self.editing = False

    @rx.event
    async def save(self, form: dict):
        """Save Changes: persist first name, last name and phone (the e-mail cannot change)."""
        user = await self._user()
        if user is None:
            return notify.error(AuthMessage.SIGN_IN_REQUIRED.value)
        try:
            with session_scope() as session:
                saved = auth.update_profile(
                    session,
                    user_id=user.id,
                    first_name=str(form.get("first_name", "")),
                    last_name=str(form.get("last_name", "")),
                    phone=str(form.get("phone", "")),
                )
                self._show(saved)
        except auth.AuthError as error:
            return notify.error(str(error))
        self.editing = False
        auth_state = await self.get_state(AuthState)
        auth_state.first_name, auth_state.last_name = self.first_name, self.last_name
        return notify.success(AuthMessage.PROFILE_UPDATED.value)

    @rx.event
    async def resend_verification(self):
        """Send a new verification e-mail."""
        user = await self._user()
        if user is None:
            return notify.error(AuthMessage.SIGN_IN_REQUIRED.value)
        with session_scope() as session:
            auth.resend_verification(session, user_id=user.id, links=links(session))
        return notify.success(AuthMessage.VERIFICATION_SENT.value)
