"""Discount codes at the till: reading a code, pricing a cart with it, and redeeming it inside the
order's write transaction (issue 19, acceptance 3; the rules are ``domain.discounts``).

Every function runs on the caller's Core connection (``session.connection()`` for a session), so
the checkout summary, the cart and ``place_order`` read a code the same way.

**Redemption is atomic** (:func:`redeem`): in the order's transaction,
``UPDATE discount_codes SET uses = uses + 1 WHERE id = … AND is_active AND (max_uses IS NULL OR
uses < max_uses)`` either takes a use or finds none left. On PostgreSQL the row lock makes racing
checkouts wait for each other and re-check the condition on the row as committed; on SQLite the
write transaction (``BEGIN IMMEDIATE``) lets one checkout write at a time. The per-customer count
is read after that update, under the same lock, so two checkouts of one customer cannot both
pass it. The table's CHECK (``uses <= max_uses``) is the last guard. A use goes back
(:func:`release`) when the order's payment fails or is given up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Session

from shop_app.domain.discounts import (
    AppliedDiscount,
    DiscountCode,
    DiscountKind,
    DiscountLine,
    apply,
    is_code,
    normalize_code,
    refusal,
)
from shop_app.domain.messages import DiscountMessage
from shop_app.domain.validation import normalize_email
from shop_app.models import DiscountCode as CodeRow
from shop_app.models import DiscountRedemption
from shop_app.models.base import table_of, utcnow
from shop_app.services.cart import CartOwner, CartView, find_cart, view_cart

_CODES = table_of(CodeRow)
_REDEMPTIONS = table_of(DiscountRedemption)

CODE_BY_TEXT: Final = sa.select(_CODES).where(_CODES.c.code == sa.bindparam("code"))
CUSTOMER_USES: Final = sa.select(sa.func.count()).where(
    _REDEMPTIONS.c.code_id == sa.bindparam("code_id"), _REDEMPTIONS.c.email == sa.bindparam("email")
)
TAKE_USE: Final = (
    sa.update(_CODES)
    .where(
        _CODES.c.id == sa.bindparam("code_id"),
        _CODES.c.is_active,
        sa.or_(_CODES.c.max_uses.is_(None), _CODES.c.uses < _CODES.c.max_uses),
    )
    .values(uses=_CODES.c.uses + 1)
)


class DiscountRefused(ValueError):
    """The code cannot be used now; the message says why, for the shopper."""


@dataclass(frozen=True, slots=True)
class CodeCheck:
    """A cart's code, checked: what it takes off, or why it does not apply."""

    code: str  # as stored on the cart ("" for none)
    code_id: int | None = None
    applied: AppliedDiscount | None = None
    refused: str | None = None  # the reason, for the shopper


NO_CODE: Final = CodeCheck(code="")


def rule_of(row: Any) -> DiscountCode:
    """The rules' view of a ``discount_codes`` row (an ORM object or a Core row)."""
    return DiscountCode(
        code=row.code,
        kind=DiscountKind(row.kind),
        value=row.value,
        min_subtotal_cents=row.min_subtotal_cents,
        starts_at=_aware(row.starts_at),
        ends_at=_aware(row.ends_at),
        max_uses=row.max_uses,
        max_uses_per_customer=row.max_uses_per_customer,
        product_ids=frozenset(_ids(row.product_ids)),
        category_ids=frozenset(_ids(row.category_ids)),
        active=row.is_active,
        uses=row.uses,
    )


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes: they are UTC."""
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def _ids(stored: object) -> list[int]:
    return [item for item in stored if type(item) is int] if isinstance(stored, list) else []


def find(connection: Connection, text: object) -> Any | None:
    """The code's row for what was typed (any case, spaces around), or ``None``."""
    code = normalize_code(text)
    if not is_code(code):
        return None
    return connection.execute(CODE_BY_TEXT, {"code": code}).first()


def check(
    connection: Connection,
    text: str | None,
    lines: Sequence[DiscountLine],
    *,
    email: str | None = None,
    now: datetime | None = None,
) -> CodeCheck:
    """The cart's code (``text``) against its lines now; ``email``: the customer's, when known
    (the per-customer limit is counted by it)."""
    code = normalize_code(text)
    if not code:
        return NO_CODE
    row = find(connection, code)
    uses = 0
    if row is not None and email and row.max_uses_per_customer is not None:
        customer = {"code_id": row.id, "email": normalize_email(email)}
        uses = connection.execute(CUSTOMER_USES, customer).scalar_one()
    rule = rule_of(row) if row is not None else None
    reason = refusal(rule, lines, now=now or utcnow(), customer_uses=uses)
    if reason is not None or rule is None or row is None:
        return CodeCheck(code=code, code_id=row.id if row is not None else None, refused=reason)
    return CodeCheck(code=code, code_id=row.id, applied=apply(rule, lines))


def redeem(connection: Connection, checked: CodeCheck, *, order_id: int, email: str, now: datetime) -> None:
    """Take one use of the checked code for the order (in its write transaction).

    Raises:
        DiscountRefused: No use is left, or this customer has used theirs; the caller rolls the
            whole order back.
    """
    if checked.applied is None or checked.code_id is None:
        return
    if connection.execute(TAKE_USE, {"code_id": checked.code_id}).rowcount != 1:
        raise DiscountRefused(DiscountMessage.USED_UP.value)
    customer = normalize_email(email)
    limit = connection.execute(
        sa.select(_CODES.c.max_uses_per_customer).where(_CODES.c.id == checked.code_id)
    ).scalar_one()
    if limit is not None:
        used = connection.execute(CUSTOMER_USES, {"code_id": checked.code_id, "email": customer}).scalar_one()
        if used >= limit:
            raise DiscountRefused(DiscountMessage.ALREADY_USED.value)
    connection.execute(
        sa.insert(_REDEMPTIONS).values(
            code_id=checked.code_id,
            order_id=order_id,
            email=customer,
            amount_cents=checked.applied.amount_cents,
            created_at=now,
        )
    )


def release(connection: Connection, order_id: int) -> None:
    """Give the order's use of its code back (its payment failed: the order never happened)."""
    code_id = connection.execute(
        sa.delete(_REDEMPTIONS).where(_REDEMPTIONS.c.order_id == order_id).returning(_REDEMPTIONS.c.code_id)
    ).scalar()
    if code_id is not None:
        connection.execute(
            sa.update(_CODES).where(_CODES.c.id == code_id, _CODES.c.uses > 0).values(uses=_CODES.c.uses - 1)
        )


def lines_of(view: CartView) -> list[DiscountLine]:
    """A cart's lines as the rules see them."""
    return [discount_line(line.product_id, line.category_ids, line.line_total_cents) for line in view.lines]


def discount_line(product_id: int, category_ids: Sequence[int | None], line_total_cents: int) -> DiscountLine:
    """A line as the rules see it (its product's categories; ``None`` for none)."""
    return DiscountLine(product_id, frozenset(c for c in category_ids if c is not None), line_total_cents)


def use_code(session: Session, owner: CartOwner, text: str, *, email: str | None = None) -> CodeCheck:
    """Put the code on the owner's cart when it applies to it now.

    Raises:
        DiscountRefused: It does not (the reason); the cart keeps what it had.
    """
    view = view_cart(session, owner)
    checked = check(session.connection(), text, lines_of(view), email=email)
    if checked.refused is not None or checked.applied is None:
        raise DiscountRefused(checked.refused or DiscountMessage.UNKNOWN.value)
    cart = find_cart(session, owner)
    if cart is None:  # an empty cart: nothing the code could apply to (refused above)
        raise DiscountRefused(DiscountMessage.NOT_FOR_ITEMS.value)
    cart.discount_code = checked.code
    session.add(cart)
    session.flush()
    return checked


def remove_code(session: Session, owner: CartOwner) -> None:
    """Take the code off the owner's cart."""
    cart = find_cart(session, owner)
    if cart is not None and cart.discount_code is not None:
        cart.discount_code = None
        session.add(cart)
        session.flush()
