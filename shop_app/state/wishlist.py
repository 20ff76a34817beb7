"""The customer's favourites: hearts, the header popover and /account/wishlist."""

from __future__ import annotations

from dataclasses import dataclass

import reflex as rx

from shop_app import routes
from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.domain.messages import WishlistMessage
from shop_app.domain.money import format_cents
from shop_app.services import wishlist
from shop_app.state import notify
from shop_app.state.auth import AuthState, private_state
from shop_app.state.auth_dialog import AuthDialogState, after_dialog_sign_in
from shop_app.state.views import image_src, image_srcset


@dataclass
class FavoriteRow:
    """A favourite as the popover and the wishlist page show it."""

    product_id: int = 0
    name: str = ""
    price: str = ""
    image_url: str = ""
    image_srcset: str = ""
    url: str = ""
    in_stock: bool = False


@private_state
class WishlistState(rx.State):
    """The signed-in customer's favourites (empty when signed out)."""

    items: list[FavoriteRow] = []
    product_ids: list[int] = []
    loaded: bool = False

    @rx.var
    def count(self) -> int:
        """How many favourites."""
        return len(self.items)

    async def _user_id(self) -> int | None:
        auth = await self.get_state(AuthState)
        with session_scope() as session:
            current = auth._user(session)
        return current.user_id if current else None

    def _fill(self, user_id: int | None) -> None:
        if user_id is None:
            self.items, self.product_ids = [], []
            return
        with session_scope() as session:
            entries = wishlist.list_entries(session, user_id=user_id)
        self.items = [
            FavoriteRow(
                product_id=e.product_id,
                name=e.name,
                price=format_cents(e.price_cents),
                image_url=image_src(e.image_url),
                image_srcset=image_srcset(e.image_url, e.image_width),
                url=routes.product_url(e.product_id),
                in_stock=e.in_stock,
            )
            for e in entries
        ]
        self.product_ids = [e.product_id for e in entries]

    @rx.event
    async def load(self) -> None:
        """Load the favourites of whoever is signed in (nothing for guests)."""
        try:
            self._fill(await self._user_id())
        except Exception:
            self.items, self.product_ids = [], []
            yield notify.error(WishlistMessage.LOAD_FAILED.value)
        self.loaded = True

    @rx.event
    async def toggle(self, product_id: int):
        """Heart: add or remove, as the heart shows it; guests are asked to sign in.

        The heart's look decides: an empty heart adds, even when another tab has favourited the
        product meanwhile (then "Item is already in your wishlist"), and a filled one removes.
        """
        product = validation.parse_id(product_id)
        if product is None:
            return notify.error(WishlistMessage.ADD_FAILED.value)
        user_id = await self._user_id()
        if user_id is None:
            dialog = await self.get_state(AuthDialogState)
            return dialog._open_for_favorite(product)
        removing = product in self.product_ids
        failure = WishlistMessage.REMOVE_FAILED if removing else WishlistMessage.ADD_FAILED
        change = wishlist.remove if removing else wishlist.add
        try:
            with session_scope() as session:
                result = change(session, user_id=user_id, product_id=product)
        except wishlist.WishlistError as error:
            return notify.error(str(error))
        except Exception:
            return notify.error(failure.value)
        self._fill(user_id)
        return notify.info(result.message) if result.kind == "info" else notify.success(result.message)

    async def _add_after_sign_in(self, product_id: int):
        """Favourite the product whose heart a guest clicked before signing in (not an event: the
        id comes from the sign-in dialog's server-side state)."""
        user_id = await self._user_id()
        if user_id is None:
            return None
        try:
            with session_scope() as session:
                result = wishlist.add(session, user_id=user_id, product_id=product_id)
        except wishlist.WishlistError as error:
            return notify.error(str(error))
        except Exception:
            return notify.error(WishlistMessage.ADD_FAILED.value)
        self._fill(user_id)
        self.loaded = True
        return notify.info(result.message) if result.kind == "info" else notify.success(result.message)

    @rx.event
    async def remove(self, product_id: int):
        """Remove a favourite."""
        user_id = await self._user_id()
        if user_id is None:
            return AuthDialogState.open_for_wishlist
        try:
            with session_scope() as session:
                result = wishlist.remove(session, user_id=user_id, product_id=int(product_id))
        except Exception:
            return notify.error(WishlistMessage.REMOVE_FAILED.value)
        self._fill(user_id)
        return notify.success(result.message)


@after_dialog_sign_in
async def _favorites_after_sign_in(dialog: AuthDialogState, favorite: int) -> list:
    """After a sign-in through the dialog: the header's favourites, and the heart that opened it."""
    events: list = [WishlistState.load]
    if favorite:
        added = await (await dialog.get_state(WishlistState))._add_after_sign_in(favorite)
        if added is not None:
            events.append(added)
    return events
