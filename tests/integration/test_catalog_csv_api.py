"""GET /api/admin/products.csv: admins download the catalogue; nobody else does."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from sqlmodel import Session
from starlette.testclient import TestClient

from shop_app.api import create_api
from shop_app.domain.catalog_csv import COLUMNS
from shop_app.models import AdminRole, Product, User
from shop_app.services import sessions

URL = "/api/admin/products.csv"


@pytest.fixture
def client(app_env: Callable[..., None]) -> Iterator[TestClient]:
    with TestClient(create_api()) as test_client:
        yield test_client


@pytest.fixture
def secrets(client: TestClient, session: Session) -> dict[str, str]:
    found: dict[str, str] = {}
    for who in ("admin", "customer"):
        user = User(email=f"{who}@example.com", password_hash="x", first_name=who, last_name="T")
        session.add(user)
        session.flush()
        if who == "admin":
            session.add(AdminRole(user_id=user.id))
        ticket = sessions.start(session, user=user, remember_me=False, browser_binding="b").ticket
        exchanged = sessions.exchange_ticket(session, ticket, browser_binding="b")
        assert exchanged is not None
        found[who] = exchanged[0]
    session.add(Product(name="=cmd|' /C calc'!A0", base_price_cents=1250, stock_quantity=3))
    session.commit()
    return found


def get(client: TestClient, secret: str | None) -> httpx.Response:
    client.cookies.clear()
    if secret:
        client.cookies.set(sessions.COOKIE_NAME, secret)
    return client.get(URL)


def test_admins_download_a_dated_csv_attachment(client: TestClient, secrets: dict[str, str]) -> None:
    response = get(client, secrets["admin"])

    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert re.fullmatch(
        r'attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"', response.headers["content-disposition"]
    )
    assert response.headers["cache-control"] == "no-store"
    header, row = response.content.decode("utf-8-sig").splitlines()
    assert header == ",".join(COLUMNS)
    assert row.split(",")[1:2] == ["'=cmd|' /C calc'!A0"] and ",12.50," in row  # shown as text, not run


def test_nobody_else_does(client: TestClient, secrets: dict[str, str]) -> None:
    anonymous, customer = get(client, None), get(client, secrets["customer"])

    assert anonymous.status_code == 401 and customer.status_code == 403
    assert customer.json() == {"success": False, "error": "Access denied"}
    assert "calc" not in anonymous.text + customer.text
