"""Refunds, full or partial (domain/refunds.py): by items with their share of tax, by amount, the
rest; never more than remains, never an item twice, stock only for the items refunded."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.money import round_half_up_div
from shop_app.domain.order_status import NOTE_MAX
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.domain.refunds import (
    RefundableLine,
    RefundMode,
    RefundPlan,
    RefundRefused,
    RefundSituation,
    items_amount_cents,
    plan_refund,
    rest_lines,
    tax_share_cents,
)
from shop_app.domain.tax import TaxRate, tax_lines, taxes_for
from shop_app.domain.totals import compute_totals

S = OrderStatus
P = PaymentStatus
PAID = P.COMPLETED.value
CANDLE, LOTION = 11, 12


def _order(refunded: dict[int, int] | None = None, refunded_cents: int = 0) -> RefundSituation:
    """2 candles at $28.00, 1 lotion at $18.00: subtotal $74.00, tax $8.88, shipping $15.00."""
    taken = refunded or {}
    return RefundSituation(
        lines=(
            RefundableLine(CANDLE, "Candle", 2, 2800, taken.get(CANDLE, 0)),
            RefundableLine(LOTION, "Lotion", 1, 1800, taken.get(LOTION, 0)),
        ),
        tax_cents=888,
        shipping_cents=1500,
        paid_cents=9788,
        refunded_cents=refunded_cents,
    )


def _plan(situation: RefundSituation, mode: str, status: str = S.PENDING, **extra: object) -> RefundPlan:
    return plan_refund(situation, status=status, payment_status=PAID, mode=mode, **extra)  # type: ignore[arg-type]


def _refusal(situation: RefundSituation, mode: str, status: str = S.PENDING, **extra: object) -> str:
    with pytest.raises(RefundRefused) as caught:
        _plan(situation, mode, status, **extra)
    return str(caught.value)


def _after(situation: RefundSituation, plan: RefundPlan) -> RefundSituation:
    """The situation once ``plan`` is recorded."""
    taken = dict(plan.lines)
    return RefundSituation(
        lines=tuple(
            RefundableLine(
                line.item_id,
                line.name,
                line.quantity,
                line.unit_price_cents,
                line.refunded_quantity + taken.get(line.item_id, 0),
            )
            for line in situation.lines
        ),
        tax_cents=situation.tax_cents,
        shipping_cents=situation.shipping_cents,
        paid_cents=situation.paid_cents,
        refunded_cents=situation.refunded_cents + plan.amount_cents,
        tax_bases=situation.tax_bases,
        discount_cents=situation.discount_cents,
    )


# --------------------------------------------------------------------------- by items


def test_an_item_is_refunded_with_its_share_of_tax_and_the_order_keeps_the_rest() -> None:
    plan = _plan(_order(), RefundMode.ITEMS, quantities={CANDLE: 1, LOTION: 0}, restock=True)

    assert plan.amount_cents == 2800 + 336  # 888 × 2800 / 7400 = 336.0
    assert (plan.lines, plan.restock, plan.remaining_after_cents, plan.completes) == (
        ((CANDLE, 1),),
        True,
        9788 - 3136,
        False,
    )


def test_every_item_by_line_gives_back_exactly_goods_and_tax_never_the_shipping() -> None:
    first = _plan(_order(), RefundMode.ITEMS, quantities={CANDLE: 1})
    second = _plan(_after(_order(), first), RefundMode.ITEMS, quantities={CANDLE: 1, LOTION: 1})

    assert first.amount_cents + second.amount_cents == 7400 + 888
    assert second.remaining_after_cents == 1500 and not second.completes  # shipping: by amount or the rest
    last = _plan(_after(_after(_order(), first), second), RefundMode.REST)
    assert (last.amount_cents, last.lines, last.completes) == (1500, (), True)


def test_the_tax_share_is_cumulative_so_rounding_never_adds_up() -> None:
    order = RefundSituation(
        (RefundableLine(1, "Votive", 3, 333),), tax_cents=120, shipping_cents=0, paid_cents=1119
    )

    shares = [tax_share_cents(order, n * 333, (n + 1) * 333) for n in range(3)]

    assert shares == [40, 40, 40] and sum(shares) == 120
    odd = RefundSituation(
        (RefundableLine(1, "Votive", 3, 100),), tax_cents=10, shipping_cents=0, paid_cents=310
    )
    assert [tax_share_cents(odd, n * 100, (n + 1) * 100) for n in range(3)] == [3, 4, 3]


@pytest.mark.parametrize(
    ("quantities", "message"),
    [
        ({}, M.REFUND_NOTHING_CHOSEN.value),
        ({CANDLE: 0, LOTION: 0}, M.REFUND_NOTHING_CHOSEN.value),
        ({999: 1}, M.REFUND_NOT_A_LINE.value),
        ({"11": 1}, M.REFUND_NOT_A_LINE.value),
        ({CANDLE: -1}, M.REFUND_QUANTITY_INVALID.format(name="Candle", n=2)),
        ({CANDLE: 3}, M.REFUND_QUANTITY_INVALID.format(name="Candle", n=2)),
        ({CANDLE: 2**40}, M.REFUND_QUANTITY_INVALID.format(name="Candle", n=2)),
        ({CANDLE: 1.0}, M.REFUND_QUANTITY_INVALID.format(name="Candle", n=2)),
        ({CANDLE: True}, M.REFUND_QUANTITY_INVALID.format(name="Candle", n=2)),
    ],
)
def test_quantities_are_whole_numbers_within_what_remains_of_this_orders_lines(
    quantities: dict[object, object], message: str
) -> None:
    assert _refusal(_order(), RefundMode.ITEMS, quantities=quantities) == message


def test_an_item_refunded_already_cannot_be_refunded_again() -> None:
    order = _order(refunded={CANDLE: 2}, refunded_cents=6272)

    assert order.line(CANDLE).refundable_quantity == 0
    assert _refusal(order, RefundMode.ITEMS, quantities={CANDLE: 1}) == M.REFUND_QUANTITY_INVALID.format(
        name="Candle", n=0
    )
    assert rest_lines(order) == ((LOTION, 1),)


def test_items_costing_more_than_what_remains_are_refused() -> None:
    order = _order(refunded_cents=9000)  # $90.00 back by amount: $7.88 remains

    message = _refusal(order, RefundMode.ITEMS, quantities={CANDLE: 1})

    assert message == M.REFUND_ITEMS_TOO_MUCH.format(amount="$31.36", remaining="$7.88")


def test_free_items_have_nothing_to_refund() -> None:
    free = RefundSituation(
        (RefundableLine(1, "Sample", 1, 0),), tax_cents=0, shipping_cents=1500, paid_cents=1500
    )

    assert _refusal(free, RefundMode.ITEMS, quantities={1: 1}) == M.REFUND_FREE_ITEMS.value


# --------------------------------------------------------------------------- by amount, the rest


def test_an_amount_up_to_what_remains_returns_no_items() -> None:
    plan = _plan(_order(refunded_cents=1000), RefundMode.AMOUNT, amount_cents=8788)

    assert (plan.amount_cents, plan.lines, plan.restock, plan.completes) == (8788, (), False, True)


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, M.REFUND_AMOUNT_TOO_SMALL.value),
        (-500, M.REFUND_AMOUNT_TOO_SMALL.value),
        (None, M.REFUND_AMOUNT_TOO_SMALL.value),
        (12.5, M.REFUND_AMOUNT_TOO_SMALL.value),
        (9789, M.REFUND_AMOUNT_TOO_MUCH.format(remaining="$97.88")),
        (2**62, M.REFUND_AMOUNT_TOO_MUCH.format(remaining="$97.88")),
    ],
)
def test_an_amount_is_at_least_a_cent_and_never_more_than_was_paid(amount: object, message: str) -> None:
    assert _refusal(_order(), RefundMode.AMOUNT, amount_cents=amount) == message


def test_an_amount_cannot_return_items_to_stock() -> None:
    assert (
        _refusal(_order(), RefundMode.AMOUNT, amount_cents=100, restock=True)
        == M.REFUND_AMOUNT_NO_RESTOCK.value
    )


def test_the_rest_is_everything_that_remains_with_every_item_not_refunded_yet() -> None:
    order = _order(refunded={CANDLE: 1}, refunded_cents=3136)

    plan = _plan(order, RefundMode.REST, status=S.SHIPPED, restock=False)

    assert (plan.amount_cents, plan.lines, plan.restock, plan.completes) == (
        9788 - 3136,
        ((CANDLE, 1), (LOTION, 1)),
        False,
        True,
    )


def test_nothing_left_nothing_to_refund() -> None:
    assert _refusal(_order(refunded_cents=9788), RefundMode.REST) == M.REFUND_NOTHING_LEFT.value


# --------------------------------------------------------------------------- stock, order, note


def test_a_cancelled_order_refunds_without_restocking_its_items_again() -> None:
    assert not _plan(_order(), RefundMode.ITEMS, status=S.CANCELLED, quantities={CANDLE: 1}).restock
    assert (
        _refusal(_order(), RefundMode.ITEMS, status=S.CANCELLED, quantities={CANDLE: 1}, restock=True)
        == M.REFUND_STOCK_BACK_ALREADY.value
    )


@pytest.mark.parametrize(
    ("status", "payment_status", "message"),
    [
        (S.REFUNDED, P.REFUNDED, "This order is already Refunded."),
        (S.PENDING, P.NOT_CHARGED, M.NOT_CHARGED_CANCEL_INSTEAD.value),
        (S.DELIVERED, P.NOT_CHARGED, M.NOTHING_TO_REFUND.value),
        (S.CANCELLED, P.REFUNDED, M.NOTHING_TO_REFUND.value),
        (S.AWAITING_PAYMENT, P.UNKNOWN, M.NOT_PAID.value),
    ],
)
def test_only_a_paid_order_not_refunded_yet_can_be_refunded(
    status: str, payment_status: str, message: str
) -> None:
    with pytest.raises(RefundRefused) as caught:
        plan_refund(
            _order(), status=status, payment_status=payment_status, mode=RefundMode.AMOUNT, amount_cents=1
        )
    assert str(caught.value) == message


def test_the_mode_and_the_note_are_checked() -> None:
    assert _refusal(_order(), "everything") == M.REFUND_MODE_INVALID.value
    assert _refusal(_order(), RefundMode.REST, note="x" * (NOTE_MAX + 1)) == M.NOTE_TOO_LONG.format(
        n=NOTE_MAX
    )
    assert _plan(_order(), RefundMode.REST, note="  broken  in transit ").note == "broken  in transit"


def test_the_docstring_example_order_is_an_order_taxed_on_its_goods_alone() -> None:
    """As every order before issue 19 was (12 % of the goods), and as the order keeps no lines."""
    totals = compute_totals(7400, taxes=(TaxRate("TAX", 120_000, on_shipping=False),))
    assert (totals.tax_cents, totals.shipping_cents, totals.total_cents) == (888, 1500, 9788)
    assert items_amount_cents(_order(), ((CANDLE, 2), (LOTION, 1))) == 7400 + 888


def test_a_tax_on_the_shipping_stays_until_the_shipping_is_refunded() -> None:
    """To British Columbia: GST 5 % and PST 7 % of 74.00 + 15.00. Every item refunded gives back
    the goods and their tax (12 % of 74.00); the rest is the shipping and its own tax."""
    totals = compute_totals(7400, taxes=taxes_for("Canada", "BC"))
    order = replace(
        _order(),
        tax_cents=totals.tax_cents,
        paid_cents=totals.total_cents,
        tax_bases=tuple((line.amount_cents, line.base_cents) for line in totals.tax_lines),
    )
    assert (totals.tax_cents, totals.total_cents) == (1068, 9968)
    items = items_amount_cents(order, ((CANDLE, 2), (LOTION, 1)))
    assert items == 7400 + 370 + 518  # GST 5 % and PST 7 % of 74.00
    assert totals.total_cents - items == 1500 + 180  # the shipping and its 12 %


# --------------------------------------------------------------------------- properties

LINES = st.lists(
    st.tuples(st.integers(1, 5), st.integers(0, 20_000)), min_size=1, max_size=4
)  # (quantity, unit price)
ASK = st.one_of(
    st.tuples(st.just("items"), st.lists(st.integers(-1, 6), min_size=4, max_size=4), st.none()),
    st.tuples(st.just("amount"), st.none(), st.integers(-100, 200_000)),
    st.tuples(st.just("rest"), st.none(), st.none()),
)


def _situation(lines: list[tuple[int, int]], tax_bps: int, shipping: int) -> RefundSituation:
    subtotal = sum(quantity * price for quantity, price in lines)
    tax = round_half_up_div(subtotal * tax_bps, 10_000)
    return RefundSituation(
        lines=tuple(RefundableLine(i + 1, f"Item {i + 1}", q, p) for i, (q, p) in enumerate(lines)),
        tax_cents=tax,
        shipping_cents=shipping,
        paid_cents=subtotal + tax + shipping,
    )


@given(
    LINES,
    st.integers(0, 2000),
    st.sampled_from([0, 1500]),
    st.lists(st.tuples(ASK, st.booleans()), max_size=10),
    st.sampled_from([S.PENDING, S.PROCESSING, S.SHIPPED, S.DELIVERED, S.CANCELLED]),
)
def test_any_sequence_of_refunds_never_gives_back_more_than_was_paid_nor_an_item_twice(
    lines: list[tuple[int, int]],
    tax_bps: int,
    shipping: int,
    asks: list[tuple[tuple[str, list[int] | None, int | None], bool]],
    status: str,
) -> None:
    situation = _situation(lines, tax_bps, shipping)
    payment_status, restocked = PAID, dict.fromkeys(range(1, len(lines) + 1), 0)
    for (mode, counts, amount), restock in asks:
        quantities = dict(zip(range(1, len(lines) + 1), counts or [], strict=False))
        try:
            plan = plan_refund(
                situation,
                status=status,
                payment_status=payment_status,
                mode=mode,
                quantities=quantities,
                amount_cents=amount,
                restock=restock,
            )
        except RefundRefused as refused:
            assert str(refused)
            continue
        assert 1 <= plan.amount_cents <= situation.remaining_cents
        assert plan.restock == (restock and bool(plan.lines))
        if mode == "items":
            goods = sum(situation.line(item).unit_price_cents * n for item, n in plan.lines)
            exact = situation.tax_cents * goods / max(situation.goods_cents, 1)
            assert goods <= plan.amount_cents and abs(plan.amount_cents - goods - exact) <= 1
        for item, n in plan.lines if plan.restock else ():
            restocked[item] += n
        situation = _after(situation, plan)
        if plan.completes:
            payment_status = P.REFUNDED.value
            status = S.REFUNDED.value
    assert situation.refunded_cents <= situation.paid_cents
    assert all(0 <= line.refunded_quantity <= line.quantity for line in situation.lines)
    assert all(restocked[line.item_id] <= line.refunded_quantity for line in situation.lines)
    if situation.paid_cents:
        assert (status == S.REFUNDED) == (situation.refunded_cents == situation.paid_cents)


@given(
    st.lists(st.tuples(st.integers(1, 5), st.integers(1, 20_000)), min_size=1, max_size=4),
    st.integers(0, 2000),
    st.randoms(use_true_random=False),
)
def test_refunding_every_item_one_at_a_time_gives_back_exactly_subtotal_and_tax(
    lines: list[tuple[int, int]], tax_bps: int, rng: random.Random
) -> None:
    situation = _situation(lines, tax_bps, 1500)
    units = [line.item_id for line in situation.lines for _ in range(line.quantity)]
    rng.shuffle(units)
    total = 0
    for item in units:
        plan = plan_refund(
            situation, status=S.DELIVERED, payment_status=PAID, mode="items", quantities={item: 1}
        )
        total += plan.amount_cents
        situation = _after(situation, plan)
    assert total == situation.goods_cents + situation.tax_cents
    assert situation.remaining_cents == 1500  # the shipping: by amount, or the rest
    assert rest_lines(situation) == ()


@given(
    st.lists(st.tuples(st.integers(1, 5), st.integers(1, 20_000)), min_size=1, max_size=4),
    st.lists(st.tuples(st.integers(0, 150_000), st.booleans()), min_size=1, max_size=2),
    st.sampled_from([0, 1500]),
    st.randoms(use_true_random=False),
)
def test_with_taxed_shipping_the_items_give_back_their_tax_and_the_rest_the_shippings(
    lines: list[tuple[int, int]], rates: list[tuple[int, bool]], shipping: int, rng: random.Random
) -> None:
    """Taxes by destination (issue 19): each tax on the goods and, where it applies, the shipping.
    Every item refunded one at a time gives back the goods and each tax's share of them, never
    more than the goods' tax; the rest is the shipping and its tax, to the cent of what was paid."""
    subtotal = sum(quantity * price for quantity, price in lines)
    taxes = [TaxRate(f"T{i}", rate, on_shipping=on_shipping) for i, (rate, on_shipping) in enumerate(rates)]
    charged = tax_lines(subtotal, shipping, taxes)
    tax = sum(line.amount_cents for line in charged)
    situation = RefundSituation(
        lines=tuple(RefundableLine(i + 1, f"Item {i + 1}", q, p) for i, (q, p) in enumerate(lines)),
        tax_cents=tax,
        shipping_cents=shipping,
        paid_cents=subtotal + tax + shipping,
        tax_bases=tuple((line.amount_cents, line.base_cents) for line in charged),
    )
    units = [line.item_id for line in situation.lines for _ in range(line.quantity)]
    rng.shuffle(units)
    total = 0
    for item in units:
        plan = plan_refund(
            situation, status=S.DELIVERED, payment_status=PAID, mode="items", quantities={item: 1}
        )
        total += plan.amount_cents
        situation = _after(situation, plan)
    goods_tax = sum(round_half_up_div(line.amount_cents * subtotal, line.base_cents or 1) for line in charged)
    assert total == subtotal + goods_tax
    assert situation.remaining_cents == shipping + tax - goods_tax
    if situation.remaining_cents:
        rest = plan_refund(situation, status=S.DELIVERED, payment_status=PAID, mode="rest")
        assert total + rest.amount_cents == situation.paid_cents
