"""Checkout: validation, prices from the database, stock taken atomically, payment outcomes.

``place_order`` and ``pay`` open their own transactions on the engine, so each test commits
its set-up first and reads the results through a fresh session.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.messages import CheckoutMessage, DeclineMessage, PaymentMessage
from shop_app.domain.order_numbers import RANDOM_LENGTH
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus
from shop_app.models import (
    Order,
    OrderAddress,
    OrderItem,
    OutgoingMail,
    Payment,
    Product,
    ProductImage,
    StoreSettings,
    User,
)
from shop_app.services import cart, checkout, low_stock
from shop_app.services.cart import CartLineView, CartOwner, CartView
from shop_app.services.checkout import CheckoutError, CheckoutForm
from shop_app.services.ordering.place import ORDER_NUMBER_ATTEMPTS
from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus
from shop_app.settings import get_settings
from tests.support.shipping import ships_to

GUEST = CartOwner(token="guest-cookie-for-checkout")
FORM = CheckoutForm(
    first_name="Ana",
    last_name="Silva",
    email="ana@example.ca",
    phone="604-555-0100",
    address="12 Cedar St",
    address_line2="Apt 4",
    city="Vancouver",
    state="BC",
    zip_code="V5K 0A1",
    country="canada",
    special_instructions="Leave at the door",
)
PAID = ChargeOutcome(
    status=ChargeStatus.COMPLETED,
    payment_id="sq-pay-1",
    provider_order_id="sq-order-1",
    card_brand="VISA",
    card_last4="1111",
    receipt_url="https://squareup.com/receipt/preview/sq-pay-1",
)
DECLINED = ChargeOutcome(
    status=ChargeStatus.DECLINED, error_code="CVV_FAILURE", message="Authorization error: 'CVV_FAILURE'"
)
"""A decline as Square words it: the shopper reads DeclineMessage.SECURITY_CODE instead."""


class FakeGateway:
    """Records every call; answers with the configured outcomes (an exception is raised)."""

    def __init__(self, *outcomes: ChargeOutcome | Exception, found: ChargeOutcome | None = None) -> None:
        self.outcomes = list(outcomes)
        self.found = found
        self.charges: list[ChargeRequest] = []
        self.finds: list[tuple[str, str]] = []

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        self.charges.append(request)
        outcome = self.outcomes.pop(0) if len(self.outcomes) > 1 else self.outcomes[0]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        self.finds.append((idempotency_key, reference))
        return self.found


@pytest.fixture(autouse=True)
def local_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    monkeypatch.setenv("SQUARE_ENVIRONMENT", "local")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def _product(session: Session, **fields: Any) -> Product:
    values = {"name": "8oz Amber Soy Candle - Vanilla Bean", "base_price_cents": 2800, "stock_quantity": 10}
    product = Product(**{**values, **fields})
    session.add(product)
    session.flush()
    return product


def _fill(session: Session, owner: CartOwner, *items: tuple[Product, int]) -> None:
    for product, quantity in items:
        cart.add_item(session, owner, product_id=product.id, quantity=quantity)
    session.commit()


def _place(engine: Engine, owner: CartOwner = GUEST, **kwargs: Any) -> checkout.PlacedOrder:
    values = {"owner": owner, "user_id": owner.user_id, "form": FORM, "engine": engine}
    return checkout.place_order(**{**values, **kwargs})


def _read(engine: Engine, query: Callable[[Session], Any]) -> Any:
    with Session(engine) as fresh:
        return query(fresh)


def _count(engine: Engine, model: type) -> int:
    return _read(engine, lambda s: s.execute(select(sa.func.count()).select_from(model)).scalar_one())


def _stock(engine: Engine, product_id: int) -> int:
    return _read(engine, lambda s: s.get(Product, product_id).stock_quantity)


def _order(engine: Engine, order_id: int) -> Order:
    return _read(engine, lambda s: s.get(Order, order_id))


def _payment(engine: Engine, order_id: int) -> Payment:
    return _read(engine, lambda s: s.exec(select(Payment).where(Payment.order_id == order_id)).one())


def _cart_count(engine: Engine, owner: CartOwner = GUEST) -> int:
    return _read(engine, lambda s: cart.view_cart(s, owner).count)


def _mails(engine: Engine) -> list[OutgoingMail]:
    """The mails about the order (the shop's low-stock alerts are tested in test_low_stock)."""
    return _read(
        engine,
        lambda s: list(
            s.exec(
                select(OutgoingMail)
                .where(OutgoingMail.kind != low_stock.ALERT_KIND)
                .order_by(OutgoingMail.id)
            ).all()
        ),
    )


# --- the form ------------------------------------------------------------------------------


def _validate(form: CheckoutForm) -> str | None:
    return checkout.validate(form, ships_to=("United States", "Canada"))


def test_validation_uses_the_seed_messages() -> None:
    assert _validate(FORM) is None
    assert _validate(replace(FORM, city="   ")) == "Please fill in all required fields"
    assert _validate(CheckoutForm()) == CheckoutMessage.REQUIRED_FIELDS
    assert _validate(replace(FORM, email="ana@")) == "Please enter a valid email address"
    assert _validate(replace(FORM, country="Atlantis")) == CheckoutMessage.UNKNOWN_COUNTRY
    assert _validate(replace(FORM, phone="", address_line2="", special_instructions="")) is None
    assert _validate(replace(FORM, city="c" * 101)) == "City can be at most 100 characters long"


def test_a_problem_names_its_field_for_the_form_to_mark_and_focus() -> None:
    ships_to = ("United States", "Canada")
    problem = checkout.form_problem(
        replace(FORM, country="Canada", state="BC", zip_code="12345"), ships_to=ships_to
    )
    assert problem == checkout.FieldProblem(
        "zip_code", "Postal code: please enter a Canadian postal code like V5K 0A1"
    )
    too_long = checkout.form_problem(replace(FORM, special_instructions="n" * 2001), ships_to=ships_to)
    assert too_long is not None and too_long.field == "special_instructions"
    gift = checkout.form_problem(replace(FORM, gift_message="g" * 301), ships_to=ships_to)
    assert gift == checkout.FieldProblem("gift_message", "Gift message can be at most 300 characters long")
    assert checkout.form_problem(replace(FORM, gift_message="g" * 300), ships_to=ships_to) is None
    assert replace(FORM, gift_wrap="yes" * 10).cleaned().gift_wrap == ""  # forged: not ticked
    assert replace(FORM, gift_wrap="on").cleaned().gift_wrap == "on"
    assert checkout.form_problem(FORM, ships_to=ships_to) is None


def test_the_stored_form_has_codes_and_normalised_numbers() -> None:
    typed = replace(FORM, state=" british columbia ", zip_code="v5k0a1", phone="+1 (604) 555.0100")

    cleaned = typed.cleaned()

    assert (cleaned.country, cleaned.state, cleaned.zip_code, cleaned.phone) == (
        "Canada",
        "BC",
        "V5K 0A1",
        "604-555-0100",
    )
    us = replace(FORM, country="united states", state="new york", zip_code="100011234").cleaned()
    assert (us.country, us.state, us.zip_code) == ("United States", "NY", "10001-1234")
    # what is not valid stays as typed, for validate to refuse with the field's message
    assert replace(FORM, state="Nowhere", zip_code="ABCDEFG").cleaned().state == "Nowhere"


def test_an_invalid_form_writes_nothing(session: Session, engine: Engine) -> None:
    candle = _product(session)
    _fill(session, GUEST, (candle, 1))

    with pytest.raises(CheckoutError, match=r"^Please fill in all required fields$"):
        _place(engine, form=replace(FORM, last_name=""))

    assert _count(engine, Order) == 0
    assert _stock(engine, candle.id) == 10


def test_an_empty_cart_cannot_be_ordered(session: Session, engine: Engine) -> None:
    with pytest.raises(CheckoutError, match=r"^Your Cart is Empty$"):
        _place(engine)
    assert _count(engine, Order) == 0


# --- placing -------------------------------------------------------------------------------


def test_quote_prices_from_the_database_with_the_store_settings(session: Session) -> None:
    candle = _product(session, base_price_cents=2800, sale_price_cents=2500)
    cart.add_item(session, GUEST, product_id=candle.id, quantity=2)
    ontario_at_5 = {"ON": [{"code": "HST", "rate_ppm": 50_000, "on_shipping": True, "collected": True}]}
    session.add(StoreSettings(tax_table=ontario_at_5, shipping_zones=ships_to("Canada", flat_cents=900)))
    session.flush()

    summary = checkout.quote(session, GUEST, checkout.destination("Canada", "Ontario"))

    assert [(line.unit_price_cents, line.quantity) for line in summary.lines] == [(2500, 2)]
    assert summary.totals.subtotal_cents == 5000
    assert (summary.totals.shipping_cents, summary.totals.tax_cents, summary.totals.total_cents) == (
        900,
        295,  # the owner's 5 % on the goods and the shipping
        6195,
    )
    assert [line.label for line in summary.totals.tax_lines] == ["HST 5%"]
    assert summary.count == 2 and not summary.is_empty
    home = checkout.quote(session, GUEST)  # no address yet: the shop's own province
    assert [(line.label, line.amount_cents) for line in home.totals.tax_lines] == [
        ("GST 5%", 295),
        ("PST 7%", 413),
    ]
    export = checkout.quote(session, GUEST, checkout.destination("United States", "WA"))
    assert (export.totals.tax_cents, export.totals.total_cents) == (0, 5900)


def test_a_guest_order_uses_todays_prices_takes_stock_and_keeps_the_cart(
    session: Session, engine: Engine
) -> None:
    candle = _product(session, base_price_cents=2800, stock_quantity=5)
    _fill(session, GUEST, (candle, 2))
    candle.base_price_cents = 3000  # the owner changes the price after the shopper added it
    session.add(candle)
    session.commit()

    placed = _place(engine)

    order = _order(engine, placed.order_id)
    assert order.user_id is None
    assert (order.email, order.phone, order.notes) == ("ana@example.ca", "604-555-0100", "Leave at the door")
    assert (order.status, order.payment_status) == (OrderStatus.AWAITING_PAYMENT, PaymentStatus.PENDING)
    assert (order.subtotal_cents, order.shipping_cents, order.tax_cents) == (6000, 1500, 900)
    assert order.total_cents == placed.total_cents == 8400
    assert order.tax_lines == [  # to British Columbia: GST 5 % and PST 7 %, the rates kept
        {"code": "GST", "rate_ppm": 50_000, "base_cents": 7500, "amount_cents": 375},
        {"code": "PST", "rate_ppm": 70_000, "base_cents": 7500, "amount_cents": 525},
    ]
    assert order.order_number == placed.order_number and order.order_number.startswith("CE-")
    item = _read(engine, lambda s: s.exec(select(OrderItem)).one())
    assert (item.quantity, item.unit_price_cents, item.total_price_cents) == (2, 3000, 6000)
    payment = _payment(engine, placed.order_id)
    assert payment.idempotency_key == placed.idempotency_key
    assert str(uuid.UUID(payment.idempotency_key, version=4)) == payment.idempotency_key
    assert len(payment.idempotency_key) <= 45
    assert (payment.provider, payment.status) == (PaymentProvider.SQUARE, PaymentStatus.PENDING)
    assert payment.amount_cents == order.total_cents
    assert _stock(engine, candle.id) == 3
    assert _cart_count(engine) == 2  # cleared only when the payment completes


def test_the_address_and_the_snapshot_are_written(session: Session, engine: Engine) -> None:
    melt = _product(
        session,
        name="Wax Melt - Sampler",
        base_price_cents=1200,
        sale_price_cents=1000,
        variants={"scents": ["Rose", "Cedar"]},
    )
    session.add(ProductImage(product_id=melt.id, image_url="/media/melt.webp", is_primary=True))
    session.flush()
    cart.add_item(session, GUEST, product_id=melt.id, quantity=1, selected_options={"scent": "Rose"})
    session.commit()

    placed = _place(engine)

    item = _read(engine, lambda s: s.exec(select(OrderItem)).one())
    assert item.product_snapshot == {
        "name": "Wax Melt - Sampler",
        "base_price_cents": 1200,
        "sale_price_cents": 1000,
        "image_url": "/media/melt.webp",
        "selected_options": {"scent": "Rose"},
    }
    address = _read(engine, lambda s: s.exec(select(OrderAddress)).one())
    assert address.order_id == placed.order_id
    assert (address.type, address.first_name, address.last_name) == ("shipping", "Ana", "Silva")
    assert (address.address_line1, address.address_line2) == ("12 Cedar St", "Apt 4")
    assert (address.city, address.state, address.zip_code) == ("Vancouver", "BC", "V5K 0A1")
    assert (address.country, address.phone) == ("Canada", "604-555-0100")  # spelled as in the list


def test_a_customer_order_carries_the_user_and_free_shipping_from_100(
    session: Session, engine: Engine
) -> None:
    user = User(email="ana@example.ca", password_hash="x", first_name="Ana")
    session.add(user)
    session.flush()
    owner = CartOwner(user_id=user.id)
    _fill(session, owner, (_product(session, base_price_cents=5000), 2))

    placed = _place(engine, owner)

    order = _order(engine, placed.order_id)
    assert order.user_id == user.id
    assert (order.subtotal_cents, order.shipping_cents, order.tax_cents, order.total_cents) == (
        10000,
        0,
        1200,
        11200,
    )
    with pytest.raises(ValueError, match="own cart"):
        _place(engine, owner, user_id=user.id + 1)


def test_the_database_refuses_a_total_that_does_not_add_up(session: Session) -> None:
    session.add(
        Order(
            order_number="CE-20261121-AAAAAA",
            email="a@b.ca",
            subtotal_cents=1000,
            tax_cents=120,
            shipping_cents=1500,
            total_cents=2600,
        )
    )
    with pytest.raises(sa.exc.IntegrityError):
        session.flush()
    session.rollback()


def test_insufficient_stock_gives_the_seed_message_and_writes_nothing(
    session: Session, engine: Engine
) -> None:
    lotion = _product(session, name="Hand & Body Lotion", stock_quantity=4)
    melt = _product(
        session, name="Wax Melt - Sampler", stock_quantity=4, variants={"scents": ["Rose", "Cedar"]}
    )
    cart.add_item(session, GUEST, product_id=lotion.id, quantity=1)
    cart.add_item(session, GUEST, product_id=melt.id, quantity=2, selected_options={"scent": "Rose"})
    cart.add_item(session, GUEST, product_id=melt.id, quantity=2, selected_options={"scent": "Cedar"})
    melt.stock_quantity = 3  # someone else bought one meanwhile
    session.add(melt)
    session.commit()

    with pytest.raises(CheckoutError) as refused:
        _place(engine)

    # Two scent lines of one product share its stock: 2 + 2 requested.
    assert str(refused.value) == 'Insufficient stock for "Wax Melt - Sampler". Available: 3, Requested: 4'
    for model in (Order, OrderItem, OrderAddress, Payment):
        assert _count(engine, model) == 0
    assert (_stock(engine, lotion.id), _stock(engine, melt.id)) == (4, 3)  # lotion's decrement undone
    assert _cart_count(engine) == 5


def test_an_archived_product_is_not_ordered(session: Session, engine: Engine) -> None:
    candle, gone = _product(session), _product(session, name="Retired Candle")
    _fill(session, GUEST, (candle, 1), (gone, 1))
    gone.is_active = False
    session.add(gone)
    session.commit()

    placed = _place(engine)

    items = _read(engine, lambda s: s.exec(select(OrderItem)).all())
    assert [i.product_id for i in items] == [candle.id]
    assert _order(engine, placed.order_id).subtotal_cents == 2800


def test_a_colliding_order_number_is_drawn_again(session: Session, engine: Engine) -> None:
    candle = _product(session)
    _fill(session, GUEST, (candle, 1))
    other = CartOwner(token="another-guest")
    _fill(session, other, (candle, 1))

    first = _place(engine, random_source=random.Random(42))
    second = _place(engine, other, random_source=random.Random(42))  # same first draw

    assert first.order_number != second.order_number
    assert first.order_number[:11] == second.order_number[:11]


def test_an_order_is_priced_as_the_checkout_summary_shows_it(session: Session, engine: Engine) -> None:
    user = User(email="ana@example.ca", password_hash="x", first_name="Ana")
    session.add(user)
    session.flush()
    owner = CartOwner(user_id=user.id)
    jar = _product(
        session,
        name="Candle Jar",
        base_price_cents=2000,
        pricing={"16oz": 3200, "Gift Wrap": 300},
        variants={"sizes": ["8oz", "16oz"], "wraps": ["Gift Wrap"], "scents": ["Rose", "Cedar"]},
    )
    lotion = _product(session, name="Hand & Body Lotion", base_price_cents=1800, sale_price_cents=1500)
    session.add(ProductImage(product_id=jar.id, image_url="/media/jar-2.webp", display_order=2))
    session.add(ProductImage(product_id=jar.id, image_url="/media/jar-1.webp", display_order=1))
    gst_alone = {"BC": [{"code": "GST", "rate_ppm": 50_000, "on_shipping": True, "collected": True}]}
    session.add(
        StoreSettings(
            tax_table=gst_alone, shipping_zones=ships_to("Canada", flat_cents=900, free_from_cents=20000)
        )
    )
    session.flush()
    chosen = {"size": "16oz", "wrap": "Gift Wrap", "scent": "Cedar"}
    cart.add_item(session, owner, product_id=jar.id, quantity=2, selected_options=chosen)
    cart.add_item(session, owner, product_id=lotion.id, quantity=3)
    cart.add_item(session, owner, product_id=jar.id, quantity=1, selected_options={"scent": "Rose"})
    session.commit()
    summary = checkout.quote(session, owner, FORM.destination)
    session.commit()

    placed = _place(engine, owner)

    order = _order(engine, placed.order_id)
    totals = (order.subtotal_cents, order.shipping_cents, order.tax_cents, order.total_cents)
    shown = summary.totals
    assert totals == (shown.subtotal_cents, shown.shipping_cents, shown.tax_cents, shown.total_cents)
    assert totals == (13500, 900, 720, 15120)
    items = _read(engine, lambda s: s.exec(select(OrderItem).order_by(OrderItem.id)).all())
    ordered = [(i.product_id, i.quantity, i.unit_price_cents, i.total_price_cents) for i in items]
    shown = [(x.product_id, x.quantity, x.unit_price_cents, x.line_total_cents) for x in summary.lines]
    assert ordered == shown == [(jar.id, 2, 3500, 7000), (lotion.id, 3, 1500, 4500), (jar.id, 1, 2000, 2000)]
    assert items[0].product_snapshot == {
        "name": "Candle Jar",
        "base_price_cents": 2000,
        "sale_price_cents": None,
        "image_url": "/media/jar-1.webp",
        "selected_options": chosen,
    }
    assert items[1].product_snapshot["image_url"] == ""
    assert _stock(engine, jar.id) == 7


def test_placing_an_order_claims_the_cart_reads_once_and_makes_no_savepoint(
    session: Session, engine: Engine
) -> None:
    candle, lotion = _product(session), _product(session, name="Hand & Body Lotion")
    _fill(session, GUEST, (lotion, 1), (candle, 2))
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(" ".join(statement.split()[:3]).upper())

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        _place(engine)
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)

    assert [s for s in statements if not s.startswith("BEGIN")] == [
        "UPDATE CARTS SET",  # the claim: the cart's row lock (one checkout per cart)
        "SELECT ORDERS.ID, PAYMENTS.STATUS",  # no order of the cart awaits its payment
        "SELECT CART_LINES.PRODUCT_ID, CART_LINES.QUANTITY,",  # lines, prices, image and settings
        "UPDATE PRODUCTS SET",
        "UPDATE PRODUCTS SET",
        "INSERT INTO SQUARE_OUTBOX",  # both stock movements, for Square, in one statement
        "INSERT INTO ORDERS",
        "INSERT INTO ORDER_ITEMS",
        "INSERT INTO ORDER_ADDRESSES",
        "INSERT INTO PAYMENTS",
    ]


def test_no_free_order_number_writes_nothing(session: Session, engine: Engine) -> None:
    candle = _product(session, stock_quantity=5)
    _fill(session, GUEST, (candle, 1))
    other = CartOwner(token="another-guest")
    _fill(session, other, (candle, 1))
    _place(engine, random_source=random.Random(7))

    class Replay:
        """Draws the first order's random characters again and again."""

        def __init__(self) -> None:
            self.draws = 0
            self.source = random.Random(7)

        def choice(self, seq: Any) -> Any:
            if self.draws % RANDOM_LENGTH == 0:
                self.source = random.Random(7)
            self.draws += 1
            return self.source.choice(seq)

    replay = Replay()
    with pytest.raises(CheckoutError, match=r"^Failed to generate order number$"):
        _place(engine, other, random_source=replay)

    assert replay.draws == RANDOM_LENGTH * ORDER_NUMBER_ATTEMPTS  # every number drawn was taken
    assert _count(engine, Order) == _count(engine, Payment) == 1
    assert _stock(engine, candle.id) == 4


# --- paying --------------------------------------------------------------------------------


def test_a_completed_payment_charges_the_stored_total_once_and_confirms(
    session: Session, engine: Engine
) -> None:
    candle = _product(session, stock_quantity=3)
    _fill(session, GUEST, (candle, 2))
    placed = _place(engine)
    gateway = FakeGateway(PAID)

    result = checkout.pay(
        order_id=placed.order_id, source_id="cnon:card-nonce-ok", gateway=gateway, owner=GUEST, engine=engine
    )

    assert result == checkout.PaymentResult(ChargeStatus.COMPLETED, placed.order_id, placed.order_number)
    assert result.succeeded and result.charged
    [request] = gateway.charges
    assert request.amount_cents == placed.total_cents == 7952
    assert (request.idempotency_key, request.reference) == (placed.idempotency_key, placed.order_number)
    assert (request.currency, request.source_id, request.buyer_email) == (
        "CAD",
        "cnon:card-nonce-ok",
        FORM.email,
    )
    order = _order(engine, placed.order_id)
    assert (order.status, order.payment_status) == (OrderStatus.PENDING, PaymentStatus.COMPLETED)
    assert order.paid_at is not None
    payment = _payment(engine, placed.order_id)
    assert (payment.status, payment.square_payment_id, payment.square_order_id) == (
        "completed",
        "sq-pay-1",
        "sq-order-1",
    )
    assert (payment.card_brand, payment.card_last4) == ("VISA", "1111")
    assert payment.receipt_url == PAID.receipt_url
    assert _cart_count(engine) == 0
    assert _stock(engine, candle.id) == 1

    [mail] = _mails(engine)
    assert (mail.to_address, mail.kind) == ("ana@example.ca", "order_confirmation")
    assert placed.order_number in mail.subject
    for text in (
        placed.order_number,
        "2 × 8oz Amber Soy Candle - Vanilla Bean",
        "$79.52",
        "GST 5% $3.55, PST 7% $4.97",  # each tax of the address, on 71.00
        "12 Cedar St",
        "V5K 0A1",
    ):
        assert text in mail.body_text

    again = checkout.pay(
        order_id=placed.order_id, source_id="cnon:card-nonce-ok", gateway=gateway, engine=engine
    )
    assert again == result
    assert len(gateway.charges) == 1 and gateway.finds == []
    assert len(_mails(engine)) == 1


def test_a_declined_payment_gives_the_stock_back_cancels_and_keeps_the_cart(
    session: Session, engine: Engine
) -> None:
    candle = _product(session, stock_quantity=3)
    _fill(session, GUEST, (candle, 2))
    placed = _place(engine)
    gateway = FakeGateway(DECLINED)

    result = checkout.pay(
        order_id=placed.order_id,
        source_id="cnon:card-nonce-declined",
        gateway=gateway,
        owner=GUEST,
        engine=engine,
    )

    assert (result.status, result.message) == (ChargeStatus.DECLINED, DeclineMessage.SECURITY_CODE)
    assert "CVV_FAILURE" not in result.message and "Authorization" not in result.message
    assert not result.succeeded
    order = _order(engine, placed.order_id)
    assert (order.status, order.payment_status, order.paid_at) == (
        OrderStatus.CANCELLED,
        PaymentStatus.FAILED,
        None,
    )
    payment = _payment(engine, placed.order_id)
    assert (payment.status, payment.error_code, payment.error_detail) == (
        "failed",
        "CVV_FAILURE",  # the provider's code stays with the payment
        DeclineMessage.SECURITY_CODE,  # what the shopper was told
    )
    assert _stock(engine, candle.id) == 3
    assert _cart_count(engine) == 2
    assert _mails(engine) == []

    # Paying the cancelled order again repeats the answer; the shopper places a new order instead.
    assert checkout.pay(order_id=placed.order_id, source_id="x", gateway=gateway, engine=engine) == result
    assert len(gateway.charges) == 1
    assert _stock(engine, candle.id) == 3


def test_a_decline_without_a_code_uses_the_seed_fallback(session: Session, engine: Engine) -> None:
    _fill(session, GUEST, (_product(session), 1))
    placed = _place(engine)

    result = checkout.pay(
        order_id=placed.order_id,
        source_id="tok",
        gateway=FakeGateway(ChargeOutcome(status=ChargeStatus.DECLINED)),
        engine=engine,
    )

    assert result.message == PaymentMessage.CARD_FAILED == "Payment failed. Please try again."


def test_an_unknown_code_gives_the_seed_fallback(session: Session, engine: Engine) -> None:
    _fill(session, GUEST, (_product(session), 1))
    placed = _place(engine)
    outcome = ChargeOutcome(ChargeStatus.DECLINED, error_code="BRAND_NEW_CODE", message="Authorization error")

    gateway = FakeGateway(outcome)
    result = checkout.pay(order_id=placed.order_id, source_id="tok", gateway=gateway, engine=engine)

    assert result.message == PaymentMessage.CARD_FAILED
    assert _payment(engine, placed.order_id).error_code == "BRAND_NEW_CODE"


def test_a_decline_recorded_with_the_providers_text_is_retold_in_a_sentence(
    session: Session, engine: Engine
) -> None:
    """A payment row from before the sentences (its detail is Square's text) never shows it again."""
    _fill(session, GUEST, (_product(session), 1))
    placed = _place(engine)
    checkout.pay(order_id=placed.order_id, source_id="tok", gateway=FakeGateway(DECLINED), engine=engine)
    with Session(engine) as fix:
        fix.execute(
            sa.update(Payment)
            .where(Payment.order_id == placed.order_id)
            .values(error_code="GENERIC_DECLINE", error_detail="Authorization error: 'GENERIC_DECLINE'")
        )
        fix.commit()

    again = checkout.pay(order_id=placed.order_id, source_id="x", gateway=FakeGateway(PAID), engine=engine)

    assert (again.status, again.message) == (ChargeStatus.DECLINED, DeclineMessage.DECLINED)


def test_an_unknown_outcome_waits_then_reconcile_settles_it_once(session: Session, engine: Engine) -> None:
    candle = _product(session, stock_quantity=3)
    _fill(session, GUEST, (candle, 1))
    placed = _place(engine)
    gateway = FakeGateway(TimeoutError("read timed out"))

    result = checkout.pay(
        order_id=placed.order_id, source_id="tok", gateway=gateway, owner=GUEST, engine=engine
    )

    assert (result.status, result.message) == (ChargeStatus.UNKNOWN, PaymentMessage.BEING_CONFIRMED)
    order = _order(engine, placed.order_id)
    assert (order.status, order.payment_status) == (OrderStatus.AWAITING_PAYMENT, PaymentStatus.UNKNOWN)
    assert _payment(engine, placed.order_id).status == PaymentStatus.UNKNOWN
    assert (_stock(engine, candle.id), _cart_count(engine)) == (2, 1)

    still = checkout.reconcile(order_id=placed.order_id, gateway=gateway, engine=engine)
    assert still.status == ChargeStatus.UNKNOWN
    assert gateway.finds == [(placed.idempotency_key, placed.order_number)]

    gateway.found = PAID
    settled = checkout.reconcile(order_id=placed.order_id, gateway=gateway, owner=GUEST, engine=engine)
    assert settled.status == ChargeStatus.COMPLETED
    assert _order(engine, placed.order_id).status == OrderStatus.PENDING
    assert _payment(engine, placed.order_id).square_payment_id == "sq-pay-1"
    assert _cart_count(engine) == 0

    again = checkout.reconcile(order_id=placed.order_id, gateway=gateway, owner=GUEST, engine=engine)
    assert again == settled
    assert len(gateway.finds) == 2  # a settled order is not asked about again
    assert [m.kind for m in _mails(engine)] == ["order_confirmation"]
    assert len(gateway.charges) == 1


def test_reconcile_finding_a_decline_releases_the_stock_and_tells_the_shopper(
    session: Session, engine: Engine
) -> None:
    candle = _product(session, stock_quantity=3)
    _fill(session, GUEST, (candle, 2))
    placed = _place(engine)
    checkout.pay(
        order_id=placed.order_id, source_id="tok", gateway=FakeGateway(ConnectionError()), engine=engine
    )

    result = checkout.reconcile(order_id=placed.order_id, gateway=FakeGateway(found=DECLINED), engine=engine)
    checkout.reconcile(order_id=placed.order_id, gateway=FakeGateway(found=DECLINED), engine=engine)

    assert (result.status, result.message) == (ChargeStatus.DECLINED, DeclineMessage.SECURITY_CODE)
    assert _order(engine, placed.order_id).status == OrderStatus.CANCELLED
    assert _stock(engine, candle.id) == 3  # given back once, not twice
    assert _cart_count(engine) == 2
    [mail] = _mails(engine)
    assert mail.kind == "order_payment_failed" and DeclineMessage.SECURITY_CODE in mail.body_text
    assert "CVV_FAILURE" not in mail.body_text and "CVV_FAILURE" not in mail.body_html


def test_paying_again_after_an_unknown_outcome_reuses_the_key(session: Session, engine: Engine) -> None:
    _fill(session, GUEST, (_product(session), 1))
    placed = _place(engine)
    gateway = FakeGateway(TimeoutError(), PAID)

    first = checkout.pay(order_id=placed.order_id, source_id="tok", gateway=gateway, engine=engine)
    second = checkout.pay(
        order_id=placed.order_id, source_id="tok", gateway=gateway, owner=GUEST, engine=engine
    )

    assert (first.status, second.status) == (ChargeStatus.UNKNOWN, ChargeStatus.COMPLETED)
    assert gateway.finds == [(placed.idempotency_key, placed.order_number)]  # asked before charging again
    assert [c.idempotency_key for c in gateway.charges] == [placed.idempotency_key] * 2
    assert {c.amount_cents for c in gateway.charges} == {placed.total_cents}


def test_paying_again_applies_what_the_provider_already_did(session: Session, engine: Engine) -> None:
    _fill(session, GUEST, (_product(session), 1))
    placed = _place(engine)
    gateway = FakeGateway(TimeoutError())
    checkout.pay(order_id=placed.order_id, source_id="tok", gateway=gateway, engine=engine)

    gateway.found = PAID  # the first attempt went through after all
    result = checkout.pay(order_id=placed.order_id, source_id="tok-2", gateway=gateway, engine=engine)

    assert result.status == ChargeStatus.COMPLETED
    assert len(gateway.charges) == 1


def test_an_unknown_order_cannot_be_paid(engine: Engine) -> None:
    with pytest.raises(CheckoutError, match=r"^Failed to fetch order$"):
        checkout.pay(order_id=999_999, source_id="tok", gateway=FakeGateway(PAID), engine=engine)


def test_an_abandoned_order_is_cancelled_and_its_stock_returned(session: Session, engine: Engine) -> None:
    candle = _product(session, stock_quantity=3)
    _fill(session, GUEST, (candle, 2))
    placed = _place(engine)
    gateway = FakeGateway(PAID)

    result = checkout.cancel_unpaid(order_id=placed.order_id, gateway=gateway, engine=engine)

    assert result.status == ChargeStatus.DECLINED
    assert _order(engine, placed.order_id).status == OrderStatus.CANCELLED
    assert _payment(engine, placed.order_id).error_code == "ABANDONED"
    assert _stock(engine, candle.id) == 3
    assert gateway.charges == []


class UnreachableGateway(FakeGateway):
    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        raise ConnectionError("no route to host")


def test_an_abandoned_order_is_kept_while_the_provider_cannot_answer_or_has_the_money(
    session: Session, engine: Engine
) -> None:
    candle = _product(session, stock_quantity=3)
    _fill(session, GUEST, (candle, 2))
    placed = _place(engine)

    waiting = checkout.cancel_unpaid(
        order_id=placed.order_id, gateway=UnreachableGateway(PAID), engine=engine
    )
    assert waiting.status == ChargeStatus.UNKNOWN
    assert _order(engine, placed.order_id).status == OrderStatus.AWAITING_PAYMENT
    assert _stock(engine, candle.id) == 1

    paid = checkout.cancel_unpaid(
        order_id=placed.order_id, gateway=FakeGateway(PAID, found=PAID), engine=engine
    )
    assert paid.status == ChargeStatus.COMPLETED
    assert _order(engine, placed.order_id).status == OrderStatus.PENDING
    assert _stock(engine, candle.id) == 1


# --- simulated PayPal ----------------------------------------------------------------------


def test_simulated_paypal_places_the_order_without_charging(session: Session, engine: Engine) -> None:
    _fill(session, GUEST, (_product(session), 1))
    placed = _place(engine, provider=PaymentProvider.PAYPAL_SIMULATED)

    result = checkout.pay_simulated_paypal(order_id=placed.order_id, owner=GUEST, engine=engine)

    assert (result.status, result.charged) == (ChargeStatus.COMPLETED, False)
    order = _order(engine, placed.order_id)
    assert (order.status, order.payment_status) == (OrderStatus.PENDING, PaymentStatus.NOT_CHARGED)
    payment = _payment(engine, placed.order_id)
    assert (payment.provider, payment.status) == (PaymentProvider.PAYPAL_SIMULATED, PaymentStatus.NOT_CHARGED)
    assert _cart_count(engine) == 0
    [mail] = _mails(engine)
    assert "nothing was charged" in mail.body_text
    assert checkout.pay_simulated_paypal(order_id=placed.order_id, engine=engine) == result
    gateway = FakeGateway(PAID)
    assert checkout.pay(order_id=placed.order_id, source_id="tok", gateway=gateway, engine=engine) == result
    assert gateway.charges == []


def test_simulated_paypal_is_refused_with_real_square(
    session: Session, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(session, GUEST, (_product(session), 1))
    placed = _place(engine, provider=PaymentProvider.PAYPAL_SIMULATED)
    monkeypatch.setenv("SQUARE_ENVIRONMENT", "sandbox")
    get_settings.cache_clear()

    with pytest.raises(CheckoutError, match=r"^PayPal payment failed\. Please try again\.$"):
        checkout.pay_simulated_paypal(order_id=placed.order_id, engine=engine)

    assert _order(engine, placed.order_id).status == OrderStatus.AWAITING_PAYMENT


def test_simulated_paypal_cannot_follow_a_card_attempt(session: Session, engine: Engine) -> None:
    _fill(session, GUEST, (_product(session), 1))
    placed = _place(engine)
    checkout.pay(
        order_id=placed.order_id, source_id="tok", gateway=FakeGateway(TimeoutError()), engine=engine
    )

    with pytest.raises(CheckoutError, match="PayPal payment failed"):
        checkout.pay_simulated_paypal(order_id=placed.order_id, engine=engine)


# --- receipt and mail ----------------------------------------------------------------------


def test_the_receipt_needs_the_matching_id_and_number(session: Session, engine: Engine) -> None:
    _fill(session, GUEST, (_product(session), 2))
    placed = _place(engine)
    other = CartOwner(token="other-guest")
    _fill(session, other, (_product(session, name="Other Candle"), 1))
    second = _place(engine, other)
    checkout.pay(order_id=placed.order_id, source_id="tok", gateway=FakeGateway(PAID), engine=engine)

    receipt = checkout.order_receipt(
        session, order_id=placed.order_id, order_number=placed.order_number.lower()
    )

    assert receipt is not None
    assert (receipt.order_number, receipt.email, receipt.total_cents) == (
        placed.order_number,
        FORM.email,
        placed.total_cents,
    )
    assert [(line.name, line.quantity, line.total_cents) for line in receipt.lines] == [
        ("8oz Amber Soy Candle - Vanilla Bean", 2, 5600)
    ]
    assert receipt.ship_to == "Ana Silva, 12 Cedar St, Apt 4, Vancouver, BC V5K 0A1, Canada"
    assert receipt.is_placed and not receipt.not_charged and not receipt.awaiting_confirmation
    assert checkout.order_receipt(session, order_id=placed.order_id, order_number=second.order_number) is None
    assert checkout.order_receipt(session, order_id=second.order_id, order_number=placed.order_number) is None
    assert checkout.order_receipt(session, order_id=placed.order_id, order_number="") is None


def test_no_confirmation_mail_when_the_owner_switched_it_off(session: Session, engine: Engine) -> None:
    session.add(StoreSettings(notify_order_confirmation=False))
    _fill(session, GUEST, (_product(session), 1))
    placed = _place(engine)

    checkout.pay(order_id=placed.order_id, source_id="tok", gateway=FakeGateway(PAID), engine=engine)

    assert _order(engine, placed.order_id).payment_status == PaymentStatus.COMPLETED
    assert _mails(engine) == []


def test_a_customers_confirmation_links_to_the_order_and_their_cart_is_emptied(
    session: Session, engine: Engine
) -> None:
    user = User(email="ana@example.ca", password_hash="x", first_name="Ana")
    session.add(user)
    session.flush()
    owner = CartOwner(user_id=user.id)
    _fill(session, owner, (_product(session), 1))
    placed = _place(engine, owner)

    checkout.pay(
        order_id=placed.order_id, source_id="tok", gateway=FakeGateway(PAID), engine=engine
    )  # no owner

    assert _cart_count(engine, owner) == 0
    [mail] = _mails(engine)
    assert f"/account/orders/{placed.order_id}" in mail.body_text
    assert mail.body_text.startswith("Hello Ana,")


def _cart_of(cents: int) -> CartView:
    """A cart of one line worth ``cents``."""
    line = CartLineView(
        line_id=1,
        product_id=1,
        name="Candle",
        image_url="",
        image_width=None,
        selected_options={},
        options_label="",
        quantity=1,
        unit_price_cents=cents,
        line_total_cents=cents,
        stock_quantity=5,
    )
    return CartView(lines=[line])


def test_a_carts_estimate_is_for_the_shops_own_province_with_the_settings(session: Session) -> None:
    """The cart drawer's figures before an address is known: British Columbia's taxes from the
    store settings' table, on the goods and the shipping of the shop's own country's zone."""
    bc_at_6 = {"BC": [{"code": "GST", "rate_ppm": 50_000}, {"code": "PST", "rate_ppm": 10_000}]}
    zones = [
        *ships_to("United States", flat_cents=100, free_from_cents=None),
        *ships_to("Canada", flat_cents=900, free_from_cents=5000),
    ]
    zones[1]["name"] = "Home"
    session.add(StoreSettings(tax_table=bc_at_6, shipping_zones=zones))
    session.flush()

    estimate = checkout.estimate(session, _cart_of(4000))
    below, free = estimate.totals, checkout.estimate(session, _cart_of(5000)).totals

    assert estimate.free_shipping_in == 1000
    assert checkout.estimate(session, _cart_of(5000)).free_shipping_in == 0

    assert [(line.label, line.amount_cents) for line in below.tax_lines] == [("GST 5%", 245), ("PST 1%", 49)]
    assert (below.shipping_cents, below.total_cents) == (900, 4000 + 900 + 294)
    assert (free.shipping_cents, free.tax_cents) == (0, 300)
