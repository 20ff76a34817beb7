"""Order inquiry validation (docs/spec/content.md#custom-orders-rules): contact, custom, bulk and wholesale,
and the lengths."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.inquiries import (
    MAX_MESSAGE_LENGTH,
    MAX_NAME_LENGTH,
    MAX_PRODUCTS,
    MAX_SPECIAL_REQUESTS_LENGTH,
    InquiryForm,
    InquiryMessage,
    OrderType,
    parse_quantity,
    retry_wait_text,
    selected_products,
    validate_inquiry,
)
from shop_app.domain.messages import AddressMessage

CONTACT = {"name": "Ana Silva", "email": "ana@example.ca", "phone": ""}
CUSTOM = {"vessel_size": "8 oz", "vessel_color": "Amber", "scent": "Vanilla Bean", "quantity": "12"}


def _form(order_type: str, **changes: object) -> InquiryForm:
    values: dict[str, object] = {"order_type": order_type, **CONTACT}
    if order_type == "custom":
        values.update(CUSTOM)
    else:
        values["products"] = ((3, "10"),)
        values["message"] = "We run a gift shop in Nanaimo." if order_type == "wholesale" else ""
    return InquiryForm(**{**values, **changes})


@pytest.mark.parametrize("order_type", list(OrderType))
def test_a_complete_form_of_each_type_passes(order_type: OrderType) -> None:
    assert validate_inquiry(_form(order_type.value)) is None


@pytest.mark.parametrize(
    ("order_type", "changes", "message"),
    [
        ("", {}, InquiryMessage.CHOOSE_TYPE),
        ("retail", {}, InquiryMessage.CHOOSE_TYPE),
        ("custom", {"name": "  "}, InquiryMessage.NAME_REQUIRED),
        ("bulk", {"email": ""}, InquiryMessage.EMAIL_REQUIRED),
        ("wholesale", {"email": "ana@"}, "Please enter a valid email address"),
        ("custom", {"vessel_size": ""}, InquiryMessage.VESSEL_SIZE_REQUIRED),
        ("custom", {"vessel_color": ""}, InquiryMessage.VESSEL_COLOR_REQUIRED),
        ("custom", {"scent": ""}, InquiryMessage.SCENT_REQUIRED),
        ("custom", {"scent": "<script>"}, InquiryMessage.UNKNOWN_CHOICE),
        ("custom", {"quantity": ""}, InquiryMessage.QUANTITY_TOO_LOW),
        ("custom", {"quantity": "0"}, InquiryMessage.QUANTITY_TOO_LOW),
        ("custom", {"quantity": "-3"}, InquiryMessage.QUANTITY_TOO_LOW),
        ("custom", {"quantity": "two"}, InquiryMessage.QUANTITY_TOO_LOW),
        ("custom", {"quantity": "10001"}, InquiryMessage.QUANTITY_TOO_HIGH),
        ("bulk", {"products": ()}, InquiryMessage.PRODUCT_REQUIRED),
        ("bulk", {"products": ((3, "0"), (4, ""))}, InquiryMessage.PRODUCT_REQUIRED),
        ("wholesale", {"products": ()}, InquiryMessage.PRODUCT_REQUIRED),
        ("wholesale", {"message": " "}, InquiryMessage.MESSAGE_REQUIRED),
        ("bulk", {"products": ((3, "20000"),)}, InquiryMessage.QUANTITY_TOO_HIGH),
        (
            "bulk",
            {"products": tuple((i, "1") for i in range(MAX_PRODUCTS + 1))},
            InquiryMessage.TOO_MANY_PRODUCTS,
        ),
        ("custom", {"name": "x" * (MAX_NAME_LENGTH + 1)}, "Name can be at most 200 characters long"),
        ("bulk", {"phone": "1" * 41}, "Phone can be at most 40 characters long"),
        ("bulk", {"phone": "not a phone !!!"}, AddressMessage.PHONE_INVALID),
        ("bulk", {"message": "x" * (MAX_MESSAGE_LENGTH + 1)}, "Message can be at most 2000 characters long"),
        (
            "custom",
            {"special_requests": "x" * (MAX_SPECIAL_REQUESTS_LENGTH + 1)},
            "Special requests can be at most 1000 characters long",
        ),
    ],
)
def test_each_rule_has_its_message(order_type: str, changes: dict, message: str) -> None:
    assert validate_inquiry(_form(order_type, **changes)) == str(message)


def test_bulk_needs_no_message_and_custom_needs_no_products() -> None:
    assert validate_inquiry(_form("bulk", message="")) is None
    assert validate_inquiry(_form("custom", products=())) is None


def test_hostile_text_is_not_a_validation_problem() -> None:
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'

    assert validate_inquiry(_form("wholesale", name=hostile, message=hostile)) is None


def test_quantity_zero_or_empty_removes_a_product() -> None:
    assert selected_products([(1, "3"), (2, "0"), (3, ""), (4, " 7 "), (5, "-1"), (6, "1.5")]) == [
        (1, 3),
        (4, 7),
    ]


@given(st.lists(st.tuples(st.integers(1, 20), st.one_of(st.text(max_size=4), st.integers(-5, 50).map(str)))))
def test_selected_products_keep_only_positive_quantities_once(products: list[tuple[int, str]]) -> None:
    kept = selected_products(products)

    assert all(quantity >= 1 for _, quantity in kept)
    assert len({product_id for product_id, _ in kept}) == len(kept)
    for product_id, quantity in kept:
        first = next(text for pid, text in products if pid == product_id and (parse_quantity(text) or 0) > 0)
        assert parse_quantity(first) == quantity


@pytest.mark.parametrize(
    ("seconds", "text"), [(1, "1 minute"), (60, "1 minute"), (61, "2 minutes"), (900, "15 minutes")]
)
def test_the_wait_is_said_in_whole_minutes(seconds: int, text: str) -> None:
    assert retry_wait_text(seconds) == text


def test_the_phone_is_stored_as_everywhere_else() -> None:
    assert _form("bulk", phone=" (250) 555 0100 ").cleaned().phone == "250-555-0100"
    assert validate_inquiry(_form("bulk", phone="")) is None  # optional
