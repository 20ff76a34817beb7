"""Sales tax by destination (issue 19): which taxes an order shipped to an address pays, each
computed in cents. The rules, and where each comes from, are in docs/tax.md.

- **Where the goods go decides.** Goods the shop ships are supplied where they are delivered:
  the province or territory of a Canadian address picks its taxes; an address outside Canada is
  an export, zero-rated (no tax).
- **Canada's taxes** (:data:`CANADA_TAXES`): GST 5 % in Alberta, the territories, British
  Columbia, Manitoba, Quebec and Saskatchewan; HST instead of GST in Ontario (13 %), Nova Scotia
  (14 %), New Brunswick, Newfoundland and Labrador, and Prince Edward Island (15 %). A
  provincial sales tax beside the GST: British Columbia's PST 7 %, collected (the shop is a BC
  business); Manitoba's RST 7 %, Saskatchewan's PST 6 % and Quebec's QST 9.975 %, listed but
  not collected until the owner registers for them and turns them on.
- **Shipping is taxed as the goods are** (each tax says so itself: :attr:`TaxRate.on_shipping`):
  a delivery charge the seller makes for taxable goods is part of their price for the GST/HST and
  for BC's PST.
- **Each tax is computed on its own** on its base (the goods, plus shipping where it applies),
  rounded half up to the cent, and shown as its own line ("GST 5%", "PST 7%"); the order's tax
  is their sum. For a BC address that is 12 % of goods and shipping: the seed's "Tax (12%)".

Rates are in parts per million (:attr:`TaxRate.rate_ppm`: 5 % = 50,000) so that Quebec's
9.975 % is exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from shop_app.domain.addresses import CANADA
from shop_app.domain.money import require_cents, round_half_up_div

PPM_PER_WHOLE: Final = 1_000_000
MAX_RATE_PPM: Final = PPM_PER_WHOLE  # 100 %
HOME: Final = (CANADA, "BC")
"""The shop's own province: the destination assumed before an address is known (the cart)."""


@dataclass(frozen=True, slots=True)
class TaxRate:
    """One tax a destination pays."""

    code: str  # "GST", "HST", "PST", "QST", "RST": the line's name
    rate_ppm: int  # parts per million of the base: 5 % = 50_000
    on_shipping: bool = True  # the shipping charge is part of its base
    collected: bool = True  # False: listed, not charged (the shop is not registered for it)

    def __post_init__(self) -> None:
        if not self.code.strip():
            raise ValueError("a tax needs a code")
        if isinstance(self.rate_ppm, bool) or not isinstance(self.rate_ppm, int):
            raise TypeError("rate_ppm must be an int")
        if not 0 <= self.rate_ppm <= MAX_RATE_PPM:
            raise ValueError("rate_ppm must be from 0 to 1,000,000 (100 %)")


@dataclass(frozen=True, slots=True)
class TaxLine:
    """One tax of an order: its rate, the amount it was computed on and the tax, in cents."""

    code: str
    rate_ppm: int
    base_cents: int
    amount_cents: int

    @property
    def label(self) -> str:
        """As a summary shows it: ``GST 5%``, ``QST 9.975%``."""
        return f"{self.code} {rate_text(self.rate_ppm)}%"


def rate_text(rate_ppm: int) -> str:
    """A rate as a percentage without trailing zeros.

    Examples:
        >>> rate_text(50_000), rate_text(99_750), rate_text(130_000), rate_text(0), rate_text(5)
        ('5', '9.975', '13', '0', '0.0005')
    """
    whole, rest = divmod(rate_ppm, 10_000)
    if not rest:
        return str(whole)
    return f"{whole}.{rest:04d}".rstrip("0")


def _gst() -> TaxRate:
    return TaxRate("GST", 50_000)


def _hst(percent: int) -> tuple[TaxRate, ...]:
    return (TaxRate("HST", percent * 10_000),)


TaxTable = Mapping[str, tuple[TaxRate, ...]]
"""Taxes by province or territory code ("BC"), as :data:`CANADA_TAXES`."""

CANADA_TAXES: Final[TaxTable] = {
    "AB": (_gst(),),
    "BC": (_gst(), TaxRate("PST", 70_000)),
    "MB": (_gst(), TaxRate("RST", 70_000, collected=False)),
    "NB": _hst(15),
    "NL": _hst(15),
    "NS": _hst(14),
    "NT": (_gst(),),
    "NU": (_gst(),),
    "ON": _hst(13),
    "PE": _hst(15),
    "QC": (_gst(), TaxRate("QST", 99_750, collected=False)),
    "SK": (_gst(), TaxRate("PST", 60_000, collected=False)),
    "YT": (_gst(),),
}
"""Canada's taxes by province or territory, every one of :data:`PROVINCES` (docs/tax.md gives
each rate's source and date)."""


def taxes_for(country: str, region: str, table: TaxTable = CANADA_TAXES) -> tuple[TaxRate, ...]:
    """The taxes an order shipped to ``region`` of ``country`` pays (collected or not).

    ``country`` is spelled as :mod:`shop_app.domain.countries` lists it, ``region`` is a
    province's code as checkout stores it. Outside Canada: none (an export is zero-rated).
    A Canadian address without a known province pays the GST alone, the least any pays.

    Examples:
        >>> [t.code for t in taxes_for("Canada", "BC")], taxes_for("United States", "WA")
        (['GST', 'PST'], ())
        >>> [t.code for t in taxes_for("Canada", "ON")], [t.code for t in taxes_for("Canada", "")]
        (['HST'], ['GST'])
    """
    if country != CANADA:
        return ()
    return table.get(region.strip().upper(), (_gst(),))


def tax_lines(goods_cents: int, shipping_cents: int, taxes: Iterable[TaxRate]) -> tuple[TaxLine, ...]:
    """The tax lines of an order: one per collected tax with a rate above zero, in order.

    Examples:
        >>> [(line.label, line.amount_cents) for line in tax_lines(5000, 1500, taxes_for("Canada", "BC"))]
        [('GST 5%', 325), ('PST 7%', 455)]
        >>> tax_lines(5000, 1500, taxes_for("United States", "WA"))
        ()

    Args:
        goods_cents: What the goods cost, after discounts (zero or more).
        shipping_cents: The shipping charge (zero or more).
        taxes: The destination's taxes (:func:`taxes_for`).

    Raises:
        ValueError: If an amount is negative.
    """
    require_cents(goods_cents, "goods_cents")
    require_cents(shipping_cents, "shipping_cents")
    if goods_cents < 0 or shipping_cents < 0:
        raise ValueError("amounts must not be negative")
    lines = []
    for tax in taxes:
        if not tax.collected or tax.rate_ppm == 0:
            continue
        base = goods_cents + (shipping_cents if tax.on_shipping else 0)
        amount = round_half_up_div(base * tax.rate_ppm, PPM_PER_WHOLE)
        lines.append(TaxLine(tax.code, tax.rate_ppm, base, amount))
    return tuple(lines)


def total_tax(lines: Iterable[TaxLine]) -> int:
    """The order's tax: the sum of its lines."""
    return sum(line.amount_cents for line in lines)


TAX_ROW_LABEL: Final = "Tax"


def tax_rows(lines: Iterable[TaxLine], tax_cents: int) -> tuple[tuple[str, int], ...]:
    """The tax rows a summary shows: one per tax line ("GST 5%", amount), else a single "Tax"
    row with the order's tax (an export: $0.00; an order placed before its lines were kept).

    Examples:
        >>> tax_rows(tax_lines(5000, 1500, taxes_for("Canada", "BC")), 780)
        (('GST 5%', 325), ('PST 7%', 455))
        >>> tax_rows((), 0), tax_rows((), 600)
        ((('Tax', 0),), (('Tax', 600),))
    """
    rows = tuple((line.label, line.amount_cents) for line in lines)
    return rows or ((TAX_ROW_LABEL, tax_cents),)


def combined_rate_text(lines: Iterable[TaxLine]) -> str:
    """The lines' rates added up, as the seed's single line names them ("12" for GST + PST).

    Examples:
        >>> combined_rate_text(tax_lines(100, 0, taxes_for("Canada", "BC")))
        '12'
    """
    return rate_text(sum(line.rate_ppm for line in lines))


def table_to_json(table: TaxTable) -> dict[str, list[dict[str, Any]]]:
    """A tax table as the store settings row keeps it (JSON).

    Examples:
        >>> table_to_json({"AB": (TaxRate("GST", 50_000),)})
        {'AB': [{'code': 'GST', 'rate_ppm': 50000, 'on_shipping': True, 'collected': True}]}
    """
    return {
        region: [
            {"code": t.code, "rate_ppm": t.rate_ppm, "on_shipping": t.on_shipping, "collected": t.collected}
            for t in taxes
        ]
        for region, taxes in table.items()
    }


def table_from_json(stored: object) -> TaxTable:
    """The tax table a store settings row keeps, over :data:`CANADA_TAXES`.

    Each province or territory the row names with valid taxes takes them; any other (or a
    value edited by hand into something else) keeps Canada's default, so a bad row can never
    leave a province untaxed.

    Examples:
        >>> table = table_from_json({"MB": [{"code": "GST", "rate_ppm": 50000},
        ...     {"code": "RST", "rate_ppm": 70000, "collected": True}], "ON": "nonsense"})
        >>> [(t.code, t.collected) for t in table["MB"]], table["ON"] == CANADA_TAXES["ON"]
        ([('GST', True), ('RST', True)], True)
        >>> table_from_json(None) == CANADA_TAXES
        True
    """
    table = dict(CANADA_TAXES)
    if not isinstance(stored, Mapping):
        return table
    for region in CANADA_TAXES:
        taxes = _taxes_from_json(stored.get(region))
        if taxes is not None:
            table[region] = taxes
    return table


def _taxes_from_json(stored: object) -> tuple[TaxRate, ...] | None:
    if not isinstance(stored, list) or not stored:
        return None
    taxes = []
    for item in stored:
        if not isinstance(item, Mapping):
            return None
        try:
            taxes.append(
                TaxRate(
                    code=str(item["code"]),
                    rate_ppm=item["rate_ppm"],
                    on_shipping=bool(item.get("on_shipping", True)),
                    collected=bool(item.get("collected", True)),
                )
            )
        except (KeyError, TypeError, ValueError):
            return None
    return tuple(taxes)


def lines_to_json(lines: Iterable[TaxLine]) -> list[dict[str, Any]]:
    """An order's tax lines as the order keeps them (JSON): the rates it used, and the amounts.

    Examples:
        >>> lines_to_json(tax_lines(1000, 0, taxes_for("Canada", "ON")))
        [{'code': 'HST', 'rate_ppm': 130000, 'base_cents': 1000, 'amount_cents': 130}]
    """
    return [
        {"code": x.code, "rate_ppm": x.rate_ppm, "base_cents": x.base_cents, "amount_cents": x.amount_cents}
        for x in lines
    ]


def lines_from_json(stored: object) -> tuple[TaxLine, ...]:
    """The tax lines an order keeps (none for an order placed before they were kept, or a value
    that is not a list of lines).

    Examples:
        >>> lines = tax_lines(5000, 1500, taxes_for("Canada", "BC"))
        >>> lines_from_json(lines_to_json(lines)) == lines, lines_from_json(None), lines_from_json([1])
        (True, (), ())
    """
    if not isinstance(stored, list):
        return ()
    lines = []
    for item in stored:
        if not isinstance(item, Mapping):
            return ()
        try:
            values = [item["rate_ppm"], item["base_cents"], item["amount_cents"]]
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                return ()
            lines.append(TaxLine(str(item["code"]), *values))
        except KeyError:
            return ()
    return tuple(lines)
