"""Refunds of an order bought with a discount code (domain/refunds.py, issue 19 acceptance 3):
items give back their goods less their cumulative share of the discount, plus their share of
each tax, which was charged on the goods after the discount; the rest is what remains."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.discounts import AppliedDiscount
from shop_app.domain.money import round_half_up_div
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.domain.refunds import (
    RefundableLine,
    RefundPlan,
    RefundRefused,
    RefundSituation,
    discount_share_cents,
    items_amount_cents,
    plan_refund,
    tax_share_cents,
)
from shop_app.domain.shipping import ShippingZone
from shop_app.domain.tax import TaxRate, taxes_for
from shop_app.domain.totals import OrderTotals, compute_totals

PAID = PaymentStatus.COMPLETED.value
DELIVERED = OrderStatus.DELIVERED.value
CANDLE, LOTION = 11, 12


def _situation(lines: list[tuple[int, int]], totals: OrderTotals) -> RefundSituation:
    """An order of these (quantity, unit price) lines, charged ``totals``."""
    return RefundSituation(
        lines=tuple(RefundableLine(i + 1, f"Item {i + 1}", q, p) for i, (q, p) in enumerate(lines)),
        tax_cents=totals.tax_cents,
        shipping_cents=totals.shipping_cents,
        paid_cents=totals.total_cents,
        tax_bases=tuple((line.amount_cents, line.base_cents) for line in totals.tax_lines),
        discount_cents=totals.discount_cents,
    )


def _after(situation: RefundSituation, lines: tuple[tuple[int, int], ...], amount: int) -> RefundSituation:
    """The situation once a refund of ``lines`` for ``amount`` is recorded."""
    taken = dict(lines)
    return replace(
        situation,
        lines=tuple(
            replace(line, refunded_quantity=line.refunded_quantity + taken.get(line.item_id, 0))
            for line in situation.lines
        ),
        refunded_cents=situation.refunded_cents + amount,
    )


def _goods_tax(situation: RefundSituation) -> int:
    """Each tax's goods part: its amount × (goods − discount) / its base, rounded half up."""
    net = situation.net_goods_cents
    return sum(round_half_up_div(amount * net, max(base, net) or 1) for amount, base in situation.tax_bases)


def _bc_order() -> tuple[RefundSituation, OrderTotals]:
    """2 candles at $28.00 and a lotion at $18.00 to BC with TEN (10 % off): goods 74.00 − 7.40,
    shipping 15.00, GST 5 % and PST 7 % of 81.60."""
    lines = [(2, 2800), (1, 1800)]
    totals = compute_totals(7400, taxes=taxes_for("Canada", "BC"), discount=AppliedDiscount("TEN", 740))
    candle, lotion = _situation(lines, totals).lines
    situation = replace(
        _situation(lines, totals), lines=(replace(candle, item_id=CANDLE), replace(lotion, item_id=LOTION))
    )
    return situation, totals


def test_an_item_gives_back_its_price_less_its_share_of_the_discount_plus_its_taxes() -> None:
    situation, totals = _bc_order()
    assert (totals.discount_cents, totals.tax_cents, totals.total_cents) == (740, 979, 9139)

    plan = plan_refund(situation, status=DELIVERED, payment_status=PAID, mode="items", quantities={CANDLE: 1})

    # 28.00 − 2.80 (10 %) = 25.20; GST 5 % and PST 7 % of 25.20 = 1.26 + 1.76 (rounded half up)
    assert discount_share_cents(situation, 0, 2800) == 280
    assert tax_share_cents(situation, 0, 2800) == 126 + 176
    assert plan.amount_cents == 2520 + 302


def test_every_item_gives_back_the_goods_less_the_discount_and_their_taxes_then_the_rest_the_shipping() -> (
    None
):
    situation, totals = _bc_order()
    first = plan_refund(
        situation, status=DELIVERED, payment_status=PAID, mode="items", quantities={CANDLE: 1}
    )
    situation = _after(situation, first.lines, first.amount_cents)
    second = plan_refund(
        situation, status=DELIVERED, payment_status=PAID, mode="items", quantities={CANDLE: 1, LOTION: 1}
    )
    situation = _after(situation, second.lines, second.amount_cents)

    assert first.amount_cents + second.amount_cents == 6660 + 333 + 466  # GST and PST of 66.60
    rest = plan_refund(situation, status=DELIVERED, payment_status=PAID, mode="rest")
    assert (rest.amount_cents, rest.lines, rest.completes) == (1500 + 180, (), True)
    assert first.amount_cents + second.amount_cents + rest.amount_cents == totals.total_cents


def test_an_order_taxed_before_its_lines_were_kept_shares_its_tax_on_the_goods_after_the_discount() -> None:
    order = RefundSituation(
        (RefundableLine(1, "Votive", 3, 1000),),
        tax_cents=324,  # 12 % of 27.00
        shipping_cents=1500,
        paid_cents=2700 + 324 + 1500,
        discount_cents=300,
    )

    amounts = [items_amount_cents(_after(order, ((1, n),), 0), ((1, 1),)) for n in range(3)]

    assert amounts == [900 + 108] * 3 and order.net_goods_cents == 2700


def test_a_discount_of_every_cent_leaves_nothing_to_refund_by_items_only_the_shipping() -> None:
    lines = [(1, 2000)]
    totals = compute_totals(2000, taxes=taxes_for("Canada", "ON"), discount=AppliedDiscount("ALL", 2000))
    situation = _situation(lines, totals)
    assert (totals.goods_cents, totals.tax_cents) == (0, 195)  # HST 13 % of the 15.00 shipping

    try:
        plan_refund(situation, status=DELIVERED, payment_status=PAID, mode="items", quantities={1: 1})
    except RefundRefused as refused:
        assert str(refused) == M.REFUND_FREE_ITEMS.value
    else:  # pragma: no cover - the assertion's message
        raise AssertionError("an item that cost nothing was refunded")
    rest = plan_refund(situation, status=DELIVERED, payment_status=PAID, mode="rest")
    assert rest.amount_cents == 1500 + 195 == totals.total_cents


# --------------------------------------------------------------------------- properties

LINES = st.lists(st.tuples(st.integers(1, 5), st.integers(1, 20_000)), min_size=1, max_size=4)
RATES = st.lists(st.tuples(st.integers(0, 150_000), st.booleans()), max_size=2)


@st.composite
def _orders(draw: st.DrawFn) -> tuple[list[tuple[int, int]], OrderTotals]:
    lines = draw(LINES)
    subtotal = sum(quantity * price for quantity, price in lines)
    taxes = [TaxRate(f"T{i}", rate, on_shipping=on) for i, (rate, on) in enumerate(draw(RATES))]
    zone = ShippingZone(
        "Zone", ("Canada",), draw(st.sampled_from([0, 1, 1500, 3500])), draw(st.sampled_from([None, 10_000]))
    )
    kind = draw(st.sampled_from(["amount", "everything", "free shipping", "none"]))
    discount = {
        "amount": AppliedDiscount("CODE", draw(st.integers(0, subtotal))),
        "everything": AppliedDiscount("CODE", subtotal),
        "free shipping": AppliedDiscount("CODE", 0, free_shipping=True),
        "none": None,
    }[kind]
    return lines, compute_totals(subtotal, zone=zone, taxes=taxes, discount=discount)


def _batches(situation: RefundSituation, rng: random.Random) -> list[tuple[tuple[int, int], ...]]:
    """Every unit of the order, shuffled, cut into batches of random sizes (lines per batch)."""
    units = [line.item_id for line in situation.lines for _ in range(line.quantity)]
    rng.shuffle(units)
    batches = []
    while units:
        size = rng.randint(1, len(units))
        chosen, units = units[:size], units[size:]
        batches.append(tuple((item, chosen.count(item)) for item in sorted(set(chosen))))
    return batches


@given(_orders(), st.randoms(use_true_random=False))
def test_every_item_in_random_batches_gives_back_the_goods_less_the_discount_and_their_taxes(
    order: tuple[list[tuple[int, int]], OrderTotals], rng: random.Random
) -> None:
    lines, totals = order
    situation = _situation(lines, totals)
    expected = totals.subtotal_cents - totals.discount_cents + _goods_tax(situation)
    given_back = 0
    for batch in _batches(situation, rng):
        amount = items_amount_cents(situation, batch)
        assert amount >= 0
        given_back += amount
        situation = _after(situation, batch, amount)
    assert given_back == expected
    assert expected <= totals.total_cents


@given(_orders(), st.randoms(use_true_random=False))
def test_items_in_random_batches_then_the_rest_give_back_exactly_what_was_paid(
    order: tuple[list[tuple[int, int]], OrderTotals], rng: random.Random
) -> None:
    lines, totals = order
    situation = _situation(lines, totals)
    plans: list[RefundPlan] = []
    free: set[int] = set()  # items refused by line because they give nothing back
    for batch in _batches(situation, rng):
        try:
            plan = plan_refund(
                situation, status=DELIVERED, payment_status=PAID, mode="items", quantities=dict(batch)
            )
        except RefundRefused as refused:  # items the discount made free: they go with the rest
            why = M.REFUND_FREE_ITEMS.value if situation.remaining_cents else M.REFUND_NOTHING_LEFT.value
            assert str(refused) == why
            assert items_amount_cents(situation, batch) == 0
            free.update(item for item, _ in batch)
            continue
        assert 1 <= plan.amount_cents <= situation.remaining_cents
        plans.append(plan)
        situation = _after(situation, plan.lines, plan.amount_cents)
    if situation.remaining_cents:
        rest = plan_refund(situation, status=DELIVERED, payment_status=PAID, mode="rest")
        assert rest.completes
        plans.append(rest)
        situation = _after(situation, rest.lines, rest.amount_cents)
    assert sum(plan.amount_cents for plan in plans) == totals.total_cents
    # every item went back, by line or with the rest, but those that gave nothing back once
    # nothing remained (all of an order that cost nothing)
    assert {line.item_id for line in situation.lines if line.refunded_quantity < line.quantity} <= free
