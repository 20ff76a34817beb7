"""Issue 19, acceptance 7: every amount is computed once from the same pure functions, and they
hold together for any cart, destination, shipping zone and discount code.

For random carts (lines of products in categories), destinations (each Canadian province and
territory, a Canadian address without one, the United States, elsewhere), shipping zones and
codes of the three kinds with random limits and restrictions, checked by
``domain.discounts.refusal`` and applied by ``domain.discounts.apply``, ``compute_totals`` gives a
total of subtotal − discount + shipping + the tax lines to the cent, a discount between 0 and the
eligible goods, no shipping with a free-shipping code, and taxes on the goods after the discount
plus the shipping (where the tax applies to it).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import event, given
from hypothesis import strategies as st

from shop_app.domain.discounts import (
    DiscountCode,
    DiscountKind,
    DiscountLine,
    apply,
    eligible_cents,
    refusal,
)
from shop_app.domain.money import BASIS_POINTS_PER_WHOLE, round_half_up_div
from shop_app.domain.shipping import MAX_RATE_CENTS, ShippingZone
from shop_app.domain.tax import CANADA_TAXES, PPM_PER_WHOLE, taxes_for
from shop_app.domain.totals import compute_totals

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
PRODUCTS = st.integers(1, 6)
CATEGORIES = st.frozensets(st.integers(1, 4), max_size=2)
DESTINATIONS = st.sampled_from(
    [("Canada", province) for province in CANADA_TAXES]
    + [("Canada", ""), ("United States", "WA"), ("United States", "NY"), ("France", ""), ("Japan", "")]
)


@st.composite
def _lines(draw: st.DrawFn) -> list[DiscountLine]:
    """A cart: lines of (product, its categories, unit price × quantity)."""
    count = draw(st.integers(1, 6))
    return [
        DiscountLine(
            draw(PRODUCTS), draw(CATEGORIES), draw(st.integers(0, 20_000)) * draw(st.integers(1, 99))
        )
        for _ in range(count)
    ]


@st.composite
def _zones(draw: st.DrawFn) -> ShippingZone | None:
    if draw(st.booleans()) and draw(st.booleans()):
        return None  # the shop ships nowhere: no shipping charged
    return ShippingZone(
        "Zone",
        ("Canada",),
        draw(st.integers(0, MAX_RATE_CENTS)),
        draw(st.none() | st.integers(0, MAX_RATE_CENTS)),
    )


def _moment(draw: st.DrawFn) -> datetime | None:
    hours = draw(st.none() | st.integers(-48, 48))
    return None if hours is None else NOW + timedelta(hours=hours)


@st.composite
def _codes(draw: st.DrawFn) -> DiscountCode:
    """A code of any kind; one in four with random dates and usage limits (mostly refused), one
    in three for some products or categories only."""
    kind = draw(st.sampled_from(list(DiscountKind)))
    value = {
        DiscountKind.PERCENT: st.integers(1, BASIS_POINTS_PER_WHOLE),
        DiscountKind.FIXED: st.integers(1, 200_000),
        DiscountKind.FREE_SHIPPING: st.just(0),
    }[kind]
    code = DiscountCode(
        code="CODE",
        kind=kind,
        value=draw(value),
        min_subtotal_cents=draw(st.sampled_from([0, 0, 0, 5000, 50_000])),
    )
    if draw(st.integers(0, 2)) == 0:
        code = replace(
            code,
            product_ids=draw(st.frozensets(PRODUCTS, max_size=2)),
            category_ids=draw(st.frozensets(st.integers(1, 4), max_size=2)),
        )
    if draw(st.integers(0, 3)) == 0:
        max_uses = draw(st.none() | st.integers(1, 5))
        code = replace(
            code,
            starts_at=_moment(draw),
            ends_at=_moment(draw),
            max_uses=max_uses,
            max_uses_per_customer=draw(st.none() | st.integers(1, 3)),
            active=draw(st.booleans()) or draw(st.booleans()),
            uses=draw(st.integers(0, max_uses or 5)),
        )
    return code


@given(
    lines=_lines(),
    destination=DESTINATIONS,
    zone=_zones(),
    any_code=_codes(),
    without=st.integers(0, 4),
    customer_uses=st.integers(0, 3),
)
def test_the_totals_of_any_cart_destination_zone_and_code_hold_together(
    *,
    lines: list[DiscountLine],
    destination: tuple[str, str],
    zone: ShippingZone | None,
    any_code: DiscountCode,
    without: int,
    customer_uses: int,
) -> None:
    code = None if without == 0 else any_code  # one cart in five without a code
    subtotal = sum(line.line_total_cents for line in lines)
    taxes = taxes_for(*destination)
    refused = refusal(code, lines, now=NOW, customer_uses=customer_uses)
    applied = apply(code, lines) if code is not None and refused is None else None
    event("no code" if code is None else f"{code.kind.value} {'refused' if refused else 'applied'}")

    totals = compute_totals(subtotal, zone=zone, taxes=taxes, discount=applied)

    # the total, to the cent
    tax = sum(line.amount_cents for line in totals.tax_lines)
    assert totals.tax_cents == tax
    assert totals.total_cents == totals.subtotal_cents - totals.discount_cents + totals.shipping_cents + tax
    assert totals.subtotal_cents == subtotal
    # the discount: never negative, never more than the goods it is for
    assert totals.discount_cents >= 0
    if applied is None or code is None:
        assert totals.discount_cents == 0 and totals.discount is None
    else:
        eligible = eligible_cents(code, lines)
        assert eligible > 0 and totals.discount_cents <= eligible <= subtotal
        assert totals.discount_cents == applied.amount_cents
        if code.kind is DiscountKind.PERCENT:
            assert totals.discount_cents == round_half_up_div(eligible * code.value, BASIS_POINTS_PER_WHOLE)
        elif code.kind is DiscountKind.FIXED:
            assert totals.discount_cents == min(code.value, eligible)
        assert subtotal >= code.min_subtotal_cents
    # shipping: waived by a free-shipping code, else the zone's rule on the subtotal (before it)
    goods = subtotal - totals.discount_cents
    assert totals.goods_cents == goods >= 0
    if applied is not None and applied.free_shipping:
        assert totals.shipping_cents == 0 and totals.discount_cents == 0
    elif zone is None or subtotal == 0:
        assert totals.shipping_cents == 0
    else:
        assert totals.shipping_cents == zone.charge(subtotal)
    # each tax: on the goods after the discount, plus the shipping where it applies
    charged = [tax for tax in taxes if tax.collected and tax.rate_ppm > 0]
    assert [line.code for line in totals.tax_lines] == [tax.code for tax in charged]
    for line, rate in zip(totals.tax_lines, charged, strict=True):
        assert line.base_cents == goods + (totals.shipping_cents if rate.on_shipping else 0)
        assert line.amount_cents == round_half_up_div(line.base_cents * rate.rate_ppm, PPM_PER_WHOLE)
    if destination[0] != "Canada":
        assert totals.tax_lines == () and totals.total_cents == goods + totals.shipping_cents


@given(_lines(), DESTINATIONS, _zones(), _codes())
def test_a_code_never_makes_the_order_cost_more_than_without_it_on_the_goods_and_taxes(
    lines: list[DiscountLine], destination: tuple[str, str], zone: ShippingZone | None, code: DiscountCode
) -> None:
    """Goods and their taxes only go down with a code (shipping may not: a code that brings the
    goods under the free-shipping threshold puts the shipping back, as the module says)."""
    subtotal = sum(line.line_total_cents for line in lines)
    taxes = taxes_for(*destination)
    applied = apply(code, lines) if refusal(code, lines, now=NOW) is None else None
    without = compute_totals(subtotal, zone=zone, taxes=taxes)
    with_code = compute_totals(subtotal, zone=zone, taxes=taxes, discount=applied)

    if with_code.shipping_cents == without.shipping_cents:
        assert with_code.total_cents <= without.total_cents
        assert with_code.tax_cents <= without.tax_cents
