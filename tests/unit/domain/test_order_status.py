"""The back office's order status rules: allowed steps, refusals, restock and refund, tracking."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.admin_messages import OrderAdminMessage as M
from shop_app.domain.order_status import (
    LISTED_STATUSES,
    NOTE_MAX,
    TRACKING_NUMBER_MAX,
    ChangeRefused,
    allowed_targets,
    can_restock,
    clean_tracking_number,
    never_charged,
    plan_change,
    refund_refusal,
    refundable,
    restock_by_default,
)
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.domain.tracking import CARRIERS

S = OrderStatus
P = PaymentStatus
PAID = P.COMPLETED.value
NEXT = {S.PENDING: S.PROCESSING, S.PROCESSING: S.SHIPPED}
SHIP = {"tracking_number": "1Z 999 aa1 0123 4567 84", "carrier": "UPS"}


def _plan(status: str, target: str, payment_status: str = PAID, **extra: str):
    return plan_change(status=status, payment_status=payment_status, target=target, **extra)


def _refusal(status: str, target: str, payment_status: str = PAID, **extra: str) -> str:
    with pytest.raises(ChangeRefused) as caught:
        _plan(status, target, payment_status, **extra)
    return str(caught.value)


@pytest.mark.parametrize(
    ("current", "target", "extra"),
    [(S.PENDING, S.PROCESSING, {}), (S.PROCESSING, S.SHIPPED, SHIP), (S.SHIPPED, S.DELIVERED, {})],
)
def test_the_main_line_moves_one_step_at_a_time_without_touching_stock_or_money(
    current: OrderStatus, target: OrderStatus, extra: dict[str, str]
) -> None:
    change = _plan(current, target, **extra)

    assert (change.from_status, change.to_status) == (current, target)
    assert not change.restock and not change.refund
    assert change.payment_status_after(PAID) == PAID


def test_shipping_stores_the_normalised_number_and_the_carrier() -> None:
    change = _plan(S.PROCESSING, S.SHIPPED, tracking_number=" rr 123456789 ca ", carrier="canada post")

    assert (change.tracking_number, change.carrier) == ("RR123456789CA", "Canada Post")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"carrier": "UPS"}, M.TRACKING_REQUIRED.value),
        ({"tracking_number": "   ", "carrier": "UPS"}, M.TRACKING_REQUIRED.value),
        ({"tracking_number": "1Z999AA10123456784"}, M.CARRIER_REQUIRED.value),
        ({"tracking_number": "1Z999AA10123456784", "carrier": "DHL"}, M.CARRIER_REQUIRED.value),
        ({"tracking_number": "<script>", "carrier": "UPS"}, M.TRACKING_INVALID.value),
        (
            {"tracking_number": "9" * (TRACKING_NUMBER_MAX + 1), "carrier": "UPS"},
            M.TRACKING_TOO_LONG.format(n=TRACKING_NUMBER_MAX),
        ),
    ],
)
def test_shipping_needs_a_tracking_number_and_a_carrier(extra: dict[str, str], message: str) -> None:
    assert _refusal(S.PROCESSING, S.SHIPPED, **extra) == message


@pytest.mark.parametrize("current", [S.PENDING, S.PROCESSING])
def test_cancelling_before_shipping_restocks_and_refunds_the_money(current: OrderStatus) -> None:
    change = _plan(current, S.CANCELLED)

    assert change.restock and change.refund
    assert change.payment_status_after(PAID) == P.REFUNDED


@pytest.mark.parametrize(
    ("current", "restock"),
    [(S.PENDING, True), (S.PROCESSING, True), (S.SHIPPED, False), (S.DELIVERED, False)],
)
def test_a_refund_after_payment_refunds_and_restocks_only_before_shipping(
    current: OrderStatus, restock: bool
) -> None:
    change = _plan(current, S.REFUNDED)

    assert change.refund and change.restock == restock
    assert restock_by_default(current) == restock and can_restock(current)


def test_a_cancelled_order_whose_payment_completed_later_is_refunded_without_restocking() -> None:
    change = _plan(S.CANCELLED, S.REFUNDED, PAID)

    assert change.refund and not change.restock
    assert not restock_by_default(S.CANCELLED) and not can_restock(S.CANCELLED)


def test_an_order_that_was_not_charged_gets_its_stock_back_but_no_refund_call() -> None:
    change = _plan(S.PENDING, S.CANCELLED, P.NOT_CHARGED)

    assert change.restock and not change.refund
    assert change.payment_status_after(P.NOT_CHARGED) == P.NOT_CHARGED


@pytest.mark.parametrize("current", [S.PENDING, S.PROCESSING])
def test_a_not_charged_order_is_not_refunded_but_may_be_cancelled(current: OrderStatus) -> None:
    assert _refusal(current, S.REFUNDED, P.NOT_CHARGED) == M.NOT_CHARGED_CANCEL_INSTEAD.value
    assert allowed_targets(current, P.NOT_CHARGED) == (NEXT[current], S.CANCELLED)
    assert not refundable(current, P.NOT_CHARGED) and refundable(current, PAID)
    assert refund_refusal(current, P.NOT_CHARGED) == M.NOT_CHARGED_CANCEL_INSTEAD.value
    assert refund_refusal(current, PAID) is None


@pytest.mark.parametrize("current", [S.SHIPPED, S.DELIVERED])
def test_a_shipped_not_charged_order_has_nothing_to_refund(current: OrderStatus) -> None:
    assert _refusal(current, S.REFUNDED, P.NOT_CHARGED) == M.NOTHING_TO_REFUND.value
    assert S.REFUNDED not in allowed_targets(current, P.NOT_CHARGED)


@pytest.mark.parametrize(
    ("current", "target", "payment_status", "message"),
    [
        (S.AWAITING_PAYMENT, S.PROCESSING, P.PENDING, M.NOT_PAID.value),
        (S.AWAITING_PAYMENT, S.CANCELLED, P.UNKNOWN, M.NOT_PAID.value),
        ("lost", S.PROCESSING, PAID, M.NOT_PAID.value),
        (S.PROCESSING, S.PROCESSING, PAID, "This order is already Processing."),
        (S.REFUNDED, S.PENDING, P.REFUNDED, M.FINAL.value),
        (S.SHIPPED, S.CANCELLED, PAID, M.TOO_LATE_TO_CANCEL.value),
        (S.DELIVERED, S.CANCELLED, PAID, M.TOO_LATE_TO_CANCEL.value),
        (S.CANCELLED, S.REFUNDED, P.REFUNDED, M.NOTHING_TO_REFUND.value),
        (S.CANCELLED, S.REFUNDED, P.NOT_CHARGED, M.NOTHING_TO_REFUND.value),
        (S.PENDING, S.SHIPPED, PAID, "An order that is Pending cannot be marked as Shipped."),
        (S.SHIPPED, S.PROCESSING, PAID, "An order that is Shipped cannot be marked as Processing."),
        (S.DELIVERED, S.PENDING, PAID, "An order that is Delivered cannot be marked as Pending."),
        (S.CANCELLED, S.PENDING, P.REFUNDED, "An order that is Cancelled cannot be marked as Pending."),
        (
            S.PENDING,
            S.AWAITING_PAYMENT,
            PAID,
            M.NOT_ALLOWED.format(status="Pending", target="Awaiting payment"),
        ),
        (S.PENDING, "lost", PAID, "An order that is Pending cannot be marked as Lost."),
    ],
)
def test_refused_changes_say_why(current: str, target: str, payment_status: str, message: str) -> None:
    assert _refusal(current, target, payment_status) == message
    assert target not in allowed_targets(current, payment_status)


def test_the_note_is_trimmed_and_limited() -> None:
    assert _plan(S.PENDING, S.PROCESSING, note="  packed by Sam  ").note == "packed by Sam"
    assert _refusal(S.PENDING, S.PROCESSING, note="x" * (NOTE_MAX + 1)) == M.NOTE_TOO_LONG.format(n=NOTE_MAX)


def test_allowed_targets_per_status() -> None:
    assert allowed_targets(S.PENDING, PAID) == (S.PROCESSING, S.CANCELLED, S.REFUNDED)
    assert allowed_targets(S.PROCESSING, PAID) == (S.SHIPPED, S.CANCELLED, S.REFUNDED)
    assert allowed_targets(S.SHIPPED, PAID) == (S.DELIVERED, S.REFUNDED)
    assert allowed_targets(S.DELIVERED, PAID) == (S.REFUNDED,)
    assert allowed_targets(S.CANCELLED, PAID) == (S.REFUNDED,)
    assert allowed_targets(S.CANCELLED, P.REFUNDED) == ()
    assert allowed_targets(S.REFUNDED, P.REFUNDED) == ()
    assert allowed_targets(S.AWAITING_PAYMENT, P.PENDING) == ()
    assert allowed_targets(S.PENDING, P.NOT_CHARGED) == (S.PROCESSING, S.CANCELLED)
    assert allowed_targets(S.SHIPPED, P.NOT_CHARGED) == (S.DELIVERED,)
    assert allowed_targets(S.DELIVERED, P.NOT_CHARGED) == ()


def test_clean_tracking_number() -> None:
    assert clean_tracking_number("7489-1234 abc") == "7489-1234ABC"
    with pytest.raises(ChangeRefused, match="Enter the tracking number"):
        clean_tracking_number(None)


# ---------------------------------------------------------------------------- properties

STATUSES = st.sampled_from([*OrderStatus, "lost"])
PAYMENTS = st.sampled_from([*PaymentStatus])
KNOWN_NUMBERS = ["1Z999AA10123456784", "RR123456789CA"]
TRACKING = st.one_of(st.none(), st.text(max_size=30), st.sampled_from(KNOWN_NUMBERS))
CARRIER = st.one_of(st.none(), st.sampled_from([*CARRIERS, "DHL", ""]))


@given(STATUSES, PAYMENTS, STATUSES, TRACKING, CARRIER)
def test_any_change_is_either_refused_with_a_message_or_consistent(
    status: str, payment_status: str, target: str, tracking: str | None, carrier: str | None
) -> None:
    try:
        change = plan_change(
            status=status,
            payment_status=payment_status,
            target=target,
            tracking_number=tracking,
            carrier=carrier,
        )
    except ChangeRefused as refused:
        assert str(refused)
        return
    assert target in allowed_targets(status, payment_status)
    assert change.to_status == target != status
    assert status not in (S.AWAITING_PAYMENT, S.REFUNDED)
    assert change.refund == (target in (S.CANCELLED, S.REFUNDED) and payment_status == P.COMPLETED)
    before_shipping = status in (S.PENDING, S.PROCESSING)
    assert change.restock == (target in (S.CANCELLED, S.REFUNDED) and before_shipping)
    if target == S.SHIPPED:
        assert change.tracking_number and change.carrier in CARRIERS
    else:
        assert change.tracking_number is None and change.carrier is None


@given(
    st.sampled_from([P.COMPLETED, P.NOT_CHARGED]),
    st.lists(st.sampled_from(LISTED_STATUSES), max_size=12),
)
def test_along_any_sequence_stock_and_money_come_back_at_most_once(
    payment_status: str, targets: list[OrderStatus]
) -> None:
    """Whatever the admins click, in any order: at most one restock (only before shipping), one
    refund, nothing after refunded."""
    status, restocked, refunded, moves = S.PENDING.value, 0, 0, []
    for target in targets:
        try:
            change = plan_change(status=status, payment_status=payment_status, target=target, **SHIP)
        except ChangeRefused:
            continue
        moves.append(target)
        restocked += change.restock
        refunded += change.refund
        payment_status = change.payment_status_after(payment_status)
        status = change.to_status.value
    assert restocked <= 1 and refunded <= 1
    shipped = S.SHIPPED in moves
    assert restocked == (status in (S.CANCELLED, S.REFUNDED) and not shipped)
    if S.REFUNDED in moves:
        assert moves[-1] == S.REFUNDED  # final
    if status in (S.CANCELLED, S.REFUNDED):
        assert payment_status != P.COMPLETED  # no money kept for an ended order


@given(STATUSES, TRACKING, CARRIER, st.text(max_size=40))
def test_no_not_charged_order_is_ever_refundable(
    status: str, tracking: str | None, carrier: str | None, note: str
) -> None:
    """Whatever its status and whatever comes with the request: nothing was charged, nothing to refund."""
    assert never_charged(P.NOT_CHARGED)
    assert not refundable(status, P.NOT_CHARGED)
    assert S.REFUNDED not in allowed_targets(status, P.NOT_CHARGED)
    with pytest.raises(ChangeRefused) as refused:
        plan_change(
            status=status,
            payment_status=P.NOT_CHARGED,
            target=S.REFUNDED,
            tracking_number=tracking,
            carrier=carrier,
            note=note,
        )
    assert str(refused.value)


@given(st.lists(st.sampled_from([*LISTED_STATUSES, S.AWAITING_PAYMENT]), max_size=12))
def test_along_any_sequence_a_not_charged_order_never_moves_money(targets: list[OrderStatus]) -> None:
    """From placement on, whatever the admins click: never a refund, still not charged at the end."""
    status, payment_status = S.PENDING.value, P.NOT_CHARGED.value
    for target in targets:
        assert not refundable(status, payment_status)
        try:
            change = plan_change(status=status, payment_status=payment_status, target=target, **SHIP)
        except ChangeRefused:
            continue
        assert change.to_status != S.REFUNDED and not change.refund
        payment_status = change.payment_status_after(payment_status)
        status = change.to_status.value
    assert payment_status == P.NOT_CHARGED and status != S.REFUNDED
