"""GET /api/auth/session: a sign-in ticket becomes the HttpOnly session cookie only for the shop's
own page in the browser that signed in (login CSRF, docs/security.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest
from sqlmodel import Session, select
from starlette.testclient import TestClient

from shop_app.api import create_api
from shop_app.api.auth import BROWSER_COOKIE
from shop_app.models import AuthToken, User
from shop_app.services import sessions

SITE = "https://shop.example"
BROWSER = "the-signing-in-browser"


@pytest.fixture
def client(app_env: Callable[..., None]) -> Iterator[TestClient]:
    app_env(SITE_URL=SITE)
    with TestClient(create_api(), base_url=SITE) as test_client:
        yield test_client


@pytest.fixture
def ticket(session: Session) -> str:
    user = User(email="mia@example.com", password_hash="x", first_name="Mia", last_name="Chen")
    session.add(user)
    session.flush()
    started = sessions.start(session, user=user, remember_me=False, browser_binding=BROWSER)
    session.commit()
    return started.ticket


def exchange(
    client: TestClient, ticket: str, *, browser: str | None = BROWSER, **headers: str
) -> httpx.Response:
    client.cookies.clear()
    if browser is not None:
        client.cookies.set(BROWSER_COOKIE, browser)
    return client.get("/api/auth/session", params={"ticket": ticket}, headers=headers)


def spent(session: Session) -> bool:
    session.expire_all()
    return session.exec(select(AuthToken.used_at)).one() is not None


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "same-origin"},
        {"Referer": f"{SITE}/auth"},  # a browser without Fetch metadata
        {"Origin": SITE},
        {},  # no header at all: the binding cookie decides
    ],
)
def test_the_shops_own_page_in_the_signing_in_browser_gets_the_cookie(
    client: TestClient, ticket: str, session: Session, headers: dict[str, str]
) -> None:
    response = exchange(client, ticket, **headers)

    assert response.status_code == 204
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{sessions.COOKIE_NAME}=") and "HttpOnly" in cookie and "Secure" in cookie
    assert "samesite=lax" in cookie.lower()
    assert spent(session)


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},  # a link, form or image on another site
        {"Sec-Fetch-Site": "same-site"},  # another host of the same site
        {"Sec-Fetch-Site": "none"},  # typed into the address bar or opened from a bookmark
        {"Origin": "https://evil.example"},
        {"Referer": "https://evil.example/page"},
        {"Sec-Fetch-Site": "cross-site", "Referer": f"{SITE}/auth"},  # Fetch metadata wins
    ],
)
def test_a_request_another_site_started_is_refused_and_leaves_the_ticket(
    client: TestClient, ticket: str, session: Session, headers: dict[str, str]
) -> None:
    response = exchange(client, ticket, **headers)

    assert response.status_code == 403
    assert "set-cookie" not in response.headers
    assert not spent(session)


@pytest.mark.parametrize("browser", [None, "", "another-browser", "x" * 200])
def test_another_browser_cannot_spend_the_ticket(
    client: TestClient, ticket: str, session: Session, browser: str | None
) -> None:
    response = exchange(client, ticket, browser=browser, **{"Sec-Fetch-Site": "same-origin"})

    assert response.status_code == 400
    assert "set-cookie" not in response.headers
    assert not spent(session)


def test_a_ticket_is_spent_once(client: TestClient, ticket: str) -> None:
    assert exchange(client, ticket).status_code == 204
    assert exchange(client, ticket).status_code == 400


async def test_a_traded_ticket_is_forgotten_at_the_next_page_so_no_page_asks_again(
    client: TestClient, session: Session
) -> None:
    """The stranger's report, F8: every page after a sign-in asked for the spent ticket (400s)."""
    from reflex.state import State  # noqa: PLC0415 - the state tree only for this test

    from shop_app.state.auth import AuthState  # noqa: PLC0415

    user = User(email="ana@example.com", password_hash="x", first_name="Ana", last_name="S")
    session.add(user)
    session.flush()
    started = sessions.start(session, user=user, remember_me=False, browser_binding=BROWSER)
    session.commit()
    auth = await State(_reflex_internal_init=True).get_state(AuthState)
    auth._signed_in(started, sessions.resolve_key(session, started.state_key))

    await auth.load()
    assert auth.cookie_ticket == started.ticket  # not traded yet: the image still asks for it

    assert exchange(client, started.ticket).status_code == 204
    await auth.load()
    assert auth.cookie_ticket == "" and auth.is_authenticated
