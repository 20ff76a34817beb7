"""Creating administrators."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from shop_app.models import AdminRole, User
from shop_app.services.accounts import AccountError, create_admin, find_user_by_email, is_admin
from shop_app.services.passwords import verify_password


def test_create_admin_makes_a_confirmed_account_with_the_admin_role(session: Session) -> None:
    user = create_admin(session, email="  Owner@Example.COM ", password="a-long-enough-secret")
    session.commit()

    assert user.email == "owner@example.com"
    assert user.email_confirmed_at is not None
    assert verify_password("a-long-enough-secret", user.password_hash)
    assert is_admin(session, user.id)
    assert find_user_by_email(session, "OWNER@example.com").id == user.id


def test_create_admin_promotes_an_existing_customer_once(session: Session) -> None:
    customer = User(email="fan@example.com", password_hash="x", first_name="Ada")
    session.add(customer)
    session.commit()

    create_admin(session, email="fan@example.com", password="another-long-secret")
    create_admin(session, email="fan@example.com", password="another-long-secret")
    session.commit()

    assert session.exec(select(User)).all() == [customer]
    assert len(session.exec(select(AdminRole)).all()) == 1
    assert customer.first_name == "Ada"


@pytest.mark.parametrize(
    ("email", "password", "message"),
    [
        ("not-an-email", "a-long-enough-secret", "Please enter a valid email address"),
        ("owner@example.com", "short", "12"),
    ],
)
def test_create_admin_refuses_bad_input_and_writes_nothing(
    session: Session, email: str, password: str, message: str
) -> None:
    with pytest.raises(AccountError, match=message):
        create_admin(session, email=email, password=password)

    assert session.exec(select(User)).all() == []
