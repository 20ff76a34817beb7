"""POST /api/square/webhooks: signed events reconcile payments and refunds, once each; a bad
signature is refused with nothing changed."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import Session, select
from starlette.testclient import TestClient

from shop_app.api import create_api
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, Payment, Product, WebhookEvent
from shop_app.services import cart, checkout
from shop_app.services.cart import CartOwner
from shop_app.services.square import webhooks
from tests.support.checkout import FORM

KEY = "whsec-test-key"
SITE = "https://shop.example"


@pytest.fixture
def client(app_env: Callable[..., None]) -> Iterator[TestClient]:
    """The shop's HTTP API on the test database."""
    app_env(SITE_URL=SITE, SQUARE_WEBHOOK_SIGNATURE_KEY=KEY)
    with TestClient(create_api()) as test_client:
        yield test_client


@pytest.fixture
def awaiting(client: TestClient, engine: Engine, session: Session) -> Order:
    product = Product(name="Room Spray - Rose", base_price_cents=1600, stock_quantity=4)
    session.add(product)
    session.commit()
    owner = CartOwner(token="hook")
    cart.add_item(session, owner, product_id=product.id, quantity=1)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    return session.get(Order, placed.order_id)


def _event(kind: str, obj: dict, event_id: str | None = None) -> dict:
    return {
        "merchant_id": "M",
        "type": kind,
        "event_id": event_id or str(uuid.uuid4()),
        "created_at": "2026-11-21T00:00:00Z",
        "data": {"type": kind.split(".", maxsplit=1)[0], "id": "x", "object": obj},
    }


def _post(client: TestClient, event: dict, *, key: str = KEY) -> int:
    body = json.dumps(event).encode()
    sig = webhooks.signature(body=body, key=key, notification_url=f"{SITE}/api/square/webhooks")
    return client.post(
        "/api/square/webhooks", content=body, headers={webhooks.SIGNATURE_HEADER: sig}
    ).status_code


def _fresh(session: Session, order: Order) -> Order:
    session.rollback()
    return session.get(Order, order.id, populate_existing=True)


def test_a_completed_payment_event_settles_an_order_still_awaiting_payment(
    client: TestClient, awaiting: Order, session: Session
) -> None:
    payment = {
        "id": "SQ-PAY-1",
        "status": "COMPLETED",
        "reference_id": awaiting.order_number,
        "card_details": {"card": {"card_brand": "VISA", "last_4": "1111"}},
    }

    assert _post(client, _event("payment.updated", {"payment": payment})) == 200

    order = _fresh(session, awaiting)
    assert (order.status, order.payment_status) == (OrderStatus.PENDING, PaymentStatus.COMPLETED)
    stored = session.exec(select(Payment).where(Payment.order_id == order.id)).one()
    assert (stored.square_payment_id, stored.card_last4) == ("SQ-PAY-1", "1111")


def test_a_failed_payment_event_cancels_the_order_and_gives_the_stock_back(
    client: TestClient, awaiting: Order, session: Session
) -> None:
    payment = {"id": "SQ-PAY-2", "status": "FAILED", "reference_id": awaiting.order_number}

    assert _post(client, _event("payment.updated", {"payment": payment})) == 200

    assert _fresh(session, awaiting).status == OrderStatus.CANCELLED
    assert session.exec(select(Product)).one().stock_quantity == 4


def test_a_bad_signature_is_refused_and_changes_nothing(
    client: TestClient, awaiting: Order, session: Session
) -> None:
    payment = {"id": "SQ-PAY-3", "status": "COMPLETED", "reference_id": awaiting.order_number}
    event = _event("payment.updated", {"payment": payment})

    assert _post(client, event, key="not-the-key") == 401
    assert client.post("/api/square/webhooks", content=json.dumps(event)).status_code == 401

    assert _fresh(session, awaiting).status == OrderStatus.AWAITING_PAYMENT
    assert session.exec(select(WebhookEvent)).all() == []


def test_a_repeated_event_is_applied_once_and_a_full_refund_marks_the_order_refunded(
    client: TestClient, awaiting: Order, session: Session
) -> None:
    paid = {"id": "SQ-PAY-4", "status": "COMPLETED", "reference_id": awaiting.order_number}
    _post(client, _event("payment.updated", {"payment": paid}))
    refund = _event(
        "refund.updated",
        {
            "refund": {
                "id": "R1",
                "payment_id": "SQ-PAY-4",
                "status": "COMPLETED",
                "amount_money": {"amount": awaiting.total_cents, "currency": "CAD"},
            }
        },
        event_id="evt-refund-1",
    )

    assert _post(client, refund) == 200
    assert _post(client, refund) == 200

    order = _fresh(session, awaiting)
    assert (order.status, order.payment_status) == (OrderStatus.REFUNDED, PaymentStatus.REFUNDED)
    assert len(session.exec(select(WebhookEvent).where(WebhookEvent.event_id == "evt-refund-1")).all()) == 1


def test_unrelated_or_unknown_events_are_acknowledged_and_ignored(
    client: TestClient, awaiting: Order
) -> None:
    assert _post(client, _event("catalog.version.updated", {"catalog_version": {}})) == 200
    assert _post(client, _event("payment.updated", {"payment": {"id": "nope", "status": "COMPLETED"}})) == 200
    for data in (7, "text", ["list"], {"object": 3}):
        assert _post(client, {"type": "payment.updated", "event_id": f"odd-{data!r}", "data": data}) == 200


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.one_of(
        st.binary(max_size=120),
        st.recursive(
            st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12)),
            lambda children: (
                st.lists(children, max_size=3)
                | st.dictionaries(
                    st.sampled_from(
                        ["type", "event_id", "data", "object", "payment", "refund", "status", "id"]
                    ),
                    children,
                    max_size=4,
                )
            ),
            max_leaves=12,
        ).map(lambda value: json.dumps(value).encode()),
    )
)
def test_signed_garbage_never_fails_the_server_or_changes_an_order(
    client: TestClient, awaiting: Order, session: Session, body: bytes
) -> None:
    sig = webhooks.signature(body=body, key=KEY, notification_url=f"{SITE}/api/square/webhooks")

    response = client.post("/api/square/webhooks", content=body, headers={webhooks.SIGNATURE_HEADER: sig})

    assert response.status_code in {200, 400}
    assert _fresh(session, awaiting).status == OrderStatus.AWAITING_PAYMENT
