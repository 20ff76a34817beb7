"""Storefront and account messages: sign-in and sign-up, cart, stock, favourites, the custom
candle builder and the shop's display texts. (See ``__init__`` for what the tables mean.)"""

from __future__ import annotations

from enum import StrEnum

from shop_app.domain.admin_messages import BuilderMessage
from shop_app.domain.messages import (
    AuthMessage,
    CartMessage,
    DisplayText,
    StockText,
    WishlistMessage,
)

SHOWN: dict[StrEnum, str] = {
    AuthMessage.WELCOME_BACK: "test_accounts.py::test_register_verify_sign_in_favourite_edit_profile_and_sign_out",
    AuthMessage.ACCOUNT_CREATED: "test_accounts.py::test_register_verify_sign_in_favourite_edit_profile_and_sign_out",
    AuthMessage.PROFILE_UPDATED: "test_accounts.py::test_register_verify_sign_in_favourite_edit_profile_and_sign_out",
    CartMessage.ADDED: "test_order_history.py::test_orders_show_as_cards_with_details_reorder_and_tracking",
    CartMessage.SELECT_A_SCENT: "test_shopping_journey.py::test_a_product_with_scent_options_needs_a_scent_before_adding",
    CartMessage.EMPTY_DRAWER: "test_shopping_journey.py::test_browse_filter_search_product_scent_add_and_edit_the_cart",
    CartMessage.EMPTY_CHECKOUT: "test_checkout.py::test_an_empty_cart_has_nothing_to_check_out",
    StockText.OUT_OF_STOCK: "test_entry_points.py::test_a_range_whose_first_scent_is_sold_out_can_still_be_bought",
    StockText.ONLY_N_LEFT: "test_entry_points.py::test_a_range_whose_first_scent_is_sold_out_can_still_be_bought",
    StockText.N_IN_STOCK: "test_entry_points.py::test_a_range_whose_first_scent_is_sold_out_can_still_be_bought",
    WishlistMessage.ADDED: "test_entry_points.py::test_a_favourite_goes_into_the_cart",
    WishlistMessage.SIGN_IN_REQUIRED: "test_accounts.py::test_a_guest_heart_asks_to_sign_in",
    DisplayText.MORE_SCENTS: "test_storefront_smoke.py::test_shop_lists_every_active_product",
    DisplayText.SHOWING_PRODUCTS: "test_security_headers.py::test_the_shop_works_under_its_csp",
    DisplayText.JUST_NOW: "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer",
    BuilderMessage.TOO_MANY_SCENTS: (
        "test_custom_creator.py::test_each_step_says_what_is_missing_and_a_blend_has_at_most_3_scents"
    ),
    BuilderMessage.SELECT_VESSEL: (
        "test_custom_creator.py::test_each_step_says_what_is_missing_and_a_blend_has_at_most_3_scents"
    ),
    BuilderMessage.SELECT_SCENT: (
        "test_custom_creator.py::test_each_step_says_what_is_missing_and_a_blend_has_at_most_3_scents"
    ),
}

NOT_SHOWN: dict[StrEnum, str] = {
    AuthMessage.LOGIN_FAILED: (
        "the seed's auth provider's generic failure; a refused sign-in here says INVALID_CREDENTIALS "
        "and a failing one LOGIN_ERROR"
    ),
    AuthMessage.SIGNUP_ERROR: (
        "one of the seed's three wordings for a failed sign-up; the shop uses REGISTRATION_ERROR"
    ),
    AuthMessage.REGISTRATION_FAILED: (
        "one of the seed's three wordings for a failed sign-up; the shop uses REGISTRATION_ERROR"
    ),
}
