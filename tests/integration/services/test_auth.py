"""Account use-cases: registration, sign-in, verification, password reset, profile."""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, select

from shop_app.domain.messages import AuthMessage
from shop_app.models import OutgoingMail, User
from shop_app.services import auth, sessions
from shop_app.services.rate_limit import MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS
from shop_app.settings import get_settings
from tests.support.checkout import FORM

LINKS = auth.Links(site_url="https://shop.example", brand="Cedar & Ember")
GOOD = {
    "first_name": "Mia",
    "last_name": "Chen",
    "email": "Mia@Example.com",
    "password": "lavender",
    "confirm_password": "lavender",
}


def _register(session: Session, **overrides: object) -> None:
    fields = {**GOOD, "agree_to_terms": True, **overrides}
    auth.register(session, links=LINKS, **fields)


def _mails(session: Session, to: str) -> list[OutgoingMail]:
    return session.exec(
        select(OutgoingMail).where(OutgoingMail.to_address == to).order_by(OutgoingMail.id)
    ).all()


def _token(mail: OutgoingMail) -> str:
    return re.search(r"token=([\w-]+)", mail.body_text).group(1)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"first_name": " "}, AuthMessage.REQUIRED_FIELDS),
        ({"agree_to_terms": False, "password": "abc", "confirm_password": "abc"}, AuthMessage.AGREE_TO_TERMS),
        ({"confirm_password": "lavendar"}, AuthMessage.PASSWORDS_DO_NOT_MATCH),
        ({"password": "abc", "confirm_password": "abc"}, AuthMessage.PASSWORD_TOO_SHORT),
        ({"email": "mia-at-example"}, AuthMessage.INVALID_EMAIL),
    ],
)
def test_registration_refuses_bad_input_in_the_seed_order_and_writes_nothing(
    session: Session, overrides: dict, message: str
) -> None:
    with pytest.raises(auth.AuthError, match=f"^{re.escape(message)}$"):
        _register(session, **overrides)

    assert session.exec(select(User)).all() == []


def test_the_auth_page_uses_its_own_message(session: Session) -> None:
    with pytest.raises(auth.AuthError, match=AuthMessage.ALL_FIELDS):
        _register(session, last_name="", agree_to_terms=None)


def test_registration_creates_an_unverified_account_and_mails_a_verification_link(session: Session) -> None:
    _register(session)

    user = session.exec(select(User)).one()
    assert (user.email, user.first_name, user.email_confirmed_at) == ("mia@example.com", "Mia", None)
    (mail,) = _mails(session, "mia@example.com")
    assert mail.kind == "verify_email"
    assert "https://shop.example/api/auth/verify?token=" in mail.body_text
    assert user.password_hash.startswith("$2b$12$")

    assert auth.verify_email(session, token=_token(mail))
    assert user.email_confirmed_at is not None
    assert not auth.verify_email(session, token=_token(mail))  # single use


def test_registering_an_existing_address_looks_the_same_and_tells_the_owner_by_mail(session: Session) -> None:
    _register(session)

    _register(session, first_name="Someone", password="another1", confirm_password="another1")

    assert len(session.exec(select(User)).all()) == 1
    assert [m.kind for m in _mails(session, "mia@example.com")] == ["verify_email", "already_registered"]


def test_sign_in_with_a_wrong_password_or_unknown_email_gives_the_same_answer(session: Session) -> None:
    _register(session)

    for email, password in (("mia@example.com", "wrong-one"), ("nobody@example.com", "lavender")):
        with pytest.raises(auth.AuthError, match=f"^{AuthMessage.INVALID_CREDENTIALS}$"):
            auth.authenticate(session, email=email, password=password, ip_address="10.0.0.1")

    user = auth.authenticate(session, email=" MIA@example.com ", password="lavender", ip_address="10.0.0.1")
    assert user.last_sign_in_at is not None


def test_repeated_failures_lock_their_address_even_for_the_right_password_but_not_the_owners(
    session: Session,
) -> None:
    _register(session)
    for _ in range(MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS):
        with pytest.raises(auth.AuthError):
            auth.authenticate(session, email="mia@example.com", password="nope-nope", ip_address="10.0.0.2")

    with pytest.raises(auth.AuthError, match="Too many sign-in attempts"):
        auth.authenticate(session, email="mia@example.com", password="lavender", ip_address="10.0.0.2")
    assert auth.authenticate(session, email="mia@example.com", password="lavender", ip_address="10.0.0.3")


def test_a_password_reset_answers_the_same_and_only_mails_real_accounts(session: Session) -> None:
    _register(session)

    unknown = auth.request_password_reset(session, email="nobody@example.com", links=LINKS)
    known = auth.request_password_reset(session, email="mia@example.com", links=LINKS)

    assert unknown == known == AuthMessage.RESET_LINK_SENT
    assert _mails(session, "nobody@example.com") == []
    assert _mails(session, "mia@example.com")[-1].kind == "password_reset"


def test_a_reset_link_changes_the_password_once_and_ends_every_session(session: Session) -> None:
    _register(session)
    user = session.exec(select(User)).one()
    started = sessions.start(session, user=user, remember_me=True)
    auth.request_password_reset(session, email="mia@example.com", links=LINKS)
    token = _token(_mails(session, "mia@example.com")[-1])
    assert auth.reset_token_is_valid(session, token)

    with pytest.raises(auth.AuthError, match=AuthMessage.PASSWORDS_DO_NOT_MATCH):
        auth.reset_password(session, token=token, password="new-secret", confirm_password="other")
    auth.reset_password(session, token=token, password="new-secret", confirm_password="new-secret")

    assert sessions.resolve_key(session, started.state_key) is None
    assert (
        auth.authenticate(session, email="mia@example.com", password="new-secret", ip_address="x").id
        == user.id
    )
    with pytest.raises(auth.AuthError, match="invalid or has expired"):
        auth.reset_password(session, token=token, password="again-123", confirm_password="again-123")


def test_a_newer_reset_link_replaces_the_older_one(session: Session) -> None:
    _register(session)
    auth.request_password_reset(session, email="mia@example.com", links=LINKS)
    first = _token(_mails(session, "mia@example.com")[-1])
    auth.request_password_reset(session, email="mia@example.com", links=LINKS)

    assert not auth.reset_token_is_valid(session, first)


def test_profile_changes_are_saved_but_names_are_required(session: Session) -> None:
    _register(session)
    user = session.exec(select(User)).one()

    auth.update_profile(session, user_id=user.id, first_name=" Mia ", last_name="Wong", phone="250-555-0100")
    with pytest.raises(auth.AuthError, match=AuthMessage.REQUIRED_FIELDS):
        auth.update_profile(session, user_id=user.id, first_name="", last_name="Wong", phone="")

    assert (user.first_name, user.last_name, user.phone) == ("Mia", "Wong", "250-555-0100")


def test_the_phone_must_be_a_phone_number_and_is_stored_normalised(session: Session) -> None:
    _register(session)
    user = session.exec(select(User)).one()

    with pytest.raises(auth.AuthError, match=r"^Phone: please enter a phone number of 7 to 15 digits"):
        auth.update_profile(
            session, user_id=user.id, first_name="Mia", last_name="Wong", phone="not a phone !!!"
        )
    assert user.phone == ""
    auth.update_profile(
        session, user_id=user.id, first_name="Mia", last_name="Wong", phone="+1 (250) 555.0100"
    )
    assert user.phone == "250-555-0100"  # as checkout and the order inquiries store it
    auth.update_profile(session, user_id=user.id, first_name="Mia", last_name="Wong", phone=" ")
    assert user.phone == ""  # the phone is optional


def test_sign_up_refuses_a_phone_that_is_not_one(session: Session) -> None:
    with pytest.raises(auth.AuthError, match=r"^Phone: "):
        _register(session, phone="call me maybe")
    assert session.exec(select(User)).all() == []


def test_a_checkout_address_can_become_the_default(session: Session) -> None:
    _register(session)
    user = session.exec(select(User)).one()

    auth.save_default_address(session, user_id=user.id, form=FORM)

    assert (user.address, user.city, user.state, user.zip_code, user.country) == (
        "12 Cedar Lane",
        "Victoria",
        "BC",
        "V8V 1A1",
        "Canada",
    )


def test_nobody_can_flood_an_inbox_with_reset_links_or_sign_up_mails(session: Session) -> None:
    """The stranger's report, F4: twenty resets and ten sign-ups for one address."""
    _register(session)
    for n in range(20):  # from twenty addresses, so no client limit is reached
        answer = auth.request_password_reset(
            session, email="mia@example.com", links=LINKS, client=f"10.0.0.{n}"
        )
        assert answer == AuthMessage.RESET_LINK_SENT  # the same answer, mail or not
    for n in range(10):
        _register(session, client=f"10.0.1.{n}")

    kinds = [mail.kind for mail in _mails(session, "mia@example.com")]
    assert kinds.count("password_reset") + kinds.count("already_registered") <= auth.MAILS_PER_ADDRESS
    assert kinds.count("password_reset") >= 1


def test_one_client_asking_for_resets_again_and_again_is_told_to_wait(session: Session) -> None:
    for n in range(get_settings().account_requests_per_client):
        auth.request_password_reset(session, email=f"nobody{n}@example.com", links=LINKS, client="10.0.0.9")

    with pytest.raises(auth.AuthError, match="Please wait"):
        auth.request_password_reset(session, email="other@example.com", links=LINKS, client="10.0.0.9")
    assert auth.request_password_reset(session, email="other@example.com", links=LINKS, client="10.0.0.8")
