"""The back office's Discount Codes (issue 19, acceptance 3): list the codes with their uses and
revenue, create, edit, switch on and off. The form's rules are ``domain.discount_form``; here they
are applied inside one write transaction, against the row as it is at that moment.

- **The list** is one statement: each code with the orders that hold a use of it (its
  redemptions: an order whose payment failed gave its use back) and its **revenue**, what those
  orders whose payment completed (``orders.payment_status = 'completed'``) paid and kept paid:
  their totals, tax and shipping included, less every refund so far
  (:func:`~shop_app.services.order_history.kept_cents`, as the dashboard's sales count it).
  Newest code first.
- **Editing is guarded by the row's ``updated_at``**, read when the dialog opened
  (:attr:`DiscountDetail.version`): a save whose code changed since (another tab, another admin,
  the Active switch of the list) is refused with ``CHANGED_ELSEWHERE`` and writes nothing, rather
  than silently putting the old values back. A checkout taking a use does not touch
  ``updated_at`` (only ``uses``, which no form writes), so it never makes a dialog stale.
- **Codes are never deleted**: orders name their code. :func:`set_active` switches one off (or on).

Every refusal of the form raises :class:`DiscountFormInvalid` with every field's message.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import write_transaction
from shop_app.domain.admin_messages import DiscountAdminMessage as M
from shop_app.domain.discount_form import (
    CATEGORIES,
    CODE,
    PRODUCTS,
    DiscountValues,
    StoredCode,
    check_discount_form,
    form_texts,
)
from shop_app.domain.discount_listing import STATUS_COLOURS, gives_text, limits_text, status_of
from shop_app.domain.discounts import DiscountKind, is_code, normalize_code
from shop_app.domain.orders import PaymentStatus
from shop_app.models import Category, DiscountRedemption, Order, Product
from shop_app.models import DiscountCode as CodeRow
from shop_app.models.base import saved_id, table_of, utcnow
from shop_app.services.catalog.filters import escape_like
from shop_app.services.discounts import rule_of
from shop_app.services.order_history import SHOP_TIME_ZONE, kept_cents

SEARCH_LIMIT: Final = 20
"""Products a search of the dialog's picker offers at most."""

_CODES = table_of(CodeRow)
_REDEMPTIONS = table_of(DiscountRedemption)
_ORDERS = table_of(Order)
_PRODUCTS = table_of(Product)
_CATEGORIES = table_of(Category)
_COMPLETED = _ORDERS.c.payment_status == PaymentStatus.COMPLETED.value

LISTING: Final = (
    sa.select(
        _CODES,
        sa.func.count(_REDEMPTIONS.c.id).label("orders"),
        sa.func.coalesce(sa.func.sum(sa.case((_COMPLETED, 1), else_=0)), 0).label("paid_orders"),
        sa.func.coalesce(sa.func.sum(sa.case((_COMPLETED, kept_cents()), else_=0)), 0).label("revenue_cents"),
    )
    .select_from(
        _CODES.outerjoin(_REDEMPTIONS, _REDEMPTIONS.c.code_id == _CODES.c.id).outerjoin(
            _ORDERS, _ORDERS.c.id == _REDEMPTIONS.c.order_id
        )
    )
    .group_by(_CODES.c.id)
    .order_by(_CODES.c.created_at.desc(), _CODES.c.id.desc())
)
"""Every code with its uses, paid orders and revenue (see the module docstring)."""


class DiscountFormInvalid(ValueError):
    """The form was refused: ``errors`` has a message per field."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__(M.FIX_FIELDS.value)
        self.errors = dict(errors)


class DiscountProblem(ValueError):
    """The code cannot be changed (it is gone, or it changed since it was read); ``str()`` says why."""


class DiscountChangedElsewhere(DiscountProblem):
    """The code changed since the dialog read it: nothing was written."""


@dataclass(frozen=True, slots=True)
class DiscountListRow:
    """A code as the list shows it."""

    id: int
    code: str
    gives: str  # "10% off"
    limits: str  # "Minimum $50.00 · 12 / 50 uses"
    status: str  # domain.discount_listing.status_of
    status_colour: str
    note: str
    is_active: bool
    orders: int  # orders holding a use of it
    paid_orders: int  # of those, the ones whose payment completed
    revenue_cents: int


@dataclass(frozen=True, slots=True)
class Choice:
    """A product or category the dialog offers (its id and what it is called)."""

    id: int
    label: str


@dataclass(frozen=True, slots=True)
class DiscountDetail:
    """A stored code as the dialog edits it."""

    id: int
    code: str
    kind: DiscountKind
    texts: dict[str, str]  # domain.discount_form.form_texts
    products: list[Choice]
    category_ids: list[int]
    is_active: bool
    uses: int
    version: str  # its updated_at, for the optimistic check of update_code


def list_codes(session: Session, *, now: datetime | None = None) -> list[DiscountListRow]:
    """Every code, newest first, with its uses and revenue (one statement)."""
    moment = now or utcnow()
    rows = session.connection().execute(LISTING).all()
    listed = []
    for row in rows:
        rule = rule_of(row)
        status = status_of(rule, moment)
        listed.append(
            DiscountListRow(
                id=row.id,
                code=row.code,
                gives=gives_text(rule.kind, rule.value),
                limits=limits_text(rule, SHOP_TIME_ZONE),
                status=status.value,
                status_colour=STATUS_COLOURS[status],
                note=row.note,
                is_active=row.is_active,
                orders=int(row.orders),
                paid_orders=int(row.paid_orders),
                revenue_cents=int(row.revenue_cents),
            )
        )
    return listed


def get_code(session: Session, code_id: int) -> DiscountDetail | None:
    """The code for the dialog, or ``None`` when there is no such code."""
    row = session.get(CodeRow, code_id)
    if row is None:
        return None
    rule = rule_of(row)
    texts = form_texts(
        code=rule.code,
        kind=rule.kind,
        value=rule.value,
        min_subtotal_cents=rule.min_subtotal_cents,
        starts_at=rule.starts_at,
        ends_at=rule.ends_at,
        max_uses=rule.max_uses,
        max_uses_per_customer=rule.max_uses_per_customer,
        note=row.note,
        zone=SHOP_TIME_ZONE,
    )
    return DiscountDetail(
        id=saved_id(row),
        code=row.code,
        kind=rule.kind,
        texts=texts,
        products=product_choices(session, list(rule.product_ids)),
        category_ids=sorted(rule.category_ids),
        is_active=row.is_active,
        uses=row.uses,
        version=_version(row),
    )


def create_code(
    form: Mapping[str, object],
    *,
    product_ids: Sequence[int] = (),
    category_ids: Sequence[int] = (),
    is_active: bool = True,
    engine: Engine | None = None,
) -> str:
    """Store a new code; returns its text.

    Raises:
        DiscountFormInvalid: A field is refused (the code taken among them); nothing was written.
    """
    try:
        with write_transaction(engine) as session:
            values = _checked(session, form, product_ids, category_ids, is_active=is_active)
            row = CodeRow(**_columns(values))
            session.add(row)
            session.flush()
    except sa.exc.IntegrityError:  # the same code stored at the same moment
        code = normalize_code(form.get(CODE))
        raise DiscountFormInvalid({CODE: M.CODE_TAKEN.format(code=code)}) from None
    return values.code


def update_code(
    code_id: int,
    form: Mapping[str, object],
    *,
    version_seen: str,
    product_ids: Sequence[int] = (),
    category_ids: Sequence[int] = (),
    is_active: bool = True,
    engine: Engine | None = None,
) -> str:
    """Save an edit of the code the dialog read at ``version_seen``; returns its text.

    Raises:
        DiscountFormInvalid: A field is refused; nothing was written.
        DiscountChangedElsewhere: The code changed since ``version_seen``; nothing was written.
        DiscountProblem: The code is gone.
    """
    try:
        with write_transaction(engine) as session:
            # Locked (PostgreSQL) so that two saves of one version cannot both pass the check.
            row = session.get(CodeRow, code_id, with_for_update=True)
            if row is None:
                raise DiscountProblem(M.NOT_FOUND.value)
            if _version(row) != version_seen:
                raise DiscountChangedElsewhere(M.CHANGED_ELSEWHERE.value)
            stored = StoredCode(code=row.code, uses=row.uses)
            values = _checked(
                session, form, product_ids, category_ids, is_active=is_active, stored=stored, code_id=code_id
            )
            for name, value in _columns(values).items():
                setattr(row, name, value)
            row.updated_at = utcnow()
            session.add(row)
            session.flush()
    except sa.exc.IntegrityError:
        code = normalize_code(form.get(CODE))
        raise DiscountFormInvalid({CODE: M.CODE_TAKEN.format(code=code)}) from None
    return values.code


def set_active(code_id: int, active: bool, *, engine: Engine | None = None) -> str:
    """Switch a code on or off (to ``active``, whatever it was: a stale list cannot undo a later
    switch by toggling); returns its text.

    Raises:
        DiscountProblem: The code is gone.
    """
    with write_transaction(engine) as session:
        row = session.get(CodeRow, code_id, with_for_update=True)
        if row is None:
            raise DiscountProblem(M.NOT_FOUND.value)
        if row.is_active != active:
            row.is_active, row.updated_at = active, utcnow()
            session.add(row)
        return row.code


def search_products(session: Session, typed: str, *, limit: int = SEARCH_LIMIT) -> list[Choice]:
    """Active products whose name or SKU contains ``typed`` (any case), by name."""
    pattern = f"%{escape_like(typed.strip().lower())}%"
    query = (
        sa.select(_PRODUCTS.c.id, _PRODUCTS.c.name, _PRODUCTS.c.sku)
        .where(_PRODUCTS.c.is_active, _PRODUCTS.c.is_listed)
        .where(
            sa.or_(
                sa.func.lower(_PRODUCTS.c.name).like(pattern, escape="\\"),
                sa.func.lower(sa.func.coalesce(_PRODUCTS.c.sku, "")).like(pattern, escape="\\"),
            )
        )
        .order_by(_PRODUCTS.c.name, _PRODUCTS.c.id)
        .limit(limit)
    )
    return [_product_choice(row) for row in session.connection().execute(query)]


def product_choices(session: Session, ids: Iterable[int]) -> list[Choice]:
    """The products of ``ids`` that exist (archived ones too: a code keeps them), by name."""
    wanted = list(ids)
    if not wanted:
        return []
    query = (
        sa.select(_PRODUCTS.c.id, _PRODUCTS.c.name, _PRODUCTS.c.sku)
        .where(_PRODUCTS.c.id.in_(wanted))
        .order_by(_PRODUCTS.c.name, _PRODUCTS.c.id)
    )
    return [_product_choice(row) for row in session.connection().execute(query)]


def category_choices(session: Session) -> list[Choice]:
    """Every category, main ones by their sort order with their subcategories after each
    ("Candles › Fall")."""
    rows = (
        session.connection()
        .execute(
            sa.select(_CATEGORIES.c.id, _CATEGORIES.c.name, _CATEGORIES.c.parent_id).order_by(
                _CATEGORIES.c.sort_order, _CATEGORIES.c.name, _CATEGORIES.c.id
            )
        )
        .all()
    )
    names = {row.id: row.name for row in rows}
    choices: list[Choice] = []
    for main in rows:
        if main.parent_id is None or main.parent_id not in names:
            choices.append(Choice(main.id, main.name))
            subs = (row for row in rows if row.parent_id == main.id)
            choices.extend(Choice(row.id, f"{main.name} › {row.name}") for row in subs)
    listed = {choice.id for choice in choices}
    choices.extend(Choice(row.id, row.name) for row in rows if row.id not in listed)  # deeper ones
    return choices


def _product_choice(row: Any) -> Choice:
    return Choice(id=row.id, label=f"{row.name} ({row.sku})" if row.sku else row.name)


def _version(row: CodeRow) -> str:
    moment = row.updated_at
    return (moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)).isoformat()


def _checked(
    session: Session,
    form: Mapping[str, object],
    product_ids: Sequence[int],
    category_ids: Sequence[int],
    *,
    is_active: bool,
    stored: StoredCode | None = None,
    code_id: int | None = None,
) -> DiscountValues:
    """The form's values, checked against the rules and the database (every problem at once)."""
    check = check_discount_form(
        form,
        zone=SHOP_TIME_ZONE,
        product_ids=product_ids,
        category_ids=category_ids,
        is_active=is_active,
        stored=stored,
    )
    errors = dict(check.errors)
    code = normalize_code(form.get(CODE))
    if CODE not in errors and is_code(code):
        taken = select(CodeRow.id).where(col(CodeRow.code) == code)
        if code_id is not None:
            taken = taken.where(col(CodeRow.id) != code_id)
        if session.exec(taken).first() is not None:
            errors[CODE] = M.CODE_TAKEN.format(code=code)
    if not _all_exist(session, Product, product_ids):
        errors[PRODUCTS] = M.PRODUCT_GONE.value
    if not _all_exist(session, Category, category_ids):
        errors[CATEGORIES] = M.CATEGORY_GONE.value
    if errors or check.values is None:
        raise DiscountFormInvalid(errors)
    return check.values


def _all_exist(session: Session, model: Any, ids: Sequence[int]) -> bool:
    wanted = {i for i in ids if type(i) is int and i > 0}
    if not wanted:
        return True
    found = session.exec(select(sa.func.count()).select_from(model).where(model.id.in_(wanted))).one()
    return int(found) == len(wanted)


def _columns(values: DiscountValues) -> dict[str, Any]:
    return {
        "code": values.code,
        "kind": values.kind.value,
        "value": values.value,
        "min_subtotal_cents": values.min_subtotal_cents,
        "starts_at": values.starts_at,
        "ends_at": values.ends_at,
        "max_uses": values.max_uses,
        "max_uses_per_customer": values.max_uses_per_customer,
        "product_ids": list(values.product_ids),
        "category_ids": list(values.category_ids),
        "note": values.note,
        "is_active": values.is_active,
    }
