"""The cart re-priced for an order, in one narrow ``SELECT`` (docs/architecture.md#orders-and-payment,
#performance-budgets).

``place_order`` needs, per cart line, the quantity, the chosen options and the product's name,
prices, option pricing and primary image, plus the store settings' tax table and shipping zones
(the order's shipping is its country's zone, and its address is validated against the countries
of the active zones), and the cart's discount code (checked, when there is one, with one more
``SELECT``: ``services.discounts.check``). One
statement reads exactly those columns: the owner's cart lines ⋈ the cart ⋈ active products,
``LEFT JOIN store_settings`` (a shop not set up yet has no row: the defaults apply, as in
:func:`~shop_app.services.store_settings.get_store_settings`). The lines are priced with the
domain rules (:func:`~shop_app.domain.pricing.unit_price_cents` with the options,
:func:`~shop_app.domain.totals.compute_totals`), exactly as the cart view and the checkout
summary (:func:`~shop_app.services.ordering.forms.quote`) price them, and keep the base and sale
price for the order item's snapshot.

The statements are built once, here, and run on the caller's Core connection (the write
transaction's ``session.connection()``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from shop_app.domain import pricing
from shop_app.domain.shipping import ship_countries, shipping_for, zones_from_json
from shop_app.domain.tax import HOME, table_from_json, taxes_for
from shop_app.domain.totals import OrderTotals, compute_totals
from shop_app.models import Cart, CartLine, Product, StoreSettings
from shop_app.models.base import table_of
from shop_app.services import discounts
from shop_app.services.cart import CartOwner, token_hash
from shop_app.services.catalog.filters import primary_image_url
from shop_app.services.store_settings import SETTINGS_ID

_CARTS = table_of(Cart)
_LINES = table_of(CartLine)
_PRODUCTS = table_of(Product)
_SETTINGS = table_of(StoreSettings)


@dataclass(frozen=True, slots=True)
class OrderLine:
    """A cart line priced now, with what its order item records."""

    product_id: int
    name: str
    image_url: str
    selected_options: dict[str, str]
    quantity: int
    unit_price_cents: int
    line_total_cents: int
    base_price_cents: int
    sale_price_cents: int | None
    custom_note: str = ""  # a custom candle's special instructions

    def snapshot(self) -> dict[str, Any]:
        """The order item's ``product_snapshot``: the product as it was bought (and the note)."""
        snapshot: dict[str, Any] = {
            "name": self.name,
            "base_price_cents": self.base_price_cents,
            "sale_price_cents": self.sale_price_cents,
            "image_url": self.image_url,
            "selected_options": dict(self.selected_options),
        }
        if self.custom_note:
            snapshot["custom_note"] = self.custom_note
        return snapshot


@dataclass(frozen=True, slots=True)
class PricedCart:
    """The lines to order (archived products left out), the order's totals and where the shop
    ships (the countries of the store settings' active zones, read in the same statement)."""

    lines: list[OrderLine]
    totals: OrderTotals
    ships_to: tuple[str, ...]
    discount: discounts.CodeCheck = discounts.NO_CODE  # the cart's code, checked now


def _lines_by(owner_column: sa.Column[Any], parameter: str) -> sa.Select[Any]:
    return (
        sa.select(
            _LINES.c.product_id,
            _LINES.c.quantity,
            _LINES.c.selected_options,
            _LINES.c.custom_note,
            _PRODUCTS.c.name,
            _PRODUCTS.c.base_price_cents,
            _PRODUCTS.c.sale_price_cents,
            _PRODUCTS.c.pricing,
            primary_image_url(_PRODUCTS.c.id).label("image_url"),
            _PRODUCTS.c.category_id,
            _PRODUCTS.c.subcategory_id,
            _CARTS.c.discount_code,
            _SETTINGS.c.tax_table,
            _SETTINGS.c.shipping_zones,
        )
        .select_from(
            _LINES.join(_CARTS, _CARTS.c.id == _LINES.c.cart_id)
            .join(_PRODUCTS, _PRODUCTS.c.id == _LINES.c.product_id)
            .outerjoin(_SETTINGS, _SETTINGS.c.id == SETTINGS_ID)
        )
        .where(owner_column == sa.bindparam(parameter), _PRODUCTS.c.is_active)
        .order_by(_LINES.c.created_at, _LINES.c.id)  # the cart's order, as the cart view shows it
    )


LINES_BY_USER: Final = _lines_by(_CARTS.c.user_id, "user_id")
LINES_BY_TOKEN: Final = _lines_by(_CARTS.c.token_hash, "token_hash")


def reprice(
    connection: Connection,
    owner: CartOwner,
    destination: tuple[str, str] = HOME,
    *,
    email: str | None = None,
    now: datetime | None = None,
) -> PricedCart:
    """The owner's cart priced from the database now (one statement; empty when there is none),
    taxed as an order to ``destination`` (country, province/state in stored form), with the cart's
    discount code checked for the customer ``email`` at ``now``."""
    if owner.user_id is not None:
        rows = connection.execute(LINES_BY_USER, {"user_id": owner.user_id}).all()
    elif owner.token:
        rows = connection.execute(LINES_BY_TOKEN, {"token_hash": token_hash(owner.token)}).all()
    else:
        rows = []
    lines = []
    for row in rows:
        options = row.selected_options or {}
        unit = pricing.unit_price_cents(
            base_cents=row.base_price_cents,
            sale_cents=row.sale_price_cents,
            pricing=row.pricing or {},
            selected_options=options,
        )
        lines.append(
            OrderLine(
                product_id=row.product_id,
                name=row.name,
                image_url=row.image_url or "",
                selected_options=dict(options),
                quantity=row.quantity,
                unit_price_cents=unit,
                line_total_cents=pricing.line_total_cents(unit, row.quantity),
                base_price_cents=row.base_price_cents,
                sale_price_cents=row.sale_price_cents,
                custom_note=row.custom_note or "",
            )
        )
    settings = rows[0] if rows else None
    zones = zones_from_json(settings.shipping_zones if settings else None)
    subtotal = sum(line.line_total_cents for line in lines)
    filed = [(row.category_id, row.subcategory_id) for row in rows]
    code = discounts.check(
        connection,
        settings.discount_code if settings else None,
        [
            discounts.discount_line(line.product_id, categories, line.line_total_cents)
            for line, categories in zip(lines, filed, strict=True)
        ],
        email=email,
        now=now,
    )
    totals = compute_totals(
        subtotal,
        zone=shipping_for(zones, destination[0]),
        taxes=taxes_for(*destination, table=table_from_json(settings.tax_table if settings else None)),
        discount=code.applied,
    )
    return PricedCart(lines=lines, totals=totals, ships_to=ship_countries(zones), discount=code)
