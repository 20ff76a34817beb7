"""Private and admin event handlers re-check the session on the server (docs/architecture.md#access-control).

The handlers are called the way Reflex calls them, on state instances, as a signed-out client,
as a customer and as an admin; a refused call changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import reflex as rx
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.models import AdminRole, Product, User, WishlistItem
from shop_app.services import sessions
from shop_app.state.account import AccountState
from shop_app.state.admin.dashboard import AdminDashboardState
from shop_app.state.admin.guard import AdminGuardState
from shop_app.state.auth import AuthState
from shop_app.state.wishlist import WishlistState


@pytest.fixture
def app_db(app_env: Callable[..., None], engine: Engine) -> Engine:
    """The app's own engine points at the test database."""
    return engine


@pytest.fixture
def people(app_db: Engine, session: Session) -> dict[str, Any]:
    """A customer, an admin and a product; the state keys of their sessions."""
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan", last_name="Shopper")
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner", last_name="Admin")
    session.add_all(
        [customer, admin, Product(name="Room Spray - Rose", base_price_cents=1600, stock_quantity=5)]
    )
    session.commit()
    session.add(AdminRole(user_id=admin.id))
    customer_session = sessions.start(session, user=customer, remember_me=False)
    admin_session = sessions.start(session, user=admin, remember_me=False)
    session.commit()
    return {
        "customer": customer_session.state_key,
        "admin": admin_session.state_key,
        "customer_id": customer.id,
    }


async def _states(session_key: str | None) -> tuple[State, AuthState]:
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_key = session_key or ""
    return root, auth


async def test_the_dashboard_loads_only_for_admins(people: dict[str, Any]) -> None:
    for who in (None, people["customer"]):
        root, _ = await _states(who)
        guard = await root.get_state(AdminGuardState)
        dashboard = await root.get_state(AdminDashboardState)

        result = await guard.check()
        await dashboard.load()

        assert isinstance(result, rx.event.EventSpec) and "_redirect" in str(result)
        assert guard.checked and not guard.allowed
        assert dashboard.products == 0 and dashboard.customers == 0

    root, _ = await _states(people["admin"])
    guard = await root.get_state(AdminGuardState)
    dashboard = await root.get_state(AdminDashboardState)
    assert await guard.check() is None
    await dashboard.load()
    assert guard.allowed and dashboard.products == 1 and dashboard.customers == 1


async def test_the_dashboard_tells_non_admins_they_have_no_access(people: dict[str, Any]) -> None:
    root, _ = await _states(people["customer"])
    guard = await root.get_state(AdminGuardState)

    await guard.check_dashboard()

    assert guard.checked and not guard.allowed


async def test_signed_out_clients_cannot_favourite_or_edit_a_profile(
    people: dict[str, Any], session: Session
) -> None:
    root, _ = await _states(None)
    wishlist = await root.get_state(WishlistState)
    account = await root.get_state(AccountState)
    product_id = session.exec(select(Product.id)).one()

    await wishlist.toggle(product_id)
    await account.save({"first_name": "Evil", "last_name": "Change", "phone": "1"})

    assert session.exec(select(WishlistItem)).all() == []
    assert {u.first_name for u in session.exec(select(User))} == {"Fan", "Owner"}


async def test_an_ended_session_is_refused_even_if_the_tab_still_holds_it(
    people: dict[str, Any], session: Session
) -> None:
    sessions.end_all(session, user_id=people["customer_id"])
    session.commit()
    root, auth = await _states(people["customer"])
    account = await root.get_state(AccountState)

    await account.save({"first_name": "Late", "last_name": "Edit", "phone": ""})

    assert session.get(User, people["customer_id"]).first_name == "Fan"
    assert not auth.is_authenticated


async def test_a_customer_only_changes_their_own_profile(people: dict[str, Any], session: Session) -> None:
    root, _ = await _states(people["customer"])
    account = await root.get_state(AccountState)

    await account.save({"first_name": "Frances", "last_name": "Shopper", "phone": "250-555-0100"})

    session.expire_all()
    names = {u.email: u.first_name for u in session.exec(select(User))}
    assert names == {"fan@example.com": "Frances", "owner@example.com": "Owner"}


async def test_a_tab_signed_out_since_its_last_page_forgets_private_data(
    people: dict[str, Any], session: Session
) -> None:
    root, auth = await _states(people["customer"])
    await auth.load()
    wishlist = await root.get_state(WishlistState)
    wishlist.product_ids, wishlist.loaded = [7], True  # favourites on show
    sessions.end_all(session, user_id=people["customer_id"])  # signed out (or expired) meanwhile
    session.commit()

    await auth.load()

    assert not auth.is_authenticated
    assert (wishlist.product_ids, wishlist.loaded) == ([], False)


async def test_a_guest_page_load_leaves_the_private_states_alone(people: dict[str, Any]) -> None:
    root, auth = await _states(None)
    root._clean()

    await auth.load()

    changed = set(root.get_delta())
    assert changed <= {AuthState.get_full_name()}, changed  # nothing else loaded, reset or sent
    assert not auth.is_authenticated and auth.auth_loaded
