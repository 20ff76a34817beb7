"""Sales tax by destination (issue 19, acceptance 1 and 7; the rules and sources: docs/tax.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.addresses import PROVINCES
from shop_app.domain.countries import COUNTRIES
from shop_app.domain.tax import (
    CANADA_TAXES,
    HOME,
    MAX_RATE_PPM,
    TaxLine,
    TaxRate,
    combined_rate_text,
    rate_text,
    tax_lines,
    taxes_for,
    total_tax,
)

cents = st.integers(min_value=0, max_value=10_000_000)
rates = st.builds(
    TaxRate,
    code=st.sampled_from(["GST", "HST", "PST", "QST", "RST"]),
    rate_ppm=st.integers(min_value=0, max_value=MAX_RATE_PPM),
    on_shipping=st.booleans(),
    collected=st.booleans(),
)


def _labels(lines: tuple[TaxLine, ...]) -> list[tuple[str, int]]:
    return [(line.label, line.amount_cents) for line in lines]


def test_british_columbia_pays_gst_and_pst_on_goods_and_shipping() -> None:
    lines = tax_lines(5000, 1500, taxes_for("Canada", "BC"))
    assert _labels(lines) == [("GST 5%", 325), ("PST 7%", 455)]
    assert total_tax(lines) == 780  # 12 % of 65.00: the seed's "Tax (12%)" line's rate
    assert combined_rate_text(lines) == "12"


@pytest.mark.parametrize(
    ("province", "expected"),
    [
        ("ON", [("HST 13%", 1300)]),
        ("NS", [("HST 14%", 1400)]),
        ("NB", [("HST 15%", 1500)]),
        ("NL", [("HST 15%", 1500)]),
        ("PE", [("HST 15%", 1500)]),
        ("AB", [("GST 5%", 500)]),
        ("QC", [("GST 5%", 500)]),  # QST listed, not collected by default
        ("MB", [("GST 5%", 500)]),
        ("SK", [("GST 5%", 500)]),
        ("YT", [("GST 5%", 500)]),
        ("NT", [("GST 5%", 500)]),
        ("NU", [("GST 5%", 500)]),
    ],
)
def test_each_province_and_territory_pays_its_own_taxes(
    province: str, expected: list[tuple[str, int]]
) -> None:
    assert _labels(tax_lines(10_000, 0, taxes_for("Canada", province))) == expected


def test_every_province_and_territory_has_its_taxes_and_a_gst_or_hst() -> None:
    assert set(CANADA_TAXES) == set(PROVINCES)
    for taxes in CANADA_TAXES.values():
        assert [tax.code for tax in taxes if tax.code in {"GST", "HST"}] in (["GST"], ["HST"])


def test_the_home_province_is_british_columbia() -> None:
    assert HOME == ("Canada", "BC")


@pytest.mark.parametrize("country", [c for c in COUNTRIES if c != "Canada"])
def test_an_export_is_zero_rated(country: str) -> None:
    assert taxes_for(country, "BC") == ()
    assert tax_lines(12_345, 1500, taxes_for(country, "WA")) == ()


def test_a_canadian_address_without_a_known_province_pays_the_gst() -> None:
    assert _labels(tax_lines(1000, 0, taxes_for("Canada", ""))) == [("GST 5%", 50)]
    assert _labels(tax_lines(1000, 0, taxes_for("Canada", " bc "))) == [("GST 5%", 50), ("PST 7%", 70)]


def test_a_tax_turned_on_is_charged_exactly_at_its_rate() -> None:
    quebec = [TaxRate(t.code, t.rate_ppm, t.on_shipping, collected=True) for t in taxes_for("Canada", "QC")]
    assert _labels(tax_lines(10_000, 0, quebec)) == [("GST 5%", 500), ("QST 9.975%", 998)]  # 997.5 half up


def test_a_tax_off_shipping_is_computed_on_the_goods_alone() -> None:
    (line,) = tax_lines(1000, 1500, [TaxRate("PST", 70_000, on_shipping=False)])
    assert (line.base_cents, line.amount_cents) == (1000, 70)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"code": " ", "rate_ppm": 1}, ValueError),
        ({"code": "GST", "rate_ppm": -1}, ValueError),
        ({"code": "GST", "rate_ppm": MAX_RATE_PPM + 1}, ValueError),
        ({"code": "GST", "rate_ppm": 5.0}, TypeError),
        ({"code": "GST", "rate_ppm": True}, TypeError),
    ],
)
def test_a_rate_out_of_bounds_is_refused(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        TaxRate(**kwargs)


def test_negative_or_fractional_amounts_are_refused() -> None:
    with pytest.raises(ValueError):
        tax_lines(-1, 0, taxes_for("Canada", "BC"))
    with pytest.raises(TypeError):
        tax_lines(10.5, 0, taxes_for("Canada", "BC"))  # type: ignore[arg-type]


@given(goods=cents, shipping=cents, taxes=st.lists(rates, max_size=4))
def test_each_line_is_its_rate_of_its_base_rounded_half_up(
    goods: int, shipping: int, taxes: list[TaxRate]
) -> None:
    lines = tax_lines(goods, shipping, taxes)
    charged = [tax for tax in taxes if tax.collected and tax.rate_ppm > 0]
    assert [line.code for line in lines] == [tax.code for tax in charged]
    for line, tax in zip(lines, charged, strict=True):
        assert line.base_cents == goods + (shipping if tax.on_shipping else 0)
        exact = Fraction(line.base_cents * tax.rate_ppm, 1_000_000)
        assert abs(line.amount_cents - exact) <= Fraction(1, 2)
        assert line.amount_cents - exact != Fraction(-1, 2)  # a half goes up
        assert 0 <= line.amount_cents <= line.base_cents
    assert total_tax(lines) == sum(line.amount_cents for line in lines)


@given(goods=cents, shipping=cents, province=st.sampled_from(sorted(PROVINCES)))
def test_a_canadian_order_is_taxed_within_a_cent_per_line_of_its_combined_rate(
    goods: int, shipping: int, province: str
) -> None:
    lines = tax_lines(goods, shipping, taxes_for("Canada", province))
    exact = sum(Fraction(line.base_cents * line.rate_ppm, 1_000_000) for line in lines)
    assert abs(total_tax(lines) - exact) <= Fraction(len(lines), 2)


@given(st.integers(min_value=0, max_value=MAX_RATE_PPM))
def test_rate_text_reads_back_as_the_rate(rate_ppm: int) -> None:
    assert Fraction(rate_text(rate_ppm)) * 10_000 == rate_ppm
