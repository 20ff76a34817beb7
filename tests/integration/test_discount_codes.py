"""Discount codes at the till (issue 19, acceptance 3): a code on the cart prices every summary,
the order keeps it with its amount, a use is taken atomically (50 buyers racing for 10 uses: 10
orders carry it), a customer's own limit holds, and a failed payment gives the use back.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.discounts import DiscountKind
from shop_app.domain.messages import DiscountMessage
from shop_app.models import Cart, DiscountCode, DiscountRedemption, Order, Product, User
from shop_app.models.base import utcnow
from shop_app.services import cart, checkout, discounts
from shop_app.services.cart import CartOwner
from shop_app.services.checkout import CheckoutError
from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus
from shop_app.settings import get_settings
from tests.support.checkout import FORM

BUYERS = 50
USES = 10
USED_UP = DiscountMessage.NO_LONGER_APPLIES.format(reason=DiscountMessage.USED_UP.value)


class Gateway:
    """Answers every charge with one outcome (thread-safe enough: it keeps nothing)."""

    def __init__(self, status: ChargeStatus) -> None:
        self.status = status

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        return ChargeOutcome(status=self.status, payment_id=f"sq-{request.idempotency_key}", error_code="X")

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        return None


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def _candle(session: Session, *, stock: int = 500, price: int = 5000) -> Product:
    product = Product(
        name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=price, stock_quantity=stock
    )
    session.add(product)
    session.flush()
    return product


def _code(session: Session, **values: Any) -> DiscountCode:
    row = DiscountCode(**{"code": "TEN", "kind": DiscountKind.PERCENT.value, "value": 1000, **values})
    session.add(row)
    session.flush()
    return row


def _cart_with_code(session: Session, owner: CartOwner, product: Product, code: str = "TEN") -> None:
    cart.add_item(session, owner, product_id=product.id, quantity=1)
    discounts.use_code(session, owner, code)


def test_a_code_on_the_cart_prices_the_summary_and_the_order_keeps_it(
    session: Session, engine: Engine
) -> None:
    candle = _candle(session)
    _code(session)
    owner = CartOwner(token="ten-percent")
    _cart_with_code(session, owner, candle, " ten ")
    session.commit()

    quote = checkout.quote(session, owner, FORM.destination)
    assert (quote.totals.subtotal_cents, quote.totals.discount_cents, quote.totals.shipping_cents) == (
        5000,
        500,
        1500,
    )
    assert quote.discount.applied is not None and quote.discount.applied.label == "Discount (TEN)"
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, shown=quote.shown, engine=engine)

    with Session(engine) as fresh:
        order = fresh.get(Order, placed.order_id)
        assert (order.discount_code, order.discount_cents) == ("TEN", 500)
        assert order.total_cents == 5000 - 500 + 1500 + order.tax_cents == quote.totals.total_cents
        assert order.tax_cents == 720  # GST 5 % + PST 7 % of 45.00 + 15.00
        redemption = fresh.exec(select(DiscountRedemption)).one()
        assert (redemption.order_id, redemption.email, redemption.amount_cents) == (order.id, FORM.email, 500)
        assert fresh.exec(select(DiscountCode)).one().uses == 1


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ({"is_active": False}, DiscountMessage.INACTIVE),
        ({"ends_at": utcnow() - timedelta(minutes=1)}, DiscountMessage.EXPIRED),
        ({"starts_at": utcnow() + timedelta(days=1)}, DiscountMessage.NOT_STARTED),
        ({"max_uses": 1, "uses": 1}, DiscountMessage.USED_UP),
    ],
)
def test_a_code_that_does_not_apply_is_refused_with_its_reason_and_not_kept(
    session: Session, values: dict[str, Any], reason: DiscountMessage
) -> None:
    candle = _candle(session)
    _code(session, **values)
    owner = CartOwner(token="refused")
    cart.add_item(session, owner, product_id=candle.id, quantity=1)

    with pytest.raises(discounts.DiscountRefused, match=f"^{reason.value}$"):
        discounts.use_code(session, owner, "TEN")
    assert cart.view_cart(session, owner).discount_code == ""
    with pytest.raises(discounts.DiscountRefused, match=DiscountMessage.UNKNOWN.value):
        discounts.use_code(session, owner, "<script>")


def test_a_code_that_stopped_applying_is_shown_then_the_order_goes_through_without_it(
    session: Session, engine: Engine
) -> None:
    """The page showed the discount: refused with the code's reason, nothing written. The page
    then shows the total without it (and why): that order goes through, at that total."""
    candle = _candle(session)
    code = _code(session)
    owner = CartOwner(token="too-late")
    _cart_with_code(session, owner, candle)
    session.commit()
    shown = checkout.quote(session, owner, FORM.destination).shown  # with the discount
    code.ends_at = utcnow() - timedelta(seconds=1)  # it expired while the shopper typed
    session.commit()

    with pytest.raises(checkout.CartChangedError) as refused:
        checkout.place_order(owner=owner, user_id=None, form=FORM, shown=shown, engine=engine)
    assert str(refused.value) == DiscountMessage.NO_LONGER_APPLIES.format(
        reason=DiscountMessage.EXPIRED.value
    )
    assert _count(engine, Order) == 0
    again = checkout.quote(session, owner, FORM.destination)
    assert (again.discount.refused, again.totals.total_cents) == (DiscountMessage.EXPIRED.value, 7280)
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, shown=again.shown, engine=engine)
    with Session(engine) as fresh:
        order = fresh.get(Order, placed.order_id)
        assert (order.total_cents, order.discount_cents, order.discount_code) == (7280, 0, None)


def test_50_buyers_race_for_a_code_of_10_uses_and_10_orders_carry_it(
    session: Session, engine: Engine
) -> None:
    candle = _candle(session, stock=BUYERS)
    _code(session, max_uses=USES)
    owners = [CartOwner(token=f"racer-{n}") for n in range(BUYERS)]
    for owner in owners:
        _cart_with_code(session, owner, candle)
    session.commit()
    start = threading.Barrier(BUYERS)

    shown = [checkout.quote(session, owner, FORM.destination).shown for owner in owners]  # discounted

    def buy(n: int) -> str:
        start.wait()
        form = replace(FORM, email=f"racer{n}@example.ca")
        try:
            checkout.place_order(owner=owners[n], user_id=None, form=form, shown=shown[n], engine=engine)
        except CheckoutError as refused:
            return str(refused)
        return "placed"

    with ThreadPoolExecutor(max_workers=BUYERS) as pool:
        outcomes = list(pool.map(buy, range(BUYERS)))

    assert outcomes.count("placed") == USES
    assert set(outcomes) == {"placed", USED_UP}
    with Session(engine) as fresh:
        assert fresh.exec(select(DiscountCode)).one().uses == USES
        carrying = fresh.exec(select(Order).where(Order.discount_code == "TEN")).all()
        assert len(carrying) == len(fresh.exec(select(Order)).all()) == USES
        assert fresh.execute(select(sa.func.count()).select_from(DiscountRedemption)).scalar_one() == USES
        assert fresh.get(Product, candle.id).stock_quantity == BUYERS - USES  # the refused took nothing


def test_a_customer_uses_a_code_as_often_as_it_allows(session: Session, engine: Engine) -> None:
    candle = _candle(session)
    _code(session, max_uses_per_customer=1)
    first, second = CartOwner(token="first-cart"), CartOwner(token="second-cart")
    _cart_with_code(session, first, candle)
    _cart_with_code(session, second, candle)
    session.commit()

    checkout.place_order(owner=first, user_id=None, form=FORM, engine=engine)
    shouting = replace(FORM, email=FORM.email.upper())  # the same customer
    shown = checkout.quote(session, second, FORM.destination).shown  # a guest's page: no e-mail yet
    with pytest.raises(CheckoutError, match=DiscountMessage.ALREADY_USED.value):
        checkout.place_order(owner=second, user_id=None, form=shouting, shown=shown, engine=engine)
    quote = checkout.quote(session, second, FORM.destination, email=FORM.email)
    assert (quote.discount.refused, quote.totals.discount_cents) == (DiscountMessage.ALREADY_USED.value, 0)
    assert checkout.place_order(
        owner=second, user_id=None, form=replace(FORM, email="b@example.ca"), engine=engine
    )


def test_a_declined_payment_gives_the_use_back(session: Session, engine: Engine) -> None:
    candle = _candle(session)
    _code(session, max_uses=1)
    owner = CartOwner(token="declined")
    _cart_with_code(session, owner, candle)
    session.commit()

    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    result = checkout.pay(
        order_id=placed.order_id,
        source_id="cnon:card-nonce-declined",
        gateway=Gateway(ChargeStatus.DECLINED),
        owner=owner,
        engine=engine,
    )

    assert not result.succeeded
    with Session(engine) as fresh:
        assert fresh.exec(select(DiscountCode)).one().uses == 0
        assert fresh.exec(select(DiscountRedemption)).all() == []
    again = checkout.place_order(
        owner=owner, user_id=None, form=FORM, engine=engine
    )  # the cart kept its code
    with Session(engine) as fresh:
        assert fresh.get(Order, again.order_id).discount_code == "TEN"


def test_a_free_shipping_code_waives_the_shipping(session: Session, engine: Engine) -> None:
    candle = _candle(session, price=3000)
    _code(session, code="SHIPFREE", kind=DiscountKind.FREE_SHIPPING.value, value=0)
    owner = CartOwner(token="free-shipping")
    _cart_with_code(session, owner, candle, "shipfree")
    session.commit()

    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)
    with Session(engine) as fresh:
        order = fresh.get(Order, placed.order_id)
        assert (order.shipping_cents, order.discount_cents, order.discount_code, order.total_cents) == (
            0,
            0,
            "SHIPFREE",
            3360,
        )


def test_a_guest_s_code_comes_along_when_they_sign_in(session: Session) -> None:
    candle = _candle(session)
    _code(session)
    user = User(email="ana@example.ca", password_hash="x")
    session.add(user)
    session.flush()
    guest = CartOwner(token="guest-with-code")
    _cart_with_code(session, guest, candle)

    cart.merge_guest_cart(session, token=guest.token, user_id=user.id)

    mine = session.exec(select(Cart).where(Cart.user_id == user.id)).one()
    assert mine.discount_code == "TEN"


def test_a_signed_in_customer_s_limit_counts_by_the_account_whatever_e_mail_the_form_gives(
    session: Session, engine: Engine
) -> None:
    candle = _candle(session)
    _code(session, max_uses_per_customer=1)
    user = User(email="eve@example.ca", password_hash="x")
    session.add(user)
    session.flush()
    mine = CartOwner(user_id=user.id)
    _cart_with_code(session, mine, candle)
    session.commit()
    first = checkout.place_order(
        owner=mine, user_id=user.id, form=replace(FORM, email="a@example.ca"), engine=engine
    )
    paid = Gateway(ChargeStatus.COMPLETED)
    checkout.pay(order_id=first.order_id, source_id="cnon:ok", gateway=paid, owner=mine, engine=engine)
    session.expire_all()
    _cart_with_code(session, mine, candle)
    session.commit()
    shown = checkout.quote(session, mine, FORM.destination).shown  # as if the page had not known

    with pytest.raises(CheckoutError, match=DiscountMessage.ALREADY_USED.value):
        other = replace(FORM, email="b@example.ca")
        checkout.place_order(owner=mine, user_id=user.id, form=other, shown=shown, engine=engine)
    assert checkout.quote(session, mine, FORM.destination, email=user.email).totals.discount_cents == 0


def test_a_paid_order_takes_the_code_off_its_cart(session: Session, engine: Engine) -> None:
    candle = _candle(session)
    _code(session)
    owner = CartOwner(token="paid-with-code")
    _cart_with_code(session, owner, candle)
    session.commit()
    placed = checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)

    checkout.pay(
        order_id=placed.order_id,
        source_id="cnon:card-nonce-ok",
        gateway=Gateway(ChargeStatus.COMPLETED),
        owner=owner,
        engine=engine,
    )

    with Session(engine) as fresh:
        view = cart.view_cart(fresh, owner)
        assert (view.lines, view.discount_code) == ([], "")


def test_a_code_that_leaves_nothing_to_pay_places_nothing_and_keeps_its_use(
    session: Session, engine: Engine
) -> None:
    """$100.00 of goods ship free, and a $100.00 code leaves $0.00: no card can be charged that
    (a stranger's finding: the order waited for its payment forever, the cart locked with it)."""
    candle = _candle(session, price=10_000)
    _code(session, code="BIGFIX", kind=DiscountKind.FIXED.value, value=10_000, max_uses=1)
    owner = CartOwner(token="free-order")
    _cart_with_code(session, owner, candle, "BIGFIX")
    session.commit()
    assert checkout.quote(session, owner, FORM.destination).totals.total_cents == 0

    with pytest.raises(CheckoutError, match=r"^Your discount covers the whole order"):
        checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine)

    assert _count(engine, Order) == 0
    with Session(engine) as fresh:
        assert fresh.exec(select(DiscountCode)).one().uses == 0
    discounts.remove_code(session, owner)
    session.commit()
    assert checkout.place_order(owner=owner, user_id=None, form=FORM, engine=engine).total_cents == 11_200


def _count(engine: Engine, model: type) -> int:
    with Session(engine) as fresh:
        return fresh.execute(select(sa.func.count()).select_from(model)).scalar_one()
