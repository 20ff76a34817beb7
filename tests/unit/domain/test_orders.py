"""Order statuses: existing values and badge colours (the admin rules: test_order_status.py)."""

from __future__ import annotations

import pytest

from shop_app.domain.orders import (
    OrderStatus,
    PaymentStatus,
    status_badge_colour,
    status_label,
)

S = OrderStatus


def test_existing_enum_values_are_kept() -> None:
    assert [s.value for s in OrderStatus] == [
        "awaiting_payment",
        "pending",
        "processing",
        "shipped",
        "delivered",
        "cancelled",
        "refunded",
    ]
    assert PaymentStatus.COMPLETED == "completed"


@pytest.mark.parametrize(
    ("status", "colour"),
    [
        ("pending", "yellow"),
        ("processing", "blue"),
        ("shipped", "purple"),
        ("delivered", "green"),
        ("cancelled", "red"),
        ("refunded", "grey"),
        ("awaiting_payment", "grey"),
        ("something-else", "grey"),
        (S.SHIPPED, "purple"),
    ],
)
def test_status_badge_colour(status: str, colour: str) -> None:
    assert status_badge_colour(status) == colour


def test_status_label() -> None:
    assert status_label("awaiting_payment") == "Awaiting payment"
    assert status_label(S.DELIVERED) == "Delivered"
