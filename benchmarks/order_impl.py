"""The implementations of "place an order" that the benchmark compares.

- ``app``: the shop's ``shop_app.services.checkout.place_order`` (no payment).
- ``hand``: the same work in hand-written SQL (SQLAlchemy Core ``text()``, one connection, one
  transaction): ``UPDATE carts … RETURNING id`` claims the cart and one ``SELECT`` checks that no
  order of it awaits payment (one checkout per cart); one statement reads the cart's lines with
  their products' prices, primary image and the store settings (the re-pricing ``place_order``
  does); then, per product in id order,
  ``UPDATE products SET stock_quantity = stock_quantity - :n WHERE id = :id AND stock_quantity >=
  :n AND is_active`` (anything but one row refuses the order); ``INSERT`` the order ``RETURNING
  id``, its items (one ``executemany``), its shipping address and its payment row with a uuid4
  idempotency key; ``COMMIT``.
- ``hand_writes``: only the write statements of ``hand`` (the claim's ``UPDATE`` included), with
  the prices the cart had when it was prepared (the lower bound: a checkout that trusted prices
  it already knew).

Every implementation returns the new order's id, or raises :class:`OrderRefused` when a product
is short (nothing written). Prices, totals and order numbers come from the same pure functions of
``shop_app.domain``, so all three write the same orders.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from shop_app.db import _SQLITE_BEGIN_OPTION  # the option shop_app's begin listener reads
from shop_app.domain import pricing
from shop_app.domain.order_numbers import new_order_number
from shop_app.domain.orders import OrderStatus, PaymentProvider, PaymentStatus
from shop_app.domain.shipping import shipping_for, zones_from_json
from shop_app.domain.tax import lines_to_json, table_from_json, taxes_for
from shop_app.domain.totals import OrderTotals, compute_totals
from shop_app.models.base import JSONType, utcnow
from shop_app.services.checkout import CheckoutError, CheckoutForm, place_order
from shop_app.services.ordering.place import ORDER_NUMBER_ATTEMPTS

from .order_db import PreparedCart, PricedLine

FORM = CheckoutForm(
    first_name="Ana",
    last_name="Silva",
    email="ana@example.ca",
    phone="604 555 0101",
    address="12 Cedar St",
    city="Vancouver",
    state="BC",
    zip_code="V5K 0A1",
    country="Canada",
)
"""The checkout form of every order (valid; ``place_order`` validates and cleans it)."""
_CLEAN_FORM = FORM.cleaned()


class OrderRefused(Exception):
    """A product was short: the order was refused and nothing written."""


PlaceFunction = Callable[[Engine, PreparedCart], int]


@dataclass(frozen=True, slots=True)
class Implementation:
    """One way of placing an order."""

    key: str
    label: str
    place: PlaceFunction


# --------------------------------------------------------------------------- the shop


def place_with_app(engine: Engine, cart: PreparedCart) -> int:
    """``place_order`` for the cart's guest; a short product raises :class:`OrderRefused`."""
    try:
        placed = place_order(owner=cart.owner, user_id=None, form=FORM, engine=engine)
    except CheckoutError as error:
        if str(error).startswith("Insufficient stock"):
            raise OrderRefused(str(error)) from error
        raise
    return placed.order_id


# --------------------------------------------------------------------------- by hand

CART_SQL = sa.text(
    """
    SELECT cl.product_id, cl.quantity, cl.selected_options,
           p.name, p.base_price_cents, p.sale_price_cents, p.pricing,
           (SELECT pi.image_url FROM product_images pi WHERE pi.product_id = p.id
             ORDER BY pi.is_primary DESC, pi.display_order, pi.id LIMIT 1) AS image_url,
           s.tax_table, s.shipping_zones
      FROM carts c
      JOIN cart_lines cl ON cl.cart_id = c.id
      JOIN products p ON p.id = cl.product_id AND p.is_active
      LEFT JOIN store_settings s ON s.id = 1
     WHERE c.token_hash = :token_hash
     ORDER BY cl.created_at, cl.id
    """
).columns(
    sa.column("product_id", sa.Integer),
    sa.column("quantity", sa.Integer),
    sa.column("selected_options", JSONType),
    sa.column("name", sa.String),
    sa.column("base_price_cents", sa.Integer),
    sa.column("sale_price_cents", sa.Integer),
    sa.column("pricing", JSONType),
    sa.column("image_url", sa.String),
    sa.column("tax_table", JSONType),
    sa.column("shipping_zones", JSONType),
)

CLAIM_CART_SQL = sa.text(
    "UPDATE carts SET updated_at = :now WHERE token_hash = :token_hash RETURNING id"
).bindparams(sa.bindparam("now", type_=sa.DateTime()))
AWAITING_SQL = sa.text(
    "SELECT o.id FROM orders o JOIN payments p ON p.order_id = o.id "
    "WHERE o.cart_id = :cart_id AND o.status = 'awaiting_payment'"
)

TAKE_STOCK_SQL = sa.text(
    "UPDATE products SET stock_quantity = stock_quantity - :n "
    "WHERE id = :id AND stock_quantity >= :n AND is_active"
)

INSERT_ORDER_SQL = sa.text(
    """
    INSERT INTO orders (order_number, user_id, cart_id, email, phone, status, payment_status, currency,
                        subtotal_cents, tax_cents, shipping_cents, total_cents, tax_lines, notes,
                        created_at, updated_at)
    VALUES (:order_number, NULL, :cart_id, :email, :phone, :status, :payment_status, 'CAD',
            :subtotal_cents, :tax_cents, :shipping_cents, :total_cents, :tax_lines, :notes,
            :created_at, :created_at)
    ON CONFLICT (order_number) DO NOTHING
    RETURNING id
    """
).bindparams(sa.bindparam("created_at", type_=sa.DateTime()), sa.bindparam("tax_lines", type_=JSONType))

INSERT_ITEM_SQL = sa.text(
    """
    INSERT INTO order_items (order_id, product_id, quantity, unit_price_cents, total_price_cents,
                             product_snapshot)
    VALUES (:order_id, :product_id, :quantity, :unit_price_cents, :total_price_cents, :snapshot)
    """
).bindparams(sa.bindparam("snapshot", type_=JSONType))

INSERT_ADDRESS_SQL = sa.text(
    """
    INSERT INTO order_addresses (order_id, type, first_name, last_name, address_line1,
                                 address_line2, city, state, zip_code, country, phone)
    VALUES (:order_id, 'shipping', :first_name, :last_name, :address_line1, :address_line2,
            :city, :state, :zip_code, :country, :phone)
    """
)

INSERT_PAYMENT_SQL = sa.text(
    """
    INSERT INTO payments (order_id, provider, idempotency_key, status, amount_cents, currency,
                          created_at, updated_at)
    VALUES (:order_id, :provider, :key, :status, :amount_cents, 'CAD', :created_at, :created_at)
    """
).bindparams(sa.bindparam("created_at", type_=sa.DateTime()))


def _write_engine(engine: Engine) -> Engine:
    """On SQLite a writer starts with ``BEGIN IMMEDIATE``, as ``write_transaction`` does."""
    if engine.dialect.name == "sqlite":
        return engine.execution_options(**{_SQLITE_BEGIN_OPTION: "IMMEDIATE"})
    return engine


def _price_cart(connection: Connection, token_hash: str) -> tuple[list[PricedLine], OrderTotals]:
    """The cart's lines and totals, priced from the database now (one statement)."""
    rows = connection.execute(CART_SQL, {"token_hash": token_hash}).all()
    lines = []
    for row in rows:
        unit = pricing.unit_price_cents(
            base_cents=row.base_price_cents,
            sale_cents=row.sale_price_cents,
            pricing=row.pricing or {},
            selected_options=row.selected_options or {},
        )
        lines.append(
            PricedLine(
                product_id=row.product_id,
                quantity=row.quantity,
                unit_price_cents=unit,
                line_total_cents=pricing.line_total_cents(unit, row.quantity),
                snapshot={
                    "name": row.name,
                    "base_price_cents": row.base_price_cents,
                    "sale_price_cents": row.sale_price_cents,
                    "image_url": row.image_url or "",
                    "selected_options": dict(row.selected_options or {}),
                },
            )
        )
    first = rows[0] if rows else None
    totals = compute_totals(
        sum(line.line_total_cents for line in lines),
        zone=shipping_for(zones_from_json(first.shipping_zones if first else None), FORM.destination[0]),
        taxes=taxes_for(*FORM.destination, table=table_from_json(first.tax_table if first else None)),
    )
    return lines, totals


def _claim_cart(connection: Connection, token_hash: str, *, check: bool = True) -> int:
    """Lock the cart's row; refuse when an order of it awaits payment (``check``)."""
    cart_id = connection.execute(CLAIM_CART_SQL, {"now": utcnow(), "token_hash": token_hash}).scalar()
    if cart_id is None:
        raise OrderRefused("no cart")
    if check and connection.execute(AWAITING_SQL, {"cart_id": cart_id}).first() is not None:
        raise RuntimeError("an order of this cart awaits payment")
    return cart_id


def _write_order(
    connection: Connection,
    lines: list[PricedLine] | tuple[PricedLine, ...],
    totals: OrderTotals,
    cart_id: int,
) -> int:
    """Take the stock and insert the order, its items, address and payment; return the order id."""
    if not lines:
        raise OrderRefused("empty cart")
    wanted: dict[int, int] = defaultdict(int)
    for line in lines:
        wanted[line.product_id] += line.quantity
    for product_id in sorted(wanted):
        taken = connection.execute(TAKE_STOCK_SQL, {"n": wanted[product_id], "id": product_id}).rowcount
        if taken != 1:
            raise OrderRefused(f"product {product_id} is short")
    now: datetime = utcnow()
    form = _CLEAN_FORM
    order_id = None
    for _attempt in range(ORDER_NUMBER_ATTEMPTS):  # a number drawn twice the same day: draw again
        order_id = connection.execute(
            INSERT_ORDER_SQL,
            {
                "order_number": new_order_number(now),
                "cart_id": cart_id,
                "email": form.email,
                "phone": form.phone,
                "status": OrderStatus.AWAITING_PAYMENT.value,
                "payment_status": PaymentStatus.PENDING.value,
                "subtotal_cents": totals.subtotal_cents,
                "tax_cents": totals.tax_cents,
                "shipping_cents": totals.shipping_cents,
                "total_cents": totals.total_cents,
                "tax_lines": lines_to_json(totals.tax_lines),
                "notes": form.special_instructions,
                "created_at": now,
            },
        ).scalar_one_or_none()
        if order_id is not None:
            break
    else:
        raise RuntimeError("no free order number")
    connection.execute(
        INSERT_ITEM_SQL,
        [
            {
                "order_id": order_id,
                "product_id": line.product_id,
                "quantity": line.quantity,
                "unit_price_cents": line.unit_price_cents,
                "total_price_cents": line.line_total_cents,
                "snapshot": line.snapshot,
            }
            for line in lines
        ],
    )
    connection.execute(
        INSERT_ADDRESS_SQL,
        {
            "order_id": order_id,
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
        INSERT_PAYMENT_SQL,
        {
            "order_id": order_id,
            "provider": PaymentProvider.SQUARE.value,
            "key": str(uuid.uuid4()),
            "status": PaymentStatus.PENDING.value,
            "amount_cents": totals.total_cents,
            "created_at": now,
        },
    )
    return order_id


def place_by_hand(engine: Engine, cart: PreparedCart) -> int:
    """Re-price the cart and write the order in plain SQL, one transaction."""
    with _write_engine(engine).begin() as connection:
        cart_id = _claim_cart(connection, cart.token_hash)
        lines, totals = _price_cart(connection, cart.token_hash)
        return _write_order(connection, lines, totals, cart_id)


def place_writes_by_hand(engine: Engine, cart: PreparedCart) -> int:
    """Only the writes, with the prices the cart had when it was prepared."""
    with _write_engine(engine).begin() as connection:
        cart_id = _claim_cart(connection, cart.token_hash, check=False)
        return _write_order(connection, cart.lines, cart.totals, cart_id)


APP = Implementation("app", "app: `place_order`", place_with_app)
HAND = Implementation("hand", "hand-written SQL, same work (re-price read + writes)", place_by_hand)
HAND_WRITES = Implementation(
    "hand_writes", "hand-written SQL, writes only (prices known beforehand)", place_writes_by_hand
)
IMPLEMENTATIONS: tuple[Implementation, ...] = (APP, HAND, HAND_WRITES)
