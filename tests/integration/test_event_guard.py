"""The event guard decides on the server who may send which event (docs/security.md).

Events are screened the way ``ShopMiddleware`` screens them, on a real state tree whose identity
comes from a signed-in session's state key (or none), against the test database.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from reflex.state import State, UpdateVarsInternalState
from reflex_base.utils.format import format_event_handler
from sqlmodel import Session

import shop_app.shop_app  # noqa: F401 - registers every handler of the app
from shop_app.domain.messages import AuthMessage, ServiceMessage
from shop_app.models import AdminRole, User
from shop_app.services import sessions
from shop_app.state.account import AccountState
from shop_app.state.admin.admins import ManageAdminsState
from shop_app.state.admin.guard import AdminGuardState
from shop_app.state.auth import AuthState
from shop_app.state.cart import CartState
from shop_app.state.event_guard import screen

ADD_ADMIN = format_event_handler(ManageAdminsState.save_add)
SAVE_PROFILE = format_event_handler(AccountState.save)
ADD_TO_CART = format_event_handler(CartState.add)
ADMIN_PAGE_CHECK = format_event_handler(AdminGuardState.check)
AUTH_STATE = AuthState.get_full_name()


@pytest.fixture
def keys(app_env: Callable[..., None], session: Session) -> dict[str, str]:
    """State keys of a customer's and an admin's sessions."""
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan", last_name="Shopper")
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner", last_name="Admin")
    session.add_all([customer, admin])
    session.commit()
    session.add(AdminRole(user_id=admin.id))
    found = {
        "customer": sessions.start(session, user=customer, remember_me=False).state_key,
        "admin": sessions.start(session, user=admin, remember_me=False).state_key,
    }
    session.commit()
    return found


async def _tab(state_key: str = "") -> State:
    root = State(_reflex_internal_init=True)
    (await root.get_state(AuthState))._session_key = state_key
    return root


async def test_an_admin_handler_runs_for_admins_only(keys: dict[str, str]) -> None:
    form = {"form": {"email": "attacker@example.com"}}

    visitor = await screen(await _tab(), ADD_ADMIN, form, page_load=False)
    customer = await screen(await _tab(keys["customer"]), ADD_ADMIN, form, page_load=False)
    admin = await screen(await _tab(keys["admin"]), ADD_ADMIN, form, page_load=False)

    assert visitor is not None and visitor.message == AuthMessage.SIGN_IN_REQUIRED
    assert customer is not None and customer.message == ServiceMessage.NOT_ALLOWED
    assert admin is None


async def test_a_customer_handler_asks_visitors_to_sign_in(keys: dict[str, str]) -> None:
    form = {"form": {"first_name": "A", "last_name": "B", "phone": ""}}

    visitor = await screen(await _tab(), SAVE_PROFILE, form, page_load=False)

    assert visitor is not None and visitor.message == AuthMessage.SIGN_IN_REQUIRED
    assert await screen(await _tab(keys["customer"]), SAVE_PROFILE, form, page_load=False) is None


async def test_a_forged_session_changes_nothing(keys: dict[str, str], session: Session) -> None:
    """The takeover: an identity sent in a payload, or a guessed session id, is no identity."""
    row_ids = [str(n) for n in range(1, 40)]
    for guess in [*row_ids, "", "admin"]:
        refusal = await screen(
            await _tab(guess), ADD_ADMIN, {"form": {"email": "x@example.com"}}, page_load=False
        )
        assert refusal is not None

    forged: dict[str, Any] = {
        "current": {"session_id": 2, "user_id": 2, "is_admin": True, "email": "owner@example.com"},
        "ticket": "",
    }
    for handler in ("signed_in", "user", "_signed_in", "_user", "_show"):
        refusal = await screen(await _tab(), f"{AUTH_STATE}.{handler}", forged, page_load=False)
        assert refusal is not None and "reviewed list" in refusal.reason


@pytest.mark.parametrize(
    "payload",
    [
        {"product_id": 10**30},
        {"product_id": "1; DROP TABLE products"},
        {"product_id": 1, "quantity": 1, "options": {"Scent": {"nested": True}}},
        {"product_id": 1, "user_id": 2},
        ["product_id", 1],
    ],
)
async def test_arguments_that_do_not_fit_are_refused_before_the_handler(payload: Any) -> None:
    refusal = await screen(await _tab(), ADD_TO_CART, payload, page_load=False)

    assert refusal is not None and refusal.message == ServiceMessage.BAD_REQUEST


async def test_reflex_generic_setter_is_refused(keys: dict[str, str]) -> None:
    setvar = f"{ManageAdminsState.get_full_name()}.setvar"

    refusal = await screen(
        await _tab(keys["admin"]), setvar, {"var_name": "search", "value": "x"}, page_load=False
    )

    assert refusal is not None and refusal.reason == "refused for everyone"


async def test_a_page_guard_runs_for_everyone_and_a_refused_page_load_says_nothing(
    keys: dict[str, str],
) -> None:
    assert await screen(await _tab(), ADMIN_PAGE_CHECK, {}, page_load=True) is None

    refusal = await screen(
        await _tab(keys["customer"]), format_event_handler(ManageAdminsState.load), {}, page_load=True
    )

    assert refusal is not None and refusal.message == ""


async def test_cookie_values_may_be_set_only_for_the_apps_own_cookies() -> None:
    update_vars = f"{UpdateVarsInternalState.get_full_name()}.update_vars_internal"
    cart_cookie = f"{CartState.get_full_name()}.cart_token_rx_state_"

    assert await screen(await _tab(), update_vars, {"vars": {cart_cookie: "token"}}, page_load=False) is None
    for bogus in ("nope.nothing", f"{AUTH_STATE}._session_key", f"{AUTH_STATE}.is_admin", "x.y" * 70):
        refusal = await screen(await _tab(), update_vars, {"vars": {bogus: "1"}}, page_load=False)
        assert refusal is not None, bogus
