"""Order totals: the destination's shipping zone (the seed's flat 15.00, free from 100.00, by
default: docs/spec/limits.md#storefront), and the
taxes of where the order goes, British Columbia's (GST 5 % + PST 7 %, the seed's 12 %) by
default, each on the goods and the shipping, half up to the cent (docs/tax.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.addresses import PROVINCES
from shop_app.domain.shipping import ShippingZone
from shop_app.domain.tax import TaxRate, taxes_for
from shop_app.domain.totals import HOME_TAXES, HOME_ZONE, compute_totals


def test_defaults_are_the_seed_constants_and_british_columbias_taxes() -> None:
    assert (HOME_ZONE.flat_cents, HOME_ZONE.free_from_cents) == (1500, 10_000)
    assert [(tax.code, tax.rate_ppm) for tax in HOME_TAXES] == [("GST", 50_000), ("PST", 70_000)]


def test_free_shipping_at_exactly_100() -> None:
    totals = compute_totals(10_000)
    assert (totals.shipping_cents, totals.tax_cents, totals.total_cents) == (0, 1200, 11_200)


def test_shipping_charged_at_99_99_and_taxed() -> None:
    totals = compute_totals(9_999)  # GST 5 % and PST 7 % of 114.99
    assert [line.amount_cents for line in totals.tax_lines] == [575, 805]
    assert (totals.shipping_cents, totals.tax_cents, totals.total_cents) == (1500, 1380, 12_879)


def test_empty_cart_costs_nothing() -> None:
    totals = compute_totals(0)
    assert (totals.subtotal_cents, totals.shipping_cents, totals.tax_cents, totals.total_cents) == (
        0,
        0,
        0,
        0,
    )
    assert [line.amount_cents for line in totals.tax_lines] == [0, 0]


@pytest.mark.parametrize(
    ("subtotal", "tax"),
    # GST 5 % and PST 7 % each rounded half up: 100.10 → 5.005 ≈ 5.01 and 7.007 ≈ 7.01
    [(10_000, 1200), (10_010, 1202), (10_009, 1201), (10_090, 1211), (12_345, 1481)],
)
def test_each_tax_rounds_half_up_to_the_cent(subtotal: int, tax: int) -> None:
    assert compute_totals(subtotal).tax_cents == tax


def test_small_subtotal_pays_flat_shipping_and_its_tax() -> None:
    totals = compute_totals(5)  # 15.05 taxed: 0.75 + 1.05
    assert (totals.shipping_cents, totals.tax_cents, totals.total_cents) == (1500, 180, 1685)


def test_custom_taxes_and_shipping_zone_from_store_settings() -> None:
    taxes = (TaxRate("HST", 130_000),)
    zone = ShippingZone("Home", ("Canada",), 999, 2_000)
    totals = compute_totals(2_000, zone=zone, taxes=taxes)
    assert (totals.subtotal_cents, totals.shipping_cents, totals.tax_cents, totals.total_cents) == (
        2_000,
        0,
        260,
        2_260,
    )
    assert compute_totals(1_999, zone=zone, taxes=taxes).shipping_cents == 999


def test_a_zone_without_a_threshold_never_ships_free_and_no_zone_charges_nothing() -> None:
    far = ShippingZone("Far", ("Japan",), 3_500, None)
    assert compute_totals(10**8, zone=far, taxes=()).shipping_cents == 3_500
    assert compute_totals(0, zone=far, taxes=()).shipping_cents == 0
    assert compute_totals(5_000, zone=None, taxes=()).total_cents == 5_000


def test_negative_inputs_are_refused() -> None:
    with pytest.raises(ValueError):
        compute_totals(-1)
    with pytest.raises(ValueError):
        ShippingZone("Home", ("Canada",), -1, None)


def test_float_subtotal_is_refused() -> None:
    with pytest.raises(TypeError):
        compute_totals(100.0)  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=10**10), st.integers(min_value=0, max_value=1_000_000))
def test_totals_invariants(subtotal: int, rate_ppm: int) -> None:
    totals = compute_totals(subtotal, taxes=(TaxRate("HST", rate_ppm),))
    assert totals.subtotal_cents == subtotal
    assert totals.total_cents == totals.subtotal_cents + totals.shipping_cents + totals.tax_cents
    assert totals.shipping_cents in {0, 1500}
    assert (totals.shipping_cents == 0) == (subtotal == 0 or subtotal >= 10_000)
    exact_tax = Fraction((subtotal + totals.shipping_cents) * rate_ppm, 1_000_000)
    assert abs(totals.tax_cents - exact_tax) <= Fraction(1, 2)
    if abs(totals.tax_cents - exact_tax) == Fraction(1, 2):
        assert totals.tax_cents > exact_tax  # a tie goes up


@given(st.integers(min_value=10_000, max_value=10**8), st.integers(min_value=10_000, max_value=10**8))
def test_tax_is_monotonic_in_the_subtotal_with_free_shipping(a: int, b: int) -> None:
    low, high = sorted((a, b))
    assert compute_totals(low).tax_cents <= compute_totals(high).tax_cents


def test_by_destination_the_tax_is_its_lines_on_goods_and_shipping() -> None:
    totals = compute_totals(5_000, taxes=taxes_for("Canada", "BC"))
    assert [(line.label, line.amount_cents) for line in totals.tax_lines] == [
        ("GST 5%", 325),
        ("PST 7%", 455),
    ]
    assert (totals.shipping_cents, totals.tax_cents, totals.total_cents) == (1500, 780, 7280)
    export = compute_totals(5_000, taxes=taxes_for("United States", "WA"))
    assert (export.tax_lines, export.tax_cents, export.total_cents) == ((), 0, 6500)


@given(
    subtotal=st.integers(min_value=0, max_value=5_000_000),
    destination=st.sampled_from(
        [("Canada", code) for code in sorted(PROVINCES)] + [("United States", "WA"), ("France", "")]
    ),
    flat=st.integers(min_value=0, max_value=10_000),
    threshold=st.none() | st.integers(min_value=0, max_value=50_000),
)
def test_the_total_is_lines_plus_shipping_plus_every_tax_to_the_cent(
    subtotal: int, destination: tuple[str, str], flat: int, threshold: int | None
) -> None:
    zone = ShippingZone("Zone", (destination[0],), flat, threshold)
    totals = compute_totals(subtotal, taxes=taxes_for(*destination), zone=zone)
    assert totals.tax_cents == sum(line.amount_cents for line in totals.tax_lines)
    assert totals.total_cents == subtotal + totals.shipping_cents + totals.tax_cents
    free = subtotal == 0 or (threshold is not None and subtotal >= threshold)
    assert totals.shipping_cents == (0 if free else flat)
