"""The discount code field of the cart drawer and the checkout summary (issue 19).

The code is kept on the cart (``carts.discount_code``), so the drawer and the checkout show the
same one; both are priced with it on the server (``services.discounts``). Applying checks the
code against the cart now and keeps it only when it applies; the reason of a refusal shows under
the field. Every handler re-reads the shopper's cart from the session: the browser sends only
the text typed.
"""

from __future__ import annotations

from typing import Final

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.discounts import CODE_MAX
from shop_app.domain.messages import DiscountMessage
from shop_app.models import User
from shop_app.services import discounts
from shop_app.state import notify
from shop_app.state.cart import CartState
from shop_app.state.checkout import CheckoutState

FIELD: Final = "code"
_TYPED_MAX: Final = 4 * CODE_MAX  # spaces around a pasted code are forgiven; more is not a code


class DiscountCodeState(rx.State):
    """What the code field says: the last refusal, and a key that empties the field."""

    error: str = ""
    field_key: int = 0

    @rx.event
    async def apply(self, form: dict):
        """Check the typed code against the cart and keep it when it applies."""
        typed = form.get(FIELD) if isinstance(form, dict) else None
        if isinstance(typed, str) and not typed.strip():  # Enter in the empty field: nothing to say
            self.error = ""
            return None
        if not isinstance(typed, str) or len(typed) > _TYPED_MAX:
            self.error = DiscountMessage.UNKNOWN.value
            return None
        cart = await self.get_state(CartState)
        owner = await cart._owner()
        try:
            with session_scope() as session:
                user = session.get(User, owner.user_id) if owner.user_id else None
                checked = discounts.use_code(session, owner, typed, email=user.email if user else None)
        except discounts.DiscountRefused as refused:
            self.error = str(refused)
            return None
        self.error = ""
        self.field_key += 1
        applied = DiscountMessage.APPLIED.format(code=checked.code)
        return [CartState.load, CheckoutState.cart_changed, notify.success(applied)]

    @rx.event
    async def remove(self):
        """Take the code off the cart."""
        cart = await self.get_state(CartState)
        owner = await cart._owner()
        with session_scope() as session:
            discounts.remove_code(session, owner)
        self.error = ""
        removed = notify.success(DiscountMessage.REMOVED.value)
        return [CartState.load, CheckoutState.cart_changed, removed]
