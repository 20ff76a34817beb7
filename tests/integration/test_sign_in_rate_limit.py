"""The sign-in rate limit, through the app's own sign-in handler (docs/architecture.md#sessions;
docs/security.md).

Failures ``authenticate`` records are committed, not rolled back with the refusal, so repeated
wrong passwords stop the address they come from. They cannot be used to keep the owner out: the
right password from another address still signs in, a browser that signed in to the account
before is not held back by failures from many addresses, and a password reset unlocks the
account for every browser.
"""

from __future__ import annotations

from collections.abc import Callable

import bcrypt
import pytest
from reflex.state import State
from reflex_base.constants import RouteVar
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from shop_app.models import KnownBrowser, SignInAttempt, User
from shop_app.services import auth
from shop_app.services.rate_limit import MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS
from shop_app.state.auth import AuthState
from shop_app.state.auth_dialog import AuthDialogState
from shop_app.state.sign_in import links

EMAIL, PASSWORD = "mia@example.com", "lavender-fields"
WRONG = {"email": EMAIL, "password": "not-the-password"}
RIGHT = {"email": EMAIL, "password": PASSWORD}
ATTACKER, OWNER = "198.51.100.66", "203.0.113.7"
TOO_MANY = "Too many sign-in attempts."


@pytest.fixture
def customer(app_env: Callable[..., None], engine: Engine, session: Session) -> Session:
    """A customer account on the app's database (bcrypt's lowest cost: a hundred sign-ins stay fast)."""
    password_hash = bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(rounds=4)).decode()
    session.add(User(email=EMAIL, password_hash=password_hash, first_name="Mia", last_name="Chen"))
    session.commit()
    return session


async def _dialog(ip: str, *, browser: str = "") -> AuthDialogState:
    """The sign-in dialog of a tab on a client address (and a browser binding cookie)."""
    root = State(_reflex_internal_init=True)
    root.router_data = root._update_router_vars({RouteVar.CLIENT_IP: ip, RouteVar.HEADERS: {}}, {})
    (await root.get_state(AuthState)).browser_key = browser
    return await root.get_state(AuthDialogState)


async def test_wrong_passwords_stop_the_address_they_come_from(customer: Session) -> None:
    attacker = await _dialog(ATTACKER)

    for _ in range(MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS):
        assert await attacker._sign_in(WRONG, on_page=False) == (False, "Invalid email or password")
    ok, message = await attacker._sign_in(RIGHT, on_page=False)

    assert not ok and message.startswith(TOO_MANY)
    assert (
        customer.exec(select(func.count()).select_from(SignInAttempt)).one()
        == MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS
    )


async def test_the_owner_signs_in_from_elsewhere_while_an_attacker_is_locked_out(customer: Session) -> None:
    attacker = await _dialog(ATTACKER)
    for _ in range(MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS + 5):
        await attacker._sign_in(WRONG, on_page=False)

    owner = await _dialog(OWNER)

    assert await owner._sign_in(RIGHT, on_page=False) == (True, "Welcome back!")


async def test_a_known_browser_is_not_held_back_by_guessing_from_many_addresses(customer: Session) -> None:
    owner = await _dialog(OWNER)
    assert await owner._sign_in(RIGHT, on_page=False) == (True, "Welcome back!")
    known_browser = (await owner.get_state(AuthState)).browser_key
    assert known_browser and customer.exec(select(func.count()).select_from(KnownBrowser)).one() == 1

    for n in range(MAX_FAILURES_PER_ACCOUNT // MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS):  # a botnet
        bot = await _dialog(f"192.0.2.{n}")
        for _ in range(MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS):
            await bot._sign_in(WRONG, on_page=False)

    stranger = await _dialog("203.0.113.99")  # a new device, a new browser
    ok, message = await stranger._sign_in(RIGHT, on_page=False)
    assert not ok and message.startswith(TOO_MANY)
    back_home = await _dialog("203.0.113.8", browser=known_browser)  # the owner's usual browser
    assert await back_home._sign_in(RIGHT, on_page=False) == (True, "Welcome back!")


async def test_guessing_from_the_owners_own_address_does_not_hold_back_their_known_browser(
    customer: Session,
) -> None:
    """Everyone behind one NAT (or every client of a proxy) shares an address (report F3)."""
    owner = await _dialog(OWNER)
    assert await owner._sign_in(RIGHT, on_page=False) == (True, "Welcome back!")
    known_browser = (await owner.get_state(AuthState)).browser_key
    neighbour = await _dialog(OWNER)  # same address, no cookie
    for _ in range(MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS):
        await neighbour._sign_in(WRONG, on_page=False)
    assert (await neighbour._sign_in(RIGHT, on_page=False))[1].startswith(TOO_MANY)

    again = await _dialog(OWNER, browser=known_browser)

    assert await again._sign_in(RIGHT, on_page=False) == (True, "Welcome back!")


async def test_a_password_reset_unlocks_the_account_for_every_browser(customer: Session) -> None:
    for n in range(MAX_FAILURES_PER_ACCOUNT // MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS):
        bot = await _dialog(f"192.0.2.{n}")
        for _ in range(MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS):
            await bot._sign_in(WRONG, on_page=False)
    stranger = await _dialog("203.0.113.99")
    assert (await stranger._sign_in(RIGHT, on_page=False))[1].startswith(TOO_MANY)

    auth.request_password_reset(customer, email=EMAIL, links=links(customer))
    token = _reset_token(customer)
    auth.reset_password(customer, token=token, password="new-lavender", confirm_password="new-lavender")
    customer.commit()

    assert await stranger._sign_in({"email": EMAIL, "password": "new-lavender"}, on_page=False) == (
        True,
        "Welcome back!",
    )


def _reset_token(session: Session) -> str:
    from shop_app.models import OutgoingMail  # noqa: PLC0415

    mail = session.exec(select(OutgoingMail).where(OutgoingMail.kind == "password_reset")).one()
    return mail.body_text.split("token=")[1].split()[0]
