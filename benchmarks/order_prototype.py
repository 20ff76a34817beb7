"""Not the shop's code: ``place_order`` as the proposed fixes would make it (``--prototype``).

What the analysis in docs/benchmarks.md proposes, written out so its effect can be measured
next to the shop's ``place_order`` and the hand-written SQL (same semantics: form validated,
one ``write_transaction``, cart re-priced from the database, conditional stock decrements in
product id order with the seed's message when short, order + items with snapshot + address +
payment with a uuid4 idempotency key):

1. one ``SELECT`` for the cart's lines, their products' price columns, the primary image and the
   store settings (instead of ``find_cart``, the cart view of whole ``Product`` rows,
   ``get_store_settings`` and the second ``Product`` load in ``_insert_items``);
2. the order number by ``INSERT … ON CONFLICT (order_number) DO NOTHING RETURNING id``, drawn
   again when nothing comes back (instead of ``SELECT`` + ``SAVEPOINT`` + ``INSERT`` + ``RELEASE``);
3. items, address and payment as Core ``insert()`` (items in one executemany), no ORM objects
   and no unit-of-work flushes;
4. every statement built once at import (bind parameters) and run on the session's Core
   connection (``session.connection().execute``), not through ``session.execute``.
"""

from __future__ import annotations

import uuid
from collections import defaultdict

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import select

from shop_app.db import write_transaction
from shop_app.domain import pricing
from shop_app.domain.messages import CartMessage
from shop_app.domain.order_numbers import new_order_number
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus
from shop_app.domain.totals import compute_totals
from shop_app.domain.validation import insufficient_stock_message
from shop_app.models import Cart, CartLine, Order, OrderAddress, OrderItem, Payment, Product, StoreSettings
from shop_app.models.base import utcnow
from shop_app.services.catalog.filters import primary_image_url
from shop_app.services.checkout import CheckoutError, validate
from shop_app.services.ordering.place import ORDER_NUMBER_ATTEMPTS

from .order_db import PreparedCart
from .order_impl import FORM, Implementation, OrderRefused

_DEFAULTS = StoreSettings()

CART = (
    select(
        CartLine.product_id,
        CartLine.quantity,
        CartLine.selected_options,
        Product.name,
        Product.base_price_cents,
        Product.sale_price_cents,
        Product.pricing,
        primary_image_url(Product.id).label("image_url"),
        StoreSettings.tax_rate_bps,
        StoreSettings.shipping_flat_cents,
        StoreSettings.free_shipping_threshold_cents,
    )
    .join(Cart, Cart.id == CartLine.cart_id)
    .join(Product, Product.id == CartLine.product_id)
    .outerjoin(StoreSettings, StoreSettings.id == 1)
    .where(Cart.token_hash == sa.bindparam("token_hash"), Product.is_active)
    .order_by(CartLine.created_at, CartLine.id)
)
TAKE_STOCK = (
    sa.update(Product)
    .where(
        Product.id == sa.bindparam("product_id"),
        Product.is_active,
        Product.stock_quantity >= sa.bindparam("quantity"),
    )
    .values(stock_quantity=Product.stock_quantity - sa.bindparam("quantity"))
)
SHORT = select(Product.name, Product.stock_quantity, Product.is_active).where(
    Product.id == sa.bindparam("product_id")
)
INSERT_ORDER = {
    dialect.__name__.rsplit(".", 1)[-1]: dialect.insert(Order)
    .on_conflict_do_nothing(index_elements=["order_number"])
    .returning(Order.id)
    for dialect in (postgresql, sqlite)
}
INSERT_ITEMS = sa.insert(OrderItem)
INSERT_ADDRESS = sa.insert(OrderAddress)
INSERT_PAYMENT = sa.insert(Payment)


def place_with_fixes(engine: Engine, cart: PreparedCart) -> int:
    """Place the cart's order the proposed way; a short product raises :class:`OrderRefused`."""
    problem = validate(FORM)
    if problem is not None:
        raise CheckoutError(problem)
    form = FORM.cleaned()
    with write_transaction(engine) as session:
        connection = session.connection()
        rows = connection.execute(CART, {"token_hash": cart.token_hash}).all()
        if not rows:
            raise CheckoutError(CartMessage.EMPTY_CHECKOUT.value)
        units = [
            pricing.unit_price_cents(
                base_cents=row.base_price_cents,
                sale_cents=row.sale_price_cents,
                pricing=row.pricing or {},
                selected_options=row.selected_options or {},
            )
            for row in rows
        ]
        settings = rows[0]
        totals = compute_totals(
            sum(pricing.line_total_cents(unit, row.quantity) for unit, row in zip(units, rows, strict=True)),
            tax_rate_bps=_setting(settings.tax_rate_bps, "tax_rate_bps"),
            shipping_flat_cents=_setting(settings.shipping_flat_cents, "shipping_flat_cents"),
            free_shipping_threshold_cents=_setting(
                settings.free_shipping_threshold_cents, "free_shipping_threshold_cents"
            ),
        )
        wanted: dict[int, int] = defaultdict(int)
        for row in rows:
            wanted[row.product_id] += row.quantity
        for product_id in sorted(wanted):
            params = {"product_id": product_id, "quantity": wanted[product_id]}
            if connection.execute(TAKE_STOCK, params).rowcount != 1:
                short = connection.execute(SHORT, params).first()
                available = short.stock_quantity if short and short.is_active else 0
                name = short.name if short else str(product_id)
                raise OrderRefused(insufficient_stock_message(name, available, wanted[product_id]))
        now = utcnow()
        order_id = None
        for _attempt in range(ORDER_NUMBER_ATTEMPTS):
            order_id = connection.execute(
                INSERT_ORDER[engine.dialect.name],
                {
                    "order_number": new_order_number(now),
                    "user_id": None,
                    "email": form.email,
                    "phone": form.phone,
                    "status": OrderStatus.AWAITING_PAYMENT.value,
                    "payment_status": PaymentStatus.PENDING.value,
                    "currency": "CAD",
                    "subtotal_cents": totals.subtotal_cents,
                    "tax_cents": totals.tax_cents,
                    "shipping_cents": totals.shipping_cents,
                    "total_cents": totals.total_cents,
                    "notes": form.special_instructions,
                    "created_at": now,
                    "updated_at": now,
                },
            ).scalar_one_or_none()
            if order_id is not None:
                break
        else:
            raise CheckoutError("no free order number")
        connection.execute(
            INSERT_ITEMS,
            [
                {
                    "order_id": order_id,
                    "product_id": row.product_id,
                    "quantity": row.quantity,
                    "unit_price_cents": unit,
                    "total_price_cents": pricing.line_total_cents(unit, row.quantity),
                    "product_snapshot": {
                        "name": row.name,
                        "base_price_cents": row.base_price_cents,
                        "sale_price_cents": row.sale_price_cents,
                        "image_url": row.image_url or "",
                        "selected_options": dict(row.selected_options or {}),
                    },
                }
                for unit, row in zip(units, rows, strict=True)
            ],
        )
        connection.execute(
            INSERT_ADDRESS,
            {
                "order_id": order_id,
                "type": "shipping",
                "first_name": form.first_name,
                "last_name": form.last_name,
                "address_line1": form.address,
                "address_line2": form.address_line2,
                "city": form.city,
                "state": form.state,
                "zip_code": form.zip_code,
                "country": form.country,
                "phone": form.phone,
            },
        )
        connection.execute(
            INSERT_PAYMENT,
            {
                "order_id": order_id,
                "provider": PaymentProvider.SQUARE.value,
                "idempotency_key": str(uuid.uuid4()),
                "status": PaymentStatus.PENDING.value,
                "amount_cents": totals.total_cents,
                "currency": "CAD",
                "created_at": now,
                "updated_at": now,
            },
        )
        return order_id


def _setting(value: int | None, name: str) -> int:
    return getattr(_DEFAULTS, name) if value is None else value


PROTOTYPE = Implementation(
    "app_fixed",
    "prototype, not the shop's code: `place_order` with the proposed fixes",
    place_with_fixes,
)
