"""The sign-in rate limit counts failures made through the app's own sign-in handler (the failure
``authenticate`` records must be committed, not rolled back with the refusal), so repeated wrong
passwords lock the account even for the right one (DESIGN.md §4)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from shop_app.models import SignInAttempt, User
from shop_app.services.passwords import hash_password
from shop_app.services.rate_limit import MAX_FAILURES_PER_ACCOUNT
from shop_app.state.auth_dialog import AuthDialogState

EMAIL, PASSWORD = "mia@example.com", "lavender-fields"


@pytest.fixture
def customer(app_env: Callable[..., None], engine: Engine, session: Session) -> Session:
    """A customer account on the app's database."""
    session.add(User(email=EMAIL, password_hash=hash_password(PASSWORD), first_name="Mia", last_name="Chen"))
    session.commit()
    return session


async def test_wrong_passwords_through_the_dialog_lock_the_account(customer: Session) -> None:
    dialog = await State(_reflex_internal_init=True).get_state(AuthDialogState)
    wrong = {"email": EMAIL, "password": "not-the-password"}

    for _ in range(MAX_FAILURES_PER_ACCOUNT):
        assert await dialog._sign_in(wrong, on_page=False) == (False, "Invalid email or password")
    ok, message = await dialog._sign_in({"email": EMAIL, "password": PASSWORD}, on_page=False)

    assert not ok and message.startswith("Too many sign-in attempts.")
    assert customer.exec(select(func.count()).select_from(SignInAttempt)).one() == MAX_FAILURES_PER_ACCOUNT


async def test_the_right_password_signs_in(customer: Session) -> None:
    dialog = await State(_reflex_internal_init=True).get_state(AuthDialogState)
    signed_in = await dialog._sign_in({"email": EMAIL, "password": PASSWORD}, on_page=False)

    assert signed_in == (True, "Welcome back!")
