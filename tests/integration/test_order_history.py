"""Order history, order details and Reorder: own paid orders only, snapshots, tracking, today's prices.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, OrderAddress, OrderItem, Payment, Product, ProductImage, Refund, User
from shop_app.services import cart, order_history
from shop_app.services.cart import CartOwner
from shop_app.services.order_history import ReorderError
from shop_app.state.orders import order_card

T0 = datetime(2026, 11, 10, 18, 0, tzinfo=UTC)
_numbers = itertools.count(1)


class Shop:
    """Users, products and orders written straight through the models."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.alice = self._user("alice@example.com")
        self.bob = self._user("bob@example.com")
        self.vanilla = self.product("8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800)
        self.lotion = self.product("8oz Hand & Body Lotion - Coconut Lime", base_price_cents=1800)

    def _user(self, email: str) -> User:
        user = User(email=email, password_hash="x", first_name=email.partition("@")[0].title())
        self.session.add(user)
        self.session.flush()
        return user

    def product(self, name: str, **fields: Any) -> Product:
        product = Product(name=name, **{"base_price_cents": 2000, "stock_quantity": 10, **fields})
        self.session.add(product)
        self.session.flush()
        return product

    def order(
        self,
        user: User | None,
        items: list[tuple[Product, int, int]],  # product, quantity, unit price paid
        *,
        status: str = OrderStatus.DELIVERED,
        payment_status: str = PaymentStatus.COMPLETED,
        paid: bool = True,
        created_at: datetime = T0,
        snapshot: dict[str, Any] | None = None,
        address: bool = True,
        **fields: Any,
    ) -> Order:
        subtotal = sum(quantity * price for _, quantity, price in items)
        order = Order(
            order_number=f"ORD-{next(_numbers):06d}",
            user_id=user.id if user else None,
            email=user.email if user else "guest@example.com",
            status=status,
            payment_status=payment_status,
            subtotal_cents=subtotal,
            tax_cents=subtotal * 12 // 100,
            shipping_cents=1500,
            total_cents=subtotal + subtotal * 12 // 100 + 1500,
            created_at=created_at,
            paid_at=created_at if paid else None,
            **fields,
        )
        self.session.add(order)
        self.session.flush()
        for product, quantity, price in items:
            self.session.add(
                OrderItem(
                    order_id=order.id,
                    product_id=product.id,
                    quantity=quantity,
                    unit_price_cents=price,
                    total_price_cents=quantity * price,
                    product_snapshot=snapshot
                    if snapshot is not None
                    else {"name": product.name, "base_price_cents": price, "selected_options": {}},
                )
            )
        if address:
            self.session.add(
                OrderAddress(
                    order_id=order.id,
                    first_name="Alice",
                    last_name="Maker",
                    address_line1="123 Main St",
                    address_line2="Unit 4",
                    city="Victoria",
                    state="BC",
                    zip_code="V8W 1A1",
                    country="Canada",
                    phone="250-555-0100",
                )
            )
        self.session.flush()
        return order


@pytest.fixture
def shop(session: Session) -> Shop:
    return Shop(session)


def _owner(user: User) -> CartOwner:
    return CartOwner(user_id=user.id)


@contextmanager
def count_queries(session: Session) -> Iterator[list[str]]:
    statements: list[str] = []
    engine = session.get_bind()

    def before(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    sa.event.listen(engine, "before_cursor_execute", before)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", before)


# --- isolation ---------------------------------------------------------------------------------


def test_a_user_never_sees_or_reorders_another_users_order(session: Session, shop: Shop) -> None:
    alices = shop.order(shop.alice, [(shop.vanilla, 1, 2800)])

    assert [o.order_number for o in order_history.list_orders(session, user_id=shop.alice.id)] == [
        alices.order_number
    ]
    assert order_history.list_orders(session, user_id=shop.bob.id) == []
    assert order_history.get_order(session, user_id=shop.bob.id, order_id=alices.id) is None
    with pytest.raises(ReorderError, match=r"^Order not found$"):
        order_history.reorder(session, user_id=shop.bob.id, order_id=alices.id, cart_owner=_owner(shop.bob))
    assert cart.view_cart(session, _owner(shop.bob)).lines == []


def test_a_foreign_order_and_a_missing_one_look_the_same(session: Session, shop: Shop) -> None:
    alices = shop.order(shop.alice, [(shop.vanilla, 1, 2800)])
    guest = shop.order(None, [(shop.vanilla, 1, 2800)])

    assert order_history.get_order(session, user_id=shop.bob.id, order_id=alices.id) is None
    assert order_history.get_order(session, user_id=shop.bob.id, order_id=alices.id + 1000) is None
    assert order_history.get_order(session, user_id=shop.alice.id, order_id=guest.id) is None


def test_reorder_cannot_fill_another_users_cart(session: Session, shop: Shop) -> None:
    alices = shop.order(shop.alice, [(shop.vanilla, 1, 2800)])

    with pytest.raises(ValueError, match="own cart"):
        order_history.reorder(session, user_id=shop.alice.id, order_id=alices.id, cart_owner=_owner(shop.bob))


# --- which orders, in which order ---------------------------------------------------------------


def test_only_paid_orders_are_listed_newest_first(session: Session, shop: Shop) -> None:
    made = {
        status: shop.order(
            shop.alice, [(shop.vanilla, 1, 2800)], status=status, created_at=T0 + timedelta(hours=hours)
        )
        for hours, status in enumerate(
            [
                OrderStatus.PENDING,
                OrderStatus.PROCESSING,
                OrderStatus.SHIPPED,
                OrderStatus.DELIVERED,
                OrderStatus.CANCELLED,
                OrderStatus.REFUNDED,
            ]
        )
    }
    unpaid = shop.order(
        shop.alice,
        [(shop.vanilla, 1, 2800)],
        status=OrderStatus.AWAITING_PAYMENT,
        payment_status=PaymentStatus.PENDING,
        paid=False,
        created_at=T0 + timedelta(days=1),
    )
    declined = shop.order(
        shop.alice,
        [(shop.vanilla, 1, 2800)],
        status=OrderStatus.CANCELLED,
        payment_status=PaymentStatus.FAILED,
        paid=False,
        created_at=T0 + timedelta(days=2),
    )

    listed = order_history.list_orders(session, user_id=shop.alice.id)

    assert [o.status for o in listed] == [
        "refunded",
        "cancelled",
        "delivered",
        "shipped",
        "processing",
        "pending",
    ]
    assert listed[1].id == made[OrderStatus.CANCELLED].id
    assert order_history.get_order(session, user_id=shop.alice.id, order_id=unpaid.id) is None
    assert order_history.get_order(session, user_id=shop.alice.id, order_id=declined.id) is None


def test_a_not_charged_order_is_in_the_history_marked_not_charged(session: Session, shop: Shop) -> None:
    """The simulated PayPal of local mode: the shopper placed the order, no money was taken."""
    paid = shop.order(shop.alice, [(shop.vanilla, 1, 2800)], status=OrderStatus.PENDING)
    paypal = shop.order(
        shop.alice,
        [(shop.vanilla, 1, 2800)],
        status=OrderStatus.PENDING,
        payment_status=PaymentStatus.NOT_CHARGED,
        paid=False,
        created_at=T0 + timedelta(hours=1),
    )
    cancelled = shop.order(
        shop.alice,
        [(shop.lotion, 1, 1800)],
        status=OrderStatus.CANCELLED,
        payment_status=PaymentStatus.NOT_CHARGED,
        paid=False,
        created_at=T0 + timedelta(hours=2),
    )

    listed = order_history.list_orders(session, user_id=shop.alice.id)

    assert [(o.id, o.not_charged) for o in listed] == [
        (cancelled.id, True),
        (paypal.id, True),
        (paid.id, False),
    ]
    card = order_card(order_history.get_order(session, user_id=shop.alice.id, order_id=paypal.id))
    assert (card.status_label, card.not_charged) == ("Pending", True)
    assert not order_card(listed[2]).not_charged


def test_the_customer_sees_what_was_refunded_of_an_order(session: Session, shop: Shop) -> None:
    """Partial refunds (ours, issue 17): the order card adds a Refunded line, only when there is one."""
    refunded = shop.order(shop.alice, [(shop.vanilla, 2, 2800)], status=OrderStatus.SHIPPED)
    untouched = shop.order(shop.alice, [(shop.lotion, 1, 1800)], created_at=T0 - timedelta(days=1))
    payment = Payment(
        order_id=refunded.id, provider="square", idempotency_key="pay-r", amount_cents=refunded.total_cents
    )
    session.add(payment)
    session.flush()
    for key, amount in (("refund-a", 2800), ("refund-b", 336)):
        session.add(
            Refund(
                order_id=refunded.id,
                payment_id=payment.id,
                kind="items",
                amount_cents=amount,
                idempotency_key=key,
            )
        )
    session.commit()

    first, second = order_history.list_orders(session, user_id=shop.alice.id)

    assert (first.id, first.refunded_cents, order_card(first).refunded) == (refunded.id, 3136, "$31.36")
    assert (second.id, second.refunded_cents, order_card(second).refunded) == (untouched.id, 0, "")


def test_status_badge_and_reorder_flag(session: Session, shop: Shop) -> None:
    shipped = shop.order(shop.alice, [(shop.vanilla, 1, 2800)], status=OrderStatus.SHIPPED)
    delivered = shop.order(shop.alice, [(shop.vanilla, 1, 2800)], status=OrderStatus.DELIVERED)
    refunded = shop.order(shop.alice, [(shop.vanilla, 1, 2800)], status=OrderStatus.REFUNDED)

    def get(order: Order) -> order_history.OrderSummary:
        summary = order_history.get_order(session, user_id=shop.alice.id, order_id=order.id)
        assert summary is not None
        return summary

    assert (get(shipped).status_label, get(shipped).status_colour, get(shipped).can_reorder) == (
        "Shipped",
        "purple",
        False,
    )
    assert (get(delivered).status_colour, get(delivered).can_reorder) == ("green", True)
    assert (get(refunded).status_label, get(refunded).status_colour) == ("Refunded", "grey")


# --- what an order card shows -------------------------------------------------------------------


def test_order_card_fields(session: Session, shop: Shop) -> None:
    placed = datetime(2026, 11, 21, 19, 30, tzinfo=UTC)  # 11:30 in Vancouver
    order = shop.order(
        shop.alice,
        [(shop.vanilla, 2, 2500), (shop.lotion, 1, 1800)],
        status=OrderStatus.SHIPPED,
        created_at=placed,
        tracking_number="1Z 999 AA1 0123 4567 84",
        notes="Gift, please",
    )

    summary = order_history.get_order(session, user_id=shop.alice.id, order_id=order.id)

    assert summary is not None
    assert summary.placed_on == "November 21, 2026"
    assert (summary.order_number, summary.email) == (order.order_number, "alice@example.com")
    assert (summary.subtotal_cents, summary.tax_cents, summary.shipping_cents, summary.total_cents) == (
        6800,
        816,
        1500,
        9116,
    )
    assert [
        (line.name, line.unit_price_cents, line.quantity, line.total_cents) for line in summary.lines
    ] == [
        ("8oz Amber Soy Candle - Vanilla Bean", 2500, 2, 5000),
        ("8oz Hand & Body Lotion - Coconut Lime", 1800, 1, 1800),
    ]
    assert summary.item_count == 3
    assert (summary.ship_name, summary.ship_line1, summary.ship_line2) == (
        "Alice Maker",
        "123 Main St",
        "Unit 4",
    )
    assert (summary.ship_city, summary.ship_state, summary.ship_zip, summary.ship_country) == (
        "Victoria",
        "BC",
        "V8W 1A1",
        "Canada",
    )
    assert summary.ship_phone == "250-555-0100"
    assert summary.tracking_number == "1Z 999 AA1 0123 4567 84"
    assert summary.tracking_url == "https://www.ups.com/track?tracknum=1Z999AA10123456784"
    assert summary.notes == "Gift, please"


def test_placed_on_is_the_shops_calendar_date(session: Session, shop: Shop) -> None:
    # 03:00 UTC on Nov 22 is still the evening of Nov 21 in British Columbia.
    order = shop.order(
        shop.alice, [(shop.vanilla, 1, 2800)], created_at=datetime(2026, 11, 22, 3, tzinfo=UTC)
    )

    summary = order_history.get_order(session, user_id=shop.alice.id, order_id=order.id)

    assert summary is not None
    assert summary.placed_on == "November 21, 2026"


def test_tracking_uses_the_chosen_carrier_and_is_empty_without_a_number(session: Session, shop: Shop) -> None:
    purolator = shop.order(
        shop.alice, [(shop.vanilla, 1, 2800)], tracking_number="329012345678", carrier="Purolator"
    )
    none = shop.order(shop.alice, [(shop.vanilla, 1, 2800)])

    by_id = {o.id: o for o in order_history.list_orders(session, user_id=shop.alice.id)}

    assert (
        by_id[purolator.id].tracking_url == "https://www.purolator.com/en/shipping/tracker?pin=329012345678"
    )
    assert by_id[purolator.id].carrier == "Purolator"
    assert (by_id[none.id].tracking_number, by_id[none.id].tracking_url) == ("", "")


def test_the_snapshot_name_wins_over_the_current_product_name(session: Session, shop: Shop) -> None:
    order = shop.order(
        shop.alice,
        [(shop.vanilla, 1, 2800)],
        snapshot={
            "name": "Vanilla Candle (2026 edition)",
            "image_url": "/media/old.webp",
            # Written size first; the label lists values by option name on both databases.
            "selected_options": {"size": "8oz", "scent": "Vanilla"},
        },
    )
    shop.vanilla.name = "Renamed Candle"
    session.add(shop.vanilla)
    session.flush()

    (line,) = order_history.get_order(session, user_id=shop.alice.id, order_id=order.id).lines

    assert (line.name, line.image_url, line.options_label) == (
        "Vanilla Candle (2026 edition)",
        "/media/old.webp",
        "Vanilla, 8oz",
    )


def test_without_a_snapshot_name_the_product_name_and_image_are_used(session: Session, shop: Shop) -> None:
    session.add(ProductImage(product_id=shop.lotion.id, image_url="/media/lotion.webp", is_primary=True))
    order = shop.order(shop.alice, [(shop.lotion, 1, 1800)], snapshot={}, address=False)

    summary = order_history.get_order(session, user_id=shop.alice.id, order_id=order.id)

    (line,) = summary.lines
    assert (line.name, line.image_url, line.options_label) == (
        "8oz Hand & Body Lotion - Coconut Lime",
        "/media/lotion.webp",
        "",
    )
    assert (summary.ship_name, summary.ship_line1) == ("", "")


def test_list_orders_does_not_query_once_per_order(session: Session, shop: Shop) -> None:
    for i in range(8):
        shop.order(
            shop.alice,
            [(shop.vanilla, 1, 2800), (shop.lotion, 2, 1800)],
            created_at=T0 + timedelta(minutes=i),
        )
    session.commit()

    with count_queries(session) as statements:
        orders = order_history.list_orders(session, user_id=shop.alice.id)

    assert len(orders) == 8
    assert all(len(order.lines) == 2 and order.ship_city == "Victoria" for order in orders)
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    # The orders with their shipping address, the items of all of them, their refunds.
    assert len(selects) == 3, selects
    assert len(statements) <= 4, statements  # plus, on SQLite, the explicit BEGIN


# --- reorder ------------------------------------------------------------------------------------


def test_reorder_puts_items_back_at_todays_price(session: Session, shop: Shop) -> None:
    order = shop.order(shop.alice, [(shop.vanilla, 2, 2000), (shop.lotion, 1, 1500)])
    shop.vanilla.base_price_cents = 3200  # prices went up since
    shop.vanilla.sale_price_cents = 3000
    session.add(shop.vanilla)
    session.flush()

    result = order_history.reorder(
        session, user_id=shop.alice.id, order_id=order.id, cart_owner=_owner(shop.alice)
    )

    assert (result.message, result.kind, result.added_count) == ("Added 3 items to your cart.", "success", 3)
    view = cart.view_cart(session, _owner(shop.alice))
    assert [(line.product_id, line.quantity, line.unit_price_cents) for line in view.lines] == [
        (shop.vanilla.id, 2, 3000),
        (shop.lotion.id, 1, 1800),
    ]
    assert result.cart.count == 3


def test_reorder_skips_archived_and_out_of_stock_items_and_names_them(session: Session, shop: Shop) -> None:
    archived = shop.product("Retired Candle - Pine", is_active=False)
    sold_out = shop.product("Wax Melt - Cedar", stock_quantity=0)
    order = shop.order(
        shop.alice,
        [(shop.vanilla, 3, 2800), (archived, 1, 2000), (sold_out, 2, 900)],
        snapshot={"name": None},  # falls back to the product names
    )

    result = order_history.reorder(
        session, user_id=shop.alice.id, order_id=order.id, cart_owner=_owner(shop.alice)
    )

    assert result.message == (
        "Added 3 items to your cart. Not available any more: Retired Candle - Pine, Wax Melt - Cedar."
    )
    assert result.kind == "warning"
    assert result.unavailable == ("Retired Candle - Pine", "Wax Melt - Cedar")
    assert [(line.name, line.quantity) for line in cart.view_cart(session, _owner(shop.alice)).lines] == [
        ("8oz Amber Soy Candle - Vanilla Bean", 3)
    ]


def test_reorder_adds_what_stock_allows(session: Session, shop: Shop) -> None:
    order = shop.order(shop.alice, [(shop.vanilla, 5, 2800), (shop.lotion, 1, 1800)])
    shop.vanilla.stock_quantity = 2
    session.add(shop.vanilla)
    session.flush()

    result = order_history.reorder(
        session, user_id=shop.alice.id, order_id=order.id, cart_owner=_owner(shop.alice)
    )

    assert result.message == (
        "Added 3 items to your cart. Fewer in stock than you ordered: 8oz Amber Soy Candle - Vanilla Bean."
    )
    assert result.limited == ("8oz Amber Soy Candle - Vanilla Bean",)
    lines = cart.view_cart(session, _owner(shop.alice)).lines
    assert [(line.product_id, line.quantity) for line in lines] == [(shop.vanilla.id, 2), (shop.lotion.id, 1)]


def test_reorder_with_nothing_available(session: Session, shop: Shop) -> None:
    archived = shop.product("Retired Candle - Pine", is_active=False)
    order = shop.order(shop.alice, [(archived, 1, 2000)])

    result = order_history.reorder(
        session, user_id=shop.alice.id, order_id=order.id, cart_owner=_owner(shop.alice)
    )

    assert (result.message, result.kind, result.added_count) == (
        "Nothing could be added to your cart. Not available any more: Retired Candle - Pine.",
        "error",
        0,
    )


def test_reorder_of_one_item_and_of_an_option_no_longer_offered(session: Session, shop: Shop) -> None:
    melt = shop.product("Wax Melt - Sampler", variants={"scents": ["Rose", "Cedar"]})
    order = shop.order(
        shop.alice,
        [(melt, 1, 900)],
        snapshot={"name": "Wax Melt - Sampler", "selected_options": {"scent": "Rose"}},
    )

    first = order_history.reorder(
        session, user_id=shop.alice.id, order_id=order.id, cart_owner=_owner(shop.alice)
    )
    assert first.message == "Added 1 item to your cart."
    assert [line.options_label for line in first.cart.lines] == ["Rose"]

    melt.variants = {"scents": ["Cedar"]}  # Rose was withdrawn
    session.add(melt)
    session.flush()
    second = order_history.reorder(
        session, user_id=shop.alice.id, order_id=order.id, cart_owner=_owner(shop.alice)
    )
    assert second.unavailable == ("Wax Melt - Sampler",)


@pytest.mark.parametrize(
    "status",
    [
        OrderStatus.PENDING,
        OrderStatus.PROCESSING,
        OrderStatus.SHIPPED,
        OrderStatus.CANCELLED,
        OrderStatus.REFUNDED,
    ],
)
def test_reorder_is_refused_unless_delivered(session: Session, shop: Shop, status: OrderStatus) -> None:
    order = shop.order(shop.alice, [(shop.vanilla, 1, 2800)], status=status)

    with pytest.raises(ReorderError, match=r"^Only delivered orders can be reordered$"):
        order_history.reorder(
            session, user_id=shop.alice.id, order_id=order.id, cart_owner=_owner(shop.alice)
        )

    assert cart.view_cart(session, _owner(shop.alice)).lines == []


def test_reorder_of_an_unpaid_order_is_refused_as_not_found(session: Session, shop: Shop) -> None:
    order = shop.order(
        shop.alice,
        [(shop.vanilla, 1, 2800)],
        status=OrderStatus.AWAITING_PAYMENT,
        payment_status=PaymentStatus.PENDING,
        paid=False,
    )

    with pytest.raises(ReorderError, match=r"^Order not found$"):
        order_history.reorder(
            session, user_id=shop.alice.id, order_id=order.id, cart_owner=_owner(shop.alice)
        )
