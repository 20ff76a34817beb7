"""The refunds of an order in the database: what earlier refunds took back, recording a refund,
and returning its items to stock (rules: ``domain.refunds``; the use-cases that call Square and
move the order are in :mod:`shop_app.services.admin.order_changes`).

Every function works inside the caller's transaction, on an order whose row the caller has
locked; none commits.
"""

from __future__ import annotations

from typing import Final

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.refunds import RefundableLine, RefundPlan, RefundSituation
from shop_app.domain.tax import lines_from_json
from shop_app.models import Order, OrderItem, Payment, Product, Refund, RefundLine
from shop_app.models.base import saved_id, utcnow
from shop_app.models.square_outbox import record_stock
from shop_app.services.order_history import item_snapshot

KEY_MAX: Final = 45
"""Square's longest refund idempotency key."""
REST_KEY_PREFIX: Final = "refund"


def refund_key(payment: Payment, refunds_recorded: int = 0) -> str:
    """The key of the rest given back by a status change (a cancel, a Refund without the dialog).

    ``refund-<payment key>`` when no refund was recorded before (the key every full refund had
    before partial refunds existed), else ``refund<n>-<payment key>``: the body of the request
    (what remains) only changes when a refund is recorded, and then the key changes with it, so
    a retry after a lost answer always repeats the same key with the same body.
    """
    count = "" if refunds_recorded == 0 else str(refunds_recorded)
    return f"{REST_KEY_PREFIX}{count}-{payment.idempotency_key}"[:KEY_MAX]


def situation_of(session: Session, order: Order, *, paid_cents: int) -> tuple[RefundSituation, int]:
    """The order's lines and money for the refund rules, and how many refunds it has had."""
    order_id = saved_id(order)
    items = session.execute(
        select(OrderItem, col(Product.name))
        .outerjoin(Product, col(Product.id) == col(OrderItem.product_id))
        .where(col(OrderItem.order_id) == order_id)
        .order_by(col(OrderItem.id))
    ).all()
    taken_back: dict[int, int] = {
        item_id: int(quantity or 0)
        for item_id, quantity in session.execute(
            select(col(RefundLine.order_item_id), sa.func.sum(col(RefundLine.quantity)))
            .join(Refund, col(Refund.id) == col(RefundLine.refund_id))
            .where(col(Refund.order_id) == order_id)
            .group_by(col(RefundLine.order_item_id))
        )
    }
    count, refunded = session.execute(
        select(sa.func.count(), sa.func.coalesce(sa.func.sum(col(Refund.amount_cents)), 0)).where(
            col(Refund.order_id) == order_id
        )
    ).one()
    lines = tuple(
        RefundableLine(
            item_id=saved_id(item),
            name=item_snapshot(item).name or product_name or "",
            quantity=item.quantity,
            unit_price_cents=item.unit_price_cents,
            refunded_quantity=taken_back.get(saved_id(item), 0),
        )
        for item, product_name in items
    )
    situation = RefundSituation(
        lines=lines,
        tax_cents=order.tax_cents,
        shipping_cents=order.shipping_cents,
        paid_cents=paid_cents,
        refunded_cents=int(refunded),
        tax_bases=tuple((line.amount_cents, line.base_cents) for line in lines_from_json(order.tax_lines)),
        discount_cents=order.discount_cents,
    )
    return situation, int(count)


def find_refund(session: Session, idempotency_key: str) -> Refund | None:
    """The refund recorded under this key, if any."""
    return session.exec(select(Refund).where(col(Refund.idempotency_key) == idempotency_key)).first()


def record_refund(
    session: Session,
    *,
    order_id: int,
    payment: Payment,
    plan: RefundPlan,
    idempotency_key: str,
    square_refund_id: str | None,
    square_status: str,
    admin_user_id: int,
) -> Refund:
    """Write the refund and its lines (the caller has had Square's answer)."""
    refund = Refund(
        order_id=order_id,
        payment_id=saved_id(payment),
        kind=plan.mode.value,
        amount_cents=plan.amount_cents,
        currency=payment.currency,
        restocked=plan.restock,
        note=plan.note,
        square_refund_id=square_refund_id,
        square_status=square_status[:32],
        idempotency_key=idempotency_key,
        created_by=admin_user_id,
    )
    session.add(refund)
    session.flush()
    session.add_all(
        RefundLine(refund_id=saved_id(refund), order_item_id=item_id, quantity=quantity)
        for item_id, quantity in plan.lines
    )
    session.flush()
    return refund


def restock_items(session: Session, lines: tuple[tuple[int, int], ...]) -> None:
    """Give these (order item id, quantity) back to stock, summed per product, in product id
    order (a fixed lock order). The one way the back office returns items to stock."""
    if not lines:
        return
    wanted = dict(lines)
    products = session.execute(
        select(col(OrderItem.id), col(OrderItem.product_id)).where(col(OrderItem.id).in_(list(wanted)))
    ).all()
    returned: dict[int, int] = {}
    for item_id, product_id in products:
        returned[product_id] = returned.get(product_id, 0) + wanted[item_id]
    for product_id in sorted(returned):
        session.execute(
            sa.update(Product)
            .where(col(Product.id) == product_id)
            .values(stock_quantity=col(Product.stock_quantity) + returned[product_id], updated_at=utcnow())
            .execution_options(synchronize_session=False)
        )
    record_stock(session, returned)
