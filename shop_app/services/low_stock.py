"""Low-stock alerts: the shop hears once when an order leaves a product at 5 units or fewer.

``products.low_stock_alerted_at`` records that a crossing was dealt with; it makes "one mail per
product per crossing" hold however many orders, retries and workers meet the product down there:

- **Re-armed whenever the stock is seen above the threshold** (``domain.stock``: 5). Placing an
  order clears it in the very statement that takes the stock (:data:`REARM_ON_TAKE`, evaluated on
  the stock *before* the order), and every ORM save of a product above 5 clears it (the listener
  in ``models.catalog``: the edit dialog and form, CSV import). Stock given back by a declined,
  cancelled or refunded order needs no hook: the next order to take from it sees it above 5.
  So no restocking path can leave a product that will never alert again.
- **Claimed after the order is paid** (:func:`alert_after_order`, called by ``ordering.pay`` in its
  own transaction once the payment's has committed): one conditional ``UPDATE … WHERE
  stock_quantity <= 5 AND low_stock_alerted_at IS NULL RETURNING`` per order, so of two orders
  paid at once only one claims the product, and only the claimer mails. An order that never gets
  paid alerts nobody (its stock comes back).
- **Mailed only when the store settings' "low stock" switch is on**, to the shop's address (store
  settings' e-mail, else ``MAIL_FROM``) through ``services.mail``. A crossing while the switch is
  off is still recorded, so switching it on later does not mail about old crossings.

A product that is at 5 or fewer when first ordered (never above since it was created) alerts on
that first paid order: the shop has not been told yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app import routes
from shop_app.domain.stock import LOW_STOCK_THRESHOLD, stock_text
from shop_app.models import Order, OrderItem, Product
from shop_app.models.base import table_of, utcnow
from shop_app.services import mail
from shop_app.services.contact import shop_inbox_address
from shop_app.services.store_settings import get_store_settings
from shop_app.settings import get_settings

ALERT_KIND: Final = "low_stock_alert"

_PRODUCTS = table_of(Product)
REARM_ON_TAKE: Final = sa.case(
    (_PRODUCTS.c.stock_quantity > LOW_STOCK_THRESHOLD, sa.null()),
    else_=_PRODUCTS.c.low_stock_alerted_at,
)
"""The alert mark after an ``UPDATE`` that takes stock: cleared when the stock was above the
threshold before it (SQL evaluates every ``SET`` expression on the row as it was)."""


@dataclass(frozen=True, slots=True)
class LowStockAlert:
    """A product whose crossing this call claimed (and mailed, when the switch is on)."""

    product_id: int
    name: str
    stock_quantity: int
    mailed: bool


def alert_after_order(session: Session, order_id: int, *, now: datetime | None = None) -> list[LowStockAlert]:
    """Claim the low-stock crossings of a paid order's products and mail the shop about each.

    Runs in the caller's transaction (never the order's or the payment's: those have committed).
    Returns the products claimed here, lowest id first; empty when none of the order's products
    is at or below the threshold, or every such product has already been alerted.
    """
    product_ids = select(OrderItem.product_id).where(
        OrderItem.order_id == order_id, col(OrderItem.product_id).is_not(None)
    )
    claimed = session.execute(
        sa.update(Product)
        .where(
            col(Product.id).in_(product_ids),
            col(Product.stock_quantity) <= LOW_STOCK_THRESHOLD,
            col(Product.low_stock_alerted_at).is_(None),
        )
        .values(low_stock_alerted_at=now or utcnow())
        .returning(col(Product.id), col(Product.name), col(Product.stock_quantity))
        .execution_options(synchronize_session=False)
    ).all()
    if not claimed:
        return []
    settings = get_store_settings(session)
    to = shop_inbox_address(settings) if settings.notify_low_stock else ""
    number = session.execute(select(Order.order_number).where(Order.id == order_id)).scalar_one_or_none()
    alerts = [
        LowStockAlert(product_id, name, stock, mailed=bool(to)) for product_id, name, stock in sorted(claimed)
    ]
    for alert in alerts:
        if alert.mailed:
            _mail(session, alert, to=to, brand=settings.company_name, order_number=number or "")
    return alerts


def _mail(session: Session, alert: LowStockAlert, *, to: str, brand: str, order_number: str) -> None:
    name, stock = alert.name, alert.stock_quantity
    units = "1 unit" if stock == 1 else f"{stock} units"
    after = f" after order {order_number}" if order_number else ""
    mail.send_shop_mail(
        session,
        to=to,
        subject=f"Low stock: {name} ({stock_text(stock)})",
        kind=ALERT_KIND,
        brand=brand,
        greeting="Hello,",
        paragraphs=[
            f"{name} is down to {units}{after}.",
            f"This alert comes once each time a product falls to {LOW_STOCK_THRESHOLD} units or fewer; "
            "once it is restocked above that, the next fall alerts again.",
            "Low-stock alerts can be switched off in the back office's store settings.",
        ],
        action_label="Restock in the back office",
        action_url=f"{get_settings().site_url}{routes.admin_product_edit_url(alert.product_id)}",
    )
