"""What a checkout page showed, as ``place_order`` compares it with the cart it orders."""

from __future__ import annotations

from dataclasses import dataclass, field

from shop_app.domain.shown_cart import shown_cart


@dataclass(frozen=True)
class Line:
    product_id: int
    quantity: int
    unit_price_cents: int
    selected_options: dict[str, str] = field(default_factory=dict)


CEDAR = Line(1, 1, 3200, {"Scent": "Cedar", "Size": "12oz"})
SOAP = Line(2, 2, 900)


def test_the_same_lines_and_total_in_any_order_read_the_same() -> None:
    reordered = Line(1, 1, 3200, {"Size": "12oz", "Scent": "Cedar"})
    assert shown_cart([CEDAR, SOAP], 5300) == shown_cart([SOAP, reordered], 5300)


def test_anything_that_changes_the_charge_reads_differently() -> None:
    shown = shown_cart([CEDAR], 5308)
    assert shown_cart([CEDAR, SOAP], 9116) != shown  # a line added in another tab
    assert shown_cart([Line(1, 2, 3200, CEDAR.selected_options)], 5308) != shown  # quantity
    assert shown_cart([Line(1, 1, 2900, CEDAR.selected_options)], 5308) != shown  # price
    assert shown_cart([Line(1, 1, 3200, {"Scent": "Pine", "Size": "12oz"})], 5308) != shown  # scent
    assert shown_cart([CEDAR], 5400) != shown  # tax or shipping
    assert shown_cart([], 0) != shown  # paid (and emptied) in another tab
