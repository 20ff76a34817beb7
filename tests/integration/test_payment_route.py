"""POST /api/square/payments: the seed's contract on our order flow; the amount charged is always
the order's total, bad input never causes a 500 or a charge."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import Session, select
from starlette.testclient import TestClient

from shop_app.api import create_api
from shop_app.domain.messages import DeclineMessage
from shop_app.models import Order, Payment, Product
from shop_app.services import cart, checkout
from shop_app.services.cart import CartOwner
from tests.support.checkout import FORM


@pytest.fixture
def client(app_env: Callable[..., None]) -> Iterator[TestClient]:
    """The shop's HTTP API on the test database."""
    with TestClient(create_api()) as test_client:
        yield test_client


@pytest.fixture
def order(client: TestClient, engine: Engine, session: Session) -> Order:
    product = Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=3200, stock_quantity=9)
    session.add(product)
    session.commit()
    owner = CartOwner(token="route-test")
    cart.add_item(session, owner, product_id=product.id, quantity=2)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    return session.get(Order, placed.order_id)


def _body(order: Order, **overrides: object) -> dict:
    return {
        "sourceId": "cnon:card-nonce-ok",
        "amount": order.total_cents,
        "currency": "CAD",
        "locationId": "L1",
        "orderItems": [],
        "orderId": order.id,
        "orderNumber": order.order_number,
        **overrides,
    }


def _payment(session: Session, order: Order) -> Payment:
    session.rollback()  # end the read snapshot; see what the route committed
    return session.exec(select(Payment).where(Payment.order_id == order.id)).one()


def test_the_order_total_is_charged_and_the_payment_id_returned(
    client: TestClient, order: Order, session: Session
) -> None:
    response = client.post("/api/square/payments", json=_body(order))

    assert response.status_code == 200
    payment = _payment(session, order)
    assert response.json() == {"payment": {"id": payment.square_payment_id}}
    assert payment.amount_cents == order.total_cents == 2 * 3200 + 1500 + 948  # 12 % of goods and shipping


def test_a_different_amount_is_refused_and_nothing_is_charged(
    client: TestClient, order: Order, session: Session
) -> None:
    response = client.post("/api/square/payments", json=_body(order, amount=1))

    assert response.status_code == 400
    assert response.json()["errors"][0]["detail"] == "The amount does not match the order total"
    assert _payment(session, order).square_payment_id is None


@pytest.mark.parametrize(
    ("source_id", "code", "sentence"),
    [
        ("cnon:card-nonce-declined", "GENERIC_DECLINE", DeclineMessage.DECLINED),
        ("cnon:card-nonce-rejected-cvv", "CVV_FAILURE", DeclineMessage.SECURITY_CODE),
    ],
)
def test_a_declined_card_answers_with_a_plain_sentence_and_keeps_the_code(
    *, client: TestClient, order: Order, session: Session, source_id: str, code: str, sentence: DeclineMessage
) -> None:
    response = client.post("/api/square/payments", json=_body(order, sourceId=source_id))

    assert response.status_code == 402
    assert response.json() == {"errors": [{"detail": sentence.value}]}
    assert code not in response.text and "Authorization error" not in response.text
    assert _payment(session, order).error_code == code


def test_an_unknown_order_is_not_found(client: TestClient, order: Order) -> None:
    response = client.post("/api/square/payments", json=_body(order, orderNumber="CE-20260101-AAAAAA"))

    assert response.status_code == 404


@pytest.mark.parametrize(
    "overrides",
    [
        {"orderId": 10**30},
        {"orderId": 2**63},
        {"orderId": -1},
        {"orderId": 0},
        {"amount": 10**30},
        {"sourceId": "x" * 10_000},
        {"orderNumber": "N" * 10_000},
    ],
)
def test_numbers_and_texts_out_of_range_are_a_bad_request_not_a_server_error(
    client: TestClient, order: Order, session: Session, overrides: dict
) -> None:
    response = client.post("/api/square/payments", json=_body(order, **overrides))

    assert response.status_code == 400
    assert response.json() == {"errors": [{"detail": "Invalid payment request"}]}
    assert _payment(session, order).square_payment_id is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.one_of(
        st.binary(max_size=200),
        st.dictionaries(
            st.sampled_from(["sourceId", "amount", "currency", "orderId", "orderNumber", "x"]),
            st.one_of(
                st.none(),
                st.booleans(),
                st.integers(),
                st.integers(min_value=2**31, max_value=10**40),
                st.text(max_size=20),
                st.lists(st.integers()),
            ),
            max_size=6,
        ).map(lambda d: json.dumps(d).encode()),
    )
)
def test_bad_input_never_fails_the_server_or_charges(
    client: TestClient, order: Order, session: Session, body: bytes
) -> None:
    response = client.post("/api/square/payments", content=body, headers={"Content-Type": "application/json"})

    assert response.status_code in {400, 404}
    assert _payment(session, order).square_payment_id is None
