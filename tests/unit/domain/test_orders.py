"""Order statuses: existing values, badge colours and admin transitions."""

from __future__ import annotations

import pytest

from shop_app.domain.orders import (
    ADMIN_TRANSITIONS,
    OrderStatus,
    PaymentStatus,
    can_transition,
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


@pytest.mark.parametrize(
    ("current", "target"),
    [
        (S.AWAITING_PAYMENT, S.PENDING),
        (S.PENDING, S.PROCESSING),
        (S.PROCESSING, S.SHIPPED),
        (S.SHIPPED, S.DELIVERED),
        (S.AWAITING_PAYMENT, S.CANCELLED),
        (S.PENDING, S.CANCELLED),
        (S.PROCESSING, S.CANCELLED),
        (S.PENDING, S.REFUNDED),
        (S.DELIVERED, S.REFUNDED),
        (S.CANCELLED, S.REFUNDED),
    ],
)
def test_allowed_transitions(current: OrderStatus, target: OrderStatus) -> None:
    assert can_transition(current, target)
    assert can_transition(current.value, target.value)


@pytest.mark.parametrize(
    ("current", "target"),
    [
        (S.PENDING, S.SHIPPED),  # no skipping steps
        (S.PENDING, S.DELIVERED),
        (S.SHIPPED, S.PROCESSING),  # no going back
        (S.DELIVERED, S.PENDING),
        (S.SHIPPED, S.CANCELLED),  # too late to cancel
        (S.AWAITING_PAYMENT, S.REFUNDED),  # nothing to refund
        (S.REFUNDED, S.PENDING),
        (S.CANCELLED, S.PENDING),
        (S.PENDING, S.PENDING),
        (S.PENDING, S.AWAITING_PAYMENT),
    ],
)
def test_refused_transitions(current: OrderStatus, target: OrderStatus) -> None:
    assert not can_transition(current, target)


def test_unknown_statuses_are_refused() -> None:
    assert not can_transition("pending", "lost")
    assert not can_transition("lost", "pending")


def test_every_status_has_a_transition_entry_and_refunded_is_final() -> None:
    assert set(ADMIN_TRANSITIONS) == set(OrderStatus)
    assert ADMIN_TRANSITIONS[S.REFUNDED] == frozenset()
