"""The bulk and wholesale inquiry's product list (issue 15, item 10)."""

from __future__ import annotations

from reflex.state import State

from shop_app.domain.inquiries import InquiryMessage
from shop_app.state.custom_orders import CustomOrdersState, ProductOptionRow


async def test_adding_a_product_clears_the_please_select_a_product_error() -> None:
    inquiry = await State(_reflex_internal_init=True).get_state(CustomOrdersState)
    inquiry.results = [ProductOptionRow(7, "8oz Soy Candle - Cedar", "$30.00")]
    inquiry.error = InquiryMessage.PRODUCT_REQUIRED.value

    inquiry.add_product(7)

    assert [row.id for row in inquiry.selected] == [7]
    assert inquiry.error == ""


async def test_other_errors_stay_until_they_are_answered() -> None:
    inquiry = await State(_reflex_internal_init=True).get_state(CustomOrdersState)
    inquiry.results = [ProductOptionRow(7, "8oz Soy Candle - Cedar", "$30.00")]
    inquiry.error = InquiryMessage.EMAIL_REQUIRED.value

    inquiry.add_product(7)

    assert inquiry.error == InquiryMessage.EMAIL_REQUIRED.value
