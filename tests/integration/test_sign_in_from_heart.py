"""A guest's heart, then sign-in in the dialog: that product becomes a favourite (tester's finding 3).

The product is remembered on the server, in the tab's dialog state (never taken from the browser
again), only as a valid id, and forgotten once used or when the dialog closes. Signing in also
forgets the guest's private page data, so account pages show placeholders, not a guest's empty
profile, until the customer's own data has loaded (finding 1).
"""

from __future__ import annotations

from collections.abc import Callable

import bcrypt
import pytest
from reflex.state import State
from reflex_base.constants import RouteVar
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.models import Product, User, UserSession, WishlistItem
from shop_app.state.account import AccountState
from shop_app.state.auth import AuthState
from shop_app.state.auth_dialog import AuthDialogState
from shop_app.state.checkout import CheckoutState
from shop_app.state.notify import NotificationState
from shop_app.state.orders import OrdersState
from shop_app.state.wishlist import WishlistState

EMAIL, PASSWORD = "mia@example.com", "lavender-fields"
RIGHT = {"email": EMAIL, "password": PASSWORD}
WRONG = {"email": EMAIL, "password": "not-the-password"}


@pytest.fixture
def product_id(app_env: Callable[..., None], engine: Engine, session: Session) -> int:
    """A customer account and a product on the app's database."""
    password_hash = bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(rounds=4)).decode()
    product = Product(name="Room Spray - Rose", base_price_cents=1600, stock_quantity=5)
    session.add_all([User(email=EMAIL, password_hash=password_hash, first_name="Mia"), product])
    session.commit()
    return product.id


async def _tab(path: str = "/") -> State:
    root = State(_reflex_internal_init=True)
    router = {
        RouteVar.CLIENT_IP: "203.0.113.7",
        RouteVar.HEADERS: {},
        RouteVar.PATH: path,
        RouteVar.ORIGIN: path,
    }
    root.router_data = root._update_router_vars(router, {})
    return root


async def _submit(dialog: AuthDialogState, form: dict) -> list:
    return [update async for update in dialog.submit_login(form)]


def _favourites(session: Session) -> list[int]:
    session.rollback()  # a new read: see what the handlers committed
    return [item.product_id for item in session.exec(select(WishlistItem)).all()]


def _shown(events: list, message: str) -> bool:
    """Whether one of the handler's events shows ``message`` as a notification."""
    flat = [e for update in events for e in (update if isinstance(update, list) else [update])]
    return any(
        getattr(e, "handler", None) is not None
        and e.handler.fn.__name__ == NotificationState.show.fn.__name__
        and message in str(e.args)
        for e in flat
    )


async def test_signing_in_from_a_heart_favourites_that_product_once(
    session: Session, product_id: int
) -> None:
    root = await _tab()
    wishlist = await root.get_state(WishlistState)
    dialog = await root.get_state(AuthDialogState)

    await wishlist.toggle(product_id)
    assert dialog.is_open and dialog._favorite_after_sign_in == product_id
    events = await _submit(dialog, RIGHT)

    assert _favourites(session) == [product_id]
    assert _shown(events, "Added to wishlist")
    assert wishlist.product_ids == [product_id]
    assert dialog._favorite_after_sign_in == 0 and not dialog.is_open


async def test_the_welcome_is_shown_in_the_update_that_signs_in_before_the_dialog_closes(
    session: Session, product_id: int
) -> None:
    """Issue 18, acceptance 6: "Welcome back!" reached the browser as a chained event, sent only
    after the whole handler (the 100 ms close, the reloads); it is now in the signed-in update."""
    root = await _tab()
    dialog = await root.get_state(AuthDialogState)
    dialog.open_sign_in()
    notification = await root.get_state(NotificationState)
    auth = await root.get_state(AuthState)

    seen: list[tuple[bool, bool, str]] = []  # after each update: signed in, dialog open, message
    async for _update in dialog.submit_login(RIGHT):
        seen.append((auth.is_authenticated, dialog.is_open, notification.message))

    assert (True, True, "Welcome back!") in seen  # shown while the dialog is still open
    assert seen[-1][:2] == (True, False)


async def test_signing_in_on_the_checkout_switches_it_to_the_customer(
    session: Session, product_id: int
) -> None:
    """A stranger's finding: signed in through the dialog on /checkout, the page kept the guest's
    account box, total and empty fields until Place Order was refused as a changed cart."""
    root = await _tab("/checkout")
    checkout_state = await root.get_state(CheckoutState)
    await checkout_state.load()
    assert checkout_state.loaded and not checkout_state.signed_in
    mounted = checkout_state.form_key
    dialog = await root.get_state(AuthDialogState)
    dialog.open_sign_in()

    await _submit(dialog, RIGHT)

    assert checkout_state.signed_in and not checkout_state.guest_checkout
    assert checkout_state.prefill.email == EMAIL  # the fields mount again, filled in
    assert checkout_state.form_key > mounted and checkout_state.loaded


@pytest.mark.parametrize(("path", "forgotten"), [("/shop", True), ("/product/3", True), ("/checkout", False)])
async def test_another_pages_load_makes_the_next_checkout_start_from_its_placeholder(
    path: str, forgotten: bool
) -> None:
    """A stranger's finding: coming back to /checkout showed the last visit's cart (or "Your Cart
    is Empty") until the page's own load answered."""
    root = await _tab(path)
    checkout_state = await root.get_state(CheckoutState)
    checkout_state.loaded = True

    checkout_state.forget_visit()

    assert checkout_state.loaded is not forgotten


async def test_a_failed_sign_in_keeps_the_heart_for_the_next_try(session: Session, product_id: int) -> None:
    root = await _tab()
    dialog = await root.get_state(AuthDialogState)
    await (await root.get_state(WishlistState)).toggle(product_id)

    await _submit(dialog, WRONG)
    assert dialog.is_open and dialog._favorite_after_sign_in == product_id and _favourites(session) == []
    await _submit(dialog, RIGHT)

    assert _favourites(session) == [product_id]


@pytest.mark.parametrize("close", ["set_open", "open_sign_in", "open_for_wishlist"])
async def test_a_heart_is_forgotten_when_its_dialog_closes_or_opens_otherwise(
    session: Session, product_id: int, close: str
) -> None:
    root = await _tab()
    dialog = await root.get_state(AuthDialogState)
    await (await root.get_state(WishlistState)).toggle(product_id)

    if close == "set_open":
        dialog.set_open(False)
        dialog.open_sign_in()
    else:
        getattr(dialog, close)()
    assert dialog._favorite_after_sign_in == 0
    await _submit(dialog, RIGHT)

    assert _favourites(session) == []


@pytest.mark.parametrize("bad", ["abc", -1, 0, 10**30, None, [1], {"id": 1}, "1; drop"])
async def test_a_heart_with_an_invalid_product_id_remembers_nothing(product_id: int, bad: object) -> None:
    root = await _tab()
    dialog = await root.get_state(AuthDialogState)

    await (await root.get_state(WishlistState)).toggle(bad)  # type: ignore[arg-type]

    assert not dialog.is_open and dialog._favorite_after_sign_in == 0


async def test_an_unknown_product_is_refused_at_sign_in_not_saved(session: Session, product_id: int) -> None:
    root = await _tab()
    dialog = await root.get_state(AuthDialogState)
    await (await root.get_state(WishlistState)).toggle(product_id + 1000)

    events = await _submit(dialog, RIGHT)

    assert _favourites(session) == [] and not _shown(events, "Added to wishlist")
    assert (await root.get_state(AuthState)).is_authenticated


async def test_signing_in_forgets_the_guests_page_data_so_account_pages_wait_for_the_customers(
    product_id: int,
) -> None:
    root = await _tab()
    account, orders = await root.get_state(AccountState), await root.get_state(OrdersState)
    await account.load()  # a guest on /account: an empty profile, "loaded"
    assert account.loaded and account.first_name == ""
    async for _ in orders.load():
        pass
    assert not orders.loading

    dialog = await root.get_state(AuthDialogState)
    dialog.open_sign_in()
    await _submit(dialog, RIGHT)

    assert not account.loaded and orders.loading  # placeholders until the customer's own data
    await account.load()
    assert account.loaded and account.first_name == "Mia"


async def test_a_second_submit_queued_behind_a_sign_in_opens_no_second_session(
    session: Session, product_id: int
) -> None:
    """Stranger-found: a double-click on Sign In queued a second submit behind the first, which
    opened a second session; the dialog the first closed now ignores it."""
    dialog = await (await _tab()).get_state(AuthDialogState)
    dialog.open_sign_in()

    await _submit(dialog, RIGHT)
    second = await _submit(dialog, RIGHT)

    assert not dialog.is_open and second == []
    session.rollback()
    assert len(session.exec(select(UserSession)).all()) == 1
