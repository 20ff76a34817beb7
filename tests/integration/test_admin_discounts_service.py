"""The Discount Codes service: the list with its uses and revenue in one statement, create, edit
with the optimistic check, switch on and off. Runs on SQLite, and on PostgreSQL when
TEST_DATABASE_URL is set."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import DiscountAdminMessage as M
from shop_app.domain.discount_form import CATEGORIES, CODE, ENDS, KIND, MAX_USES, PRODUCTS, STARTS, VALUE
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Category, DiscountCode, DiscountRedemption, Order, Payment, Product, Refund
from shop_app.services.admin import discounts as service

_numbers = itertools.count(1)


def _code(engine: Engine, code: str = "SPRING-10", **fields: str) -> int:
    service.create_code({CODE: code, KIND: "percent", VALUE: "10", **fields}, engine=engine)
    with Session(engine) as session:
        return session.exec(select(DiscountCode.id).where(DiscountCode.code == code)).one()  # type: ignore[return-value]


def _fresh(session: Session) -> None:
    """End the session's read transaction: what the service wrote since is seen."""
    session.commit()
    session.expire_all()


def _order(session: Session, code_id: int, total: int, payment: PaymentStatus, *, refunds: int = 0) -> Order:
    """An order that used the code (its redemption), ``refunds`` cents given back."""
    order = Order(
        order_number=f"ORD-D{next(_numbers):05d}",
        email="buyer@example.com",
        status=OrderStatus.PENDING.value,
        payment_status=payment.value,
        subtotal_cents=total + 100,
        discount_cents=100,
        tax_cents=0,
        shipping_cents=0,
        total_cents=total,
    )
    session.add(order)
    session.flush()
    assert order.id is not None
    session.add(
        DiscountRedemption(code_id=code_id, order_id=order.id, email="buyer@example.com", amount_cents=100)
    )
    if refunds:
        paid = Payment(
            order_id=order.id, provider="square", idempotency_key=f"p-{order.id}", amount_cents=total
        )
        session.add(paid)
        session.flush()
        assert paid.id is not None
        refund = Refund(
            order_id=order.id,
            payment_id=paid.id,
            kind="amount",
            amount_cents=refunds,
            idempotency_key=f"r-{order.id}",
        )
        session.add(refund)
    session.execute(
        sa.update(DiscountCode).where(DiscountCode.id == code_id).values(uses=DiscountCode.uses + 1)
    )
    session.commit()
    return order


def test_the_list_counts_uses_and_revenue_in_one_statement(engine: Engine, session: Session) -> None:
    older = _code(engine, "OLDER-5", **{KIND: "fixed", VALUE: "5", MAX_USES: "10"})
    _code(engine, "NEWER-10")
    _order(session, older, 4000, PaymentStatus.COMPLETED)
    _order(session, older, 3000, PaymentStatus.COMPLETED, refunds=500)
    _order(session, older, 2000, PaymentStatus.PENDING)  # paying now: holds a use, no revenue yet
    _order(session, older, 1500, PaymentStatus.REFUNDED)  # money given back in full

    statements: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        rows = service.list_codes(session)
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    assert len([s for s in statements if s.lstrip().startswith("SELECT")]) == 1  # not one per code

    assert [row.code for row in rows] == ["NEWER-10", "OLDER-5"]  # newest first
    fresh, used = rows
    assert (fresh.orders, fresh.paid_orders, fresh.revenue_cents, fresh.gives) == (0, 0, 0, "10% off")
    assert (used.orders, used.paid_orders, used.revenue_cents) == (4, 2, 4000 + 3000 - 500)
    assert (used.gives, used.limits, used.status, used.status_colour) == (
        "$5.00 off",
        "4 / 10 uses",
        "Active",
        "green",
    )


def test_a_new_code_is_checked_against_the_database(engine: Engine, session: Session) -> None:
    candles = Category(name="Candles", slug="candles")
    jar = Product(name="Cedar Jar", sku="CJ-1", base_price_cents=2000)
    session.add_all([candles, jar])
    session.commit()
    _code(engine, "SPRING-10")

    with pytest.raises(service.DiscountFormInvalid) as refused:
        service.create_code(
            {CODE: " spring-10 ", KIND: "percent", VALUE: "200"},
            product_ids=[jar.id or 0, 999_999],
            category_ids=[999_998],
            engine=engine,
        )
    assert refused.value.errors == {
        CODE: M.CODE_TAKEN.format(code="SPRING-10"),
        VALUE: M.PERCENT_INVALID.value,
        PRODUCTS: M.PRODUCT_GONE.value,
        CATEGORIES: M.CATEGORY_GONE.value,
    }

    created = service.create_code(
        {CODE: "jars", KIND: "free_shipping", STARTS: "2026-12-01", ENDS: "2026-12-31"},
        product_ids=[jar.id or 0],
        category_ids=[candles.id or 0],
        is_active=False,
        engine=engine,
    )
    _fresh(session)
    row = session.exec(select(DiscountCode).where(DiscountCode.code == created)).one()
    assert (row.code, row.kind, row.value, row.is_active) == ("JARS", "free_shipping", 0, False)
    assert (row.product_ids, row.category_ids) == ([jar.id], [candles.id])
    starts = (
        row.starts_at.replace(tzinfo=UTC) if row.starts_at and row.starts_at.tzinfo is None else row.starts_at
    )
    assert starts == datetime(2026, 12, 1, 8, tzinfo=UTC)
    detail = service.get_code(session, row.id or 0)
    assert detail is not None
    assert (detail.texts[STARTS], detail.texts[ENDS]) == ("2026-12-01", "2026-12-31")
    assert [c.label for c in detail.products] == ["Cedar Jar (CJ-1)"] and detail.category_ids == [candles.id]


def test_an_edit_from_a_stale_dialog_writes_nothing(engine: Engine, session: Session) -> None:
    code_id = _code(engine, "SPRING-10")
    first = service.get_code(session, code_id)
    second = service.get_code(session, code_id)
    assert first is not None and second is not None

    service.update_code(
        code_id, {**first.texts, KIND: "percent", VALUE: "15"}, version_seen=first.version, engine=engine
    )
    with pytest.raises(service.DiscountChangedElsewhere, match="changed elsewhere"):
        service.update_code(
            code_id, {**second.texts, KIND: "percent", VALUE: "5"}, version_seen=second.version, engine=engine
        )
    # Switching it off from the list makes an open dialog stale too (its switch would undo it).
    _fresh(session)
    third = service.get_code(session, code_id)
    assert third is not None
    assert service.set_active(code_id, False, engine=engine) == "SPRING-10"
    with pytest.raises(service.DiscountChangedElsewhere):
        service.update_code(
            code_id, {**third.texts, KIND: "percent"}, version_seen=third.version, engine=engine
        )

    _fresh(session)
    row = session.get(DiscountCode, code_id)
    assert row is not None and (row.value, row.is_active) == (1500, False)
    with pytest.raises(service.DiscountProblem, match=M.NOT_FOUND.value):
        service.update_code(999_999, first.texts, version_seen=first.version, engine=engine)


def test_a_used_code_keeps_its_text_and_its_limit_its_uses(engine: Engine, session: Session) -> None:
    code_id = _code(engine, "SPRING-10")
    for _ in range(3):
        _order(session, code_id, 1000, PaymentStatus.COMPLETED)
    detail = service.get_code(session, code_id)
    assert detail is not None and detail.uses == 3

    with pytest.raises(service.DiscountFormInvalid) as refused:
        service.update_code(
            code_id,
            {**detail.texts, KIND: "percent", CODE: "SUMMER", MAX_USES: "2"},
            version_seen=detail.version,
            engine=engine,
        )
    assert refused.value.errors == {CODE: M.CODE_KEPT.value, MAX_USES: M.LIMIT_BELOW_USES.format(n=3)}

    service.update_code(
        code_id, {**detail.texts, KIND: "percent", MAX_USES: "3"}, version_seen=detail.version, engine=engine
    )
    _fresh(session)
    rows = service.list_codes(session, now=datetime.now(UTC) + timedelta(seconds=1))
    assert (rows[0].status, rows[0].limits) == ("Used up", "3 / 3 uses")


def test_the_product_picker_offers_active_products_by_name_or_sku(session: Session) -> None:
    session.add_all(
        [
            Product(name="Cedar Jar", sku="CJ-100", base_price_cents=1),
            Product(name="Cedar Tin", base_price_cents=1, is_active=False),
            Product(name="Lavender 100% Soy", sku="LV-1", base_price_cents=1),
            Product(name="Builder vessel", base_price_cents=1, is_listed=False),
        ]
    )
    session.commit()

    assert [c.label for c in service.search_products(session, "cedar")] == ["Cedar Jar (CJ-100)"]
    assert [c.label for c in service.search_products(session, "100%")] == ["Lavender 100% Soy (LV-1)"]
    assert [c.label for c in service.search_products(session, "cj-1")] == ["Cedar Jar (CJ-100)"]
    assert service.search_products(session, "_") == []


def test_the_category_choices_put_subcategories_under_their_main_one(session: Session) -> None:
    candles = Category(name="Candles", slug="candles", sort_order=1)
    body = Category(name="Body Care", slug="body-care", sort_order=2)
    session.add_all([candles, body])
    session.flush()
    session.add(Category(name="Fall", slug="fall", parent_id=candles.id))
    session.commit()

    assert [c.label for c in service.category_choices(session)] == ["Candles", "Candles › Fall", "Body Care"]
