"""Server-side sessions: tickets, cookies, expiry, sign-out."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.db import write_transaction
from shop_app.models import AdminRole, User, UserSession
from shop_app.models.base import utcnow
from shop_app.services import sessions


@pytest.fixture
def user(session: Session) -> User:
    row = User(email="mia@example.com", password_hash="x", first_name="Mia", last_name="Chen")
    session.add(row)
    session.flush()
    return row


BROWSER = "browser-binding-value"


def _signed_in(session: Session, user: User, *, remember_me: bool = False) -> tuple[UserSession, str]:
    started = sessions.start(
        session,
        user=user,
        remember_me=remember_me,
        user_agent="UA",
        ip_address="1.2.3.4",
        browser_binding=BROWSER,
    )
    secret, _ = sessions.exchange_ticket(session, started.ticket, browser_binding=BROWSER)
    return started.row, secret


def test_a_ticket_sets_a_cookie_secret_once_and_only_hashes_are_stored(session: Session, user: User) -> None:
    started = sessions.start(session, user=user, remember_me=False, browser_binding=BROWSER)

    secret, exchanged = sessions.exchange_ticket(session, started.ticket, browser_binding=BROWSER)

    assert exchanged.id == started.row.id
    assert len(secret) >= 43  # 256 random bits, url-safe base64
    assert started.row.token_hash == sessions.hash_secret(secret) != secret
    assert started.row.state_key_hash == sessions.hash_secret(started.state_key) != started.state_key
    assert sessions.exchange_ticket(session, started.ticket, browser_binding=BROWSER) is None  # single use
    assert sessions.resolve_cookie(session, secret).user_id == user.id


@pytest.mark.parametrize("presented", ["", "another-browser", BROWSER + "x"])
def test_a_ticket_is_spent_only_by_the_browser_that_signed_in(
    session: Session, user: User, presented: str
) -> None:
    started = sessions.start(session, user=user, remember_me=False, browser_binding=BROWSER)

    assert sessions.exchange_ticket(session, started.ticket, browser_binding=presented) is None
    # Refusing another browser does not spend it: the browser that signed in still can.
    assert sessions.exchange_ticket(session, started.ticket, browser_binding=BROWSER) is not None


def test_a_ticket_minted_without_a_binding_sets_no_cookie(session: Session, user: User) -> None:
    started = sessions.start(session, user=user, remember_me=False)

    assert sessions.exchange_ticket(session, started.ticket) is None
    assert sessions.exchange_ticket(session, started.ticket, browser_binding=BROWSER) is None
    assert sessions.resolve_key(session, started.state_key).user_id == user.id


def test_an_expired_ticket_is_refused(session: Session, user: User) -> None:
    started = sessions.start(session, user=user, remember_me=False, browser_binding=BROWSER)
    from shop_app.models import AuthToken  # noqa: PLC0415

    token = session.exec(select(AuthToken)).one()
    token.expires_at = utcnow() - timedelta(seconds=1)
    session.flush()

    assert sessions.exchange_ticket(session, started.ticket, browser_binding=BROWSER) is None


def test_a_state_key_finds_its_session_and_nothing_else_does(session: Session, user: User) -> None:
    started = sessions.start(session, user=user, remember_me=False)
    session.flush()

    assert sessions.resolve_key(session, started.state_key).session_id == started.row.id
    for guess in ("", str(started.row.id), started.row.state_key_hash, started.state_key + "x"):
        assert sessions.resolve_key(session, guess) is None


def test_the_session_knows_the_user_and_the_admin_role(session: Session, user: User) -> None:
    _, secret = _signed_in(session, user)
    assert sessions.resolve_cookie(session, secret).is_admin is False

    session.add(AdminRole(user_id=user.id))
    session.flush()
    current = sessions.resolve_cookie(session, secret)

    assert (current.full_name, current.is_admin, current.email_verified) == ("Mia Chen", True, False)


@pytest.mark.parametrize("field", ["idle_expires_at", "absolute_expires_at"])
def test_an_expired_session_is_gone(session: Session, user: User, field: str) -> None:
    row, secret = _signed_in(session, user)
    setattr(row, field, utcnow() - timedelta(seconds=1))
    session.flush()

    assert sessions.resolve_cookie(session, secret) is None
    assert session.get(UserSession, row.id) is None


def test_remember_me_lives_long_and_a_plain_sign_in_until_the_browser_closes(
    session: Session, user: User
) -> None:
    short, _ = _signed_in(session, user)
    long, _ = _signed_in(session, user, remember_me=True)

    assert short.absolute_expires_at - short.created_at == sessions.ABSOLUTE_TIMEOUT
    assert long.absolute_expires_at - long.created_at == sessions.REMEMBER_ABSOLUTE_TIMEOUT
    assert sessions.cookie_max_age(remember_me=False) is None
    assert sessions.cookie_max_age(remember_me=True) == int(
        sessions.REMEMBER_ABSOLUTE_TIMEOUT.total_seconds()
    )


def test_activity_extends_the_idle_expiry_but_never_past_the_absolute_one(
    session: Session, user: User
) -> None:
    row, secret = _signed_in(session, user)
    row.last_seen_at = utcnow() - timedelta(minutes=10)
    row.idle_expires_at = utcnow() + timedelta(minutes=5)
    row.created_at = utcnow() - sessions.ABSOLUTE_TIMEOUT + timedelta(minutes=30)
    row.absolute_expires_at = row.created_at + sessions.ABSOLUTE_TIMEOUT
    session.flush()

    sessions.resolve_cookie(session, secret)

    assert row.idle_expires_at == row.absolute_expires_at  # capped: 30 minutes left, not 2 hours


def test_sign_out_ends_one_session_and_a_reset_ends_them_all(session: Session, user: User) -> None:
    _, first_secret = _signed_in(session, user)
    _, second_secret = _signed_in(session, user)

    sessions.end_cookie(session, first_secret)
    assert sessions.resolve_cookie(session, first_secret) is None
    assert sessions.resolve_cookie(session, second_secret) is not None

    sessions.end_all(session, user_id=user.id)
    assert sessions.resolve_cookie(session, second_secret) is None


def test_signing_a_browser_out_ends_every_session_its_tabs_opened(session: Session, user: User) -> None:
    """Two tabs of one browser signed in one after the other: the cookie holds the second's
    session, the first tab finds its own by its state key. Sign Out in either ends both; another
    browser's session of the same account stays (stranger-found, 2026-11-26)."""
    first = sessions.start(session, user=user, remember_me=False, browser_binding=BROWSER)
    _, cookie_secret = _signed_in(session, user)
    elsewhere = sessions.start(session, user=user, remember_me=False, browser_binding="another-browser")

    sessions.end_browser(session, secret=cookie_secret, browser_binding=BROWSER)

    assert sessions.resolve_cookie(session, cookie_secret) is None
    assert sessions.resolve_key(session, first.state_key) is None  # the first tab is signed out too
    assert sessions.resolve_key(session, elsewhere.state_key) is not None


def test_a_browser_without_its_binding_cookie_ends_only_its_cookies_session(
    session: Session, user: User
) -> None:
    first = sessions.start(session, user=user, remember_me=False, browser_binding=BROWSER)
    _, cookie_secret = _signed_in(session, user)

    sessions.end_browser(session, secret=cookie_secret, browser_binding="")

    assert sessions.resolve_cookie(session, cookie_secret) is None
    assert sessions.resolve_key(session, first.state_key) is not None


def test_a_deactivated_account_has_no_session(session: Session, user: User) -> None:
    _, secret = _signed_in(session, user)
    user.is_active = False
    session.flush()

    assert sessions.resolve_cookie(session, secret) is None
    assert sessions.resolve_cookie(session, "") is None


def test_a_ticket_traded_by_many_requests_at_once_is_spent_by_exactly_one(
    engine: Engine, session: Session, user: User
) -> None:
    """Eight exchanges of one ticket race (a double-clicked link, a replay): one wins, the rest
    get nothing, and none fails with "database is locked" (the exchange reads, then writes)."""
    started = sessions.start(session, user=user, remember_me=False, browser_binding=BROWSER)
    session.commit()
    gate = threading.Barrier(8)

    def exchange(_: int) -> bool:
        gate.wait()
        with write_transaction(engine) as db:
            return sessions.exchange_ticket(db, started.ticket, browser_binding=BROWSER) is not None

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(exchange, range(8)))

    assert outcomes.count(True) == 1
