"""Low-stock alerts: one mail to the shop per product per crossing of 5 units, after payment.

Orders are placed and paid through ``services.checkout`` (their own transactions on the engine),
so each test commits its set-up and reads the results through a fresh session. Runs on SQLite,
and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.orders import PaymentStatus
from shop_app.domain.product_editing import draft_from_form
from shop_app.models import Category, Order, OutgoingMail, Product, StoreSettings
from shop_app.services import cart, checkout, low_stock
from shop_app.services.admin.product_form import update_product
from shop_app.services.cart import CartOwner
from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus
from shop_app.settings import get_settings
from tests.support.checkout import FORM

SHOP = "orders@cedar.example"
PAID = ChargeOutcome(status=ChargeStatus.COMPLETED, payment_id="sq-pay", card_last4="1111")
DECLINED = ChargeOutcome(status=ChargeStatus.DECLINED, error_code="CARD_DECLINED", message="Card declined.")


class Gateway:
    """Answers every charge with one outcome (a payment id of its own when paid)."""

    def __init__(self, outcome: ChargeOutcome) -> None:
        self.outcome = outcome

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        if self.outcome.status != ChargeStatus.COMPLETED:
            return self.outcome
        return replace(self.outcome, payment_id=f"sq-{request.idempotency_key}")

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        return None


@pytest.fixture(autouse=True)
def local_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    monkeypatch.setenv("SQUARE_ENVIRONMENT", "local")
    monkeypatch.setenv("MAIL_FROM", "Cedar & Ember <hello@cedar.example>")
    monkeypatch.setenv("SITE_URL", "https://shop.example")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def _shop(session: Session, *, notify: bool = True, email: str = SHOP) -> None:
    session.add(StoreSettings(id=1, company_name="Cedar & Ember", email=email, notify_low_stock=notify))
    session.commit()


def _candle(session: Session, stock: int, name: str = "8oz Amber Soy Candle - Vanilla Bean") -> Product:
    product = Product(name=name, base_price_cents=2800, stock_quantity=stock)
    session.add(product)
    session.commit()
    return product


def _buy(engine: Engine, session: Session, *items: tuple[Product, int], outcome: ChargeOutcome = PAID) -> str:
    """Place and pay an order of ``items`` from a fresh cart; return its number."""
    owner = CartOwner(token=f"buyer-{uuid.uuid4().hex}")
    for product, quantity in items:
        cart.add_item(session, owner, product_id=product.id, quantity=quantity)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    checkout.pay(
        order_id=placed.order_id, source_id="tok", gateway=Gateway(outcome), owner=owner, engine=engine
    )
    return placed.order_number


def _all_mails(engine: Engine) -> list[OutgoingMail]:
    with Session(engine) as fresh:
        return list(fresh.exec(select(OutgoingMail).order_by(OutgoingMail.id)).all())


def _alerts(engine: Engine) -> list[OutgoingMail]:
    return [m for m in _all_mails(engine) if m.kind == low_stock.ALERT_KIND]


def _product(engine: Engine, product_id: int) -> Product:
    with Session(engine) as fresh:
        return fresh.get(Product, product_id)


def test_an_order_taking_a_product_to_5_or_fewer_mails_the_shop_once(
    session: Session, engine: Engine
) -> None:
    _shop(session)
    candle = _candle(session, 8)

    number = _buy(engine, session, (candle, 3))

    [alert] = _alerts(engine)
    assert alert.to_address == SHOP
    assert alert.subject == "Low stock: 8oz Amber Soy Candle - Vanilla Bean (Only 5 left)"
    assert f"8oz Amber Soy Candle - Vanilla Bean is down to 5 units after order {number}." in alert.body_text
    assert f"https://shop.example/admin/products/edit/{candle.id}" in alert.body_text
    assert _product(engine, candle.id).low_stock_alerted_at is not None
    # The shopper's confirmation was written first, in its own transaction.
    assert [m.kind for m in _all_mails(engine)] == ["order_confirmation", low_stock.ALERT_KIND]

    _buy(engine, session, (candle, 1))
    _buy(engine, session, (candle, 4))  # down to 0: the same crossing
    assert len(_alerts(engine)) == 1
    assert _product(engine, candle.id).stock_quantity == 0


def test_no_mail_while_the_setting_is_off_and_that_crossing_stays_told(
    session: Session, engine: Engine
) -> None:
    _shop(session, notify=False)
    candle = _candle(session, 7)

    _buy(engine, session, (candle, 3))
    assert _alerts(engine) == []
    assert _product(engine, candle.id).low_stock_alerted_at is not None  # the crossing is recorded

    settings = session.get(StoreSettings, 1)
    settings.notify_low_stock = True
    session.commit()
    _buy(engine, session, (candle, 1))
    assert _alerts(engine) == []  # switching it on does not mail about an old crossing


def test_a_restock_above_5_re_arms_the_alert(session: Session, engine: Engine) -> None:
    _shop(session)
    candle = _candle(session, 6)
    _buy(engine, session, (candle, 2))
    assert len(_alerts(engine)) == 1

    candle = session.get(Product, candle.id, populate_existing=True)
    candle.stock_quantity = 12  # an admin edit or a CSV import: an ORM save
    session.commit()
    assert _product(engine, candle.id).low_stock_alerted_at is None
    _buy(engine, session, (candle, 2))  # 12 -> 10: no crossing
    assert len(_alerts(engine)) == 1
    _buy(engine, session, (candle, 6))  # 10 -> 4: a new crossing
    assert len(_alerts(engine)) == 2
    assert "(Only 4 left)" in _alerts(engine)[-1].subject


@pytest.mark.parametrize("gallery", [None, []], ids=["edit dialog", "full-page form"])
def test_an_editors_restock_re_arms_the_alert(
    session: Session, engine: Engine, tmp_path: Path, gallery: list | None
) -> None:
    """The Edit Product dialog (no gallery) and the full-page form, the low-stock mail's "Restock"
    link, save through one service."""
    _shop(session)
    custom = Category(name="Custom", slug="custom")  # a main category without collections
    session.add(custom)
    session.commit()
    candle = _candle(session, 6)
    candle.category_id, candle.description = custom.id, "Hand-poured."
    session.commit()
    _buy(engine, session, (candle, 2))

    def restock(typed: str, seen: int) -> None:
        form = {
            "name": candle.name,
            "description": "Hand-poured.",
            "base_price": "28.00",
            "category": str(custom.id),
            "stock_quantity": typed,
        }
        draft = draft_from_form(form, is_featured=False, is_new_arrival=False)
        update_product(candle.id, draft, gallery, media_dir=tmp_path, stock_seen=seen, engine=engine)

    restock("4", seen=4)  # still low: nothing to re-arm
    assert _product(engine, candle.id).low_stock_alerted_at is not None

    restock("30", seen=4)

    assert _product(engine, candle.id).low_stock_alerted_at is None
    candle = session.get(Product, candle.id, populate_existing=True)  # saved on its own connection
    _buy(engine, session, (candle, 27))
    assert [a.subject for a in _alerts(engine)][-1].endswith("(Only 3 left)")
    assert len(_alerts(engine)) == 2


def test_stock_given_back_without_the_orm_re_arms_on_the_next_order(session: Session, engine: Engine) -> None:
    """A refund or cancellation puts stock back with a plain UPDATE; the next order sees it above 5."""
    _shop(session)
    candle = _candle(session, 6)
    _buy(engine, session, (candle, 3))
    with Session(engine) as other:
        other.execute(sa.update(Product).where(Product.id == candle.id).values(stock_quantity=9))
        other.commit()
    assert _product(engine, candle.id).low_stock_alerted_at is not None

    _buy(engine, session, (candle, 4))  # 9 -> 5

    assert [a.subject for a in _alerts(engine)] == [
        "Low stock: 8oz Amber Soy Candle - Vanilla Bean (Only 3 left)",
        "Low stock: 8oz Amber Soy Candle - Vanilla Bean (Only 5 left)",
    ]


def test_a_product_that_stays_above_5_never_alerts(session: Session, engine: Engine) -> None:
    _shop(session)
    plenty = _candle(session, 20, name="Cedar Candle")
    low = _candle(session, 6, name="Rose Candle")

    _buy(engine, session, (plenty, 14), (low, 1))  # 20 -> 6 and 6 -> 5

    [alert] = _alerts(engine)
    assert alert.subject == "Low stock: Rose Candle (Only 5 left)"
    assert _product(engine, plenty.id).low_stock_alerted_at is None


def test_one_mail_per_product_of_an_order(session: Session, engine: Engine) -> None:
    _shop(session)
    first = _candle(session, 6, name="Cedar Candle")
    second = _candle(session, 2, name="Rose Candle")  # low from the start: not told yet

    _buy(engine, session, (second, 2), (first, 3))

    assert [a.subject for a in _alerts(engine)] == [
        "Low stock: Cedar Candle (Only 3 left)",
        "Low stock: Rose Candle (Out of Stock)",
    ]


def test_an_order_that_is_not_paid_alerts_nobody(session: Session, engine: Engine) -> None:
    _shop(session)
    candle = _candle(session, 6)

    _buy(engine, session, (candle, 3), outcome=DECLINED)

    assert _alerts(engine) == []
    assert _product(engine, candle.id).stock_quantity == 6
    assert _product(engine, candle.id).low_stock_alerted_at is None


def test_the_simulated_paypal_payment_alerts_too(session: Session, engine: Engine) -> None:
    _shop(session)
    candle = _candle(session, 6)
    owner = CartOwner(token="paypal-buyer")
    cart.add_item(session, owner, product_id=candle.id, quantity=2)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)

    result = checkout.pay_simulated_paypal(order_id=placed.order_id, owner=owner, engine=engine)

    assert result.succeeded and not result.charged
    assert len(_alerts(engine)) == 1


def test_without_a_store_e_mail_the_alert_goes_to_mail_from(session: Session, engine: Engine) -> None:
    _shop(session, email="")
    candle = _candle(session, 6)

    _buy(engine, session, (candle, 1))

    assert [a.to_address for a in _alerts(engine)] == ["hello@cedar.example"]


def test_a_failing_alert_never_undoes_the_payment(
    session: Session, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _shop(session)
    candle = _candle(session, 6)

    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("mail table is gone")

    monkeypatch.setattr(low_stock, "alert_after_order", broken)
    owner = CartOwner(token="unlucky")
    cart.add_item(session, owner, product_id=candle.id, quantity=2)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    result = checkout.pay(order_id=placed.order_id, source_id="tok", gateway=Gateway(PAID), engine=engine)

    assert result.succeeded
    with Session(engine) as fresh:
        order = fresh.get(Order, placed.order_id)
        assert order.payment_status == PaymentStatus.COMPLETED
    assert _alerts(engine) == []


def test_the_claim_is_conditional_so_a_second_call_mails_nothing(session: Session, engine: Engine) -> None:
    _shop(session)
    candle = _candle(session, 6)
    _buy(engine, session, (candle, 2))
    with Session(engine) as fresh:
        order_id = fresh.execute(sa.text("SELECT max(id) FROM orders")).scalar_one()
        assert low_stock.alert_after_order(fresh, order_id) == []
        fresh.commit()
    assert len(_alerts(engine)) == 1
