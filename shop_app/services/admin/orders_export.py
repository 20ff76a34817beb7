"""The back office's orders as a CSV file for the owner's accountant (issue 19, acceptance 5).

The orders are exactly those the Orders list shows for the same search and status filter
(``services.admin.orders.listed``, the list's own filter), every page of them, newest first as the
list orders them; the file's format and columns are ``domain.order_export``. An order's items come
in the order they were bought, named and described by the snapshot taken at purchase (a product
renamed since shows as it was sold); its taxes are the tax lines it stored when it was placed.

The file is built in memory: at most :data:`MAX_ORDERS` orders (a few thousand is the most the
shop expects in a year; 10,000 orders of a few lines each make a file of a few megabytes). More than
that is refused with :class:`TooManyOrders` (narrow the search or the status) rather than cut
short: an accountant must never get a file that silently lacks orders. Every function trusts that
the caller has already checked the admin role.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Final

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain.order_export import ExportLine, ExportOrder, write_csv
from shop_app.domain.orders import PaymentStatus
from shop_app.domain.pricing import line_label
from shop_app.domain.tax import lines_from_json
from shop_app.models import Order, OrderAddress, OrderItem, Product, Refund
from shop_app.services.admin.orders import ALL_STATUSES, PARTIALLY_REFUNDED, listed
from shop_app.services.order_history import item_snapshot

MAX_ORDERS: Final = 10_000
TOO_MANY: Final = (
    "{count:,} orders match: at most {limit:,} can be exported at a time. "
    "Narrow the search or choose a status, then export again."
)


class TooManyOrders(ValueError):
    """More orders match than one file may hold (:data:`MAX_ORDERS`)."""


def export_filename(today: date) -> str:
    """The download's name, dated so successive exports do not overwrite each other."""
    return f"orders-{today.isoformat()}.csv"


def export_orders_csv(
    session: Session, *, search: str = "", status: str = ALL_STATUSES, limit: int = MAX_ORDERS
) -> str:
    """The orders the list shows for ``search`` and ``status``, every page, as the CSV file's text.

    Raises:
        TooManyOrders: If more than ``limit`` orders match (nothing is built).
    """
    return write_csv(export_orders(session, search=search, status=status, limit=limit))


def export_orders(
    session: Session, *, search: str = "", status: str = ALL_STATUSES, limit: int = MAX_ORDERS
) -> list[ExportOrder]:
    """The orders of the file, newest first, each with its items (see :func:`export_orders_csv`)."""
    ids = listed(select(col(Order.id)), search=search, status=status)
    count = session.execute(select(sa.func.count()).select_from(ids.subquery())).scalar_one()
    if count > limit:
        raise TooManyOrders(TOO_MANY.format(count=count, limit=limit))
    chosen = col(Order.id).in_(ids.scalar_subquery())
    refunded: dict[int, int] = {
        order_id: int(amount)
        for order_id, amount in session.execute(
            select(col(Refund.order_id), sa.func.sum(col(Refund.amount_cents)))
            .where(col(Refund.order_id).in_(ids.scalar_subquery()))
            .group_by(col(Refund.order_id))
        )
    }
    lines: dict[int, list[ExportLine]] = defaultdict(list)
    for item, product_name in session.execute(
        select(OrderItem, col(Product.name))
        .outerjoin(Product, col(Product.id) == col(OrderItem.product_id))
        .join(Order, col(Order.id) == col(OrderItem.order_id))
        .where(chosen)
        .order_by(col(OrderItem.order_id), col(OrderItem.id))
    ):
        snapshot = item_snapshot(item)
        lines[item.order_id].append(
            ExportLine(
                product=snapshot.name or product_name or "",
                options=line_label(snapshot.options, snapshot.custom_note),
                quantity=item.quantity,
                unit_price_cents=item.unit_price_cents,
                total_cents=item.total_price_cents,
            )
        )
    orders = session.execute(
        listed(select(Order, OrderAddress), search=search, status=status).order_by(
            col(Order.created_at).desc(), col(Order.id).desc()
        )
    )
    return [
        _order(order, address, refunded.get(order.id or 0, 0), lines[order.id or 0])
        for order, address in orders
    ]


def _order(
    order: Order, address: OrderAddress | None, refunded_cents: int, lines: list[ExportLine]
) -> ExportOrder:
    partly = order.payment_status == PaymentStatus.COMPLETED and refunded_cents > 0
    return ExportOrder(
        order_number=order.order_number,
        placed_at=order.created_at,
        status=order.status,
        payment_status=PARTIALLY_REFUNDED if partly else order.payment_status,
        customer_name=f"{address.first_name} {address.last_name}".strip() if address else "",
        email=order.email,
        province=address.state if address else "",
        country=address.country if address else "",
        subtotal_cents=order.subtotal_cents,
        discount_cents=order.discount_cents,
        discount_code=order.discount_code or "",
        shipping_cents=order.shipping_cents,
        tax_cents=order.tax_cents,
        tax_lines=lines_from_json(order.tax_lines),
        total_cents=order.total_cents,
        refunded_cents=refunded_cents,
        currency=order.currency,
        lines=tuple(lines),
    )
