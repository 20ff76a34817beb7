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
    AuthMessage.REQUIRED_FIELDS: "test_messages_storefront.py::test_the_sign_up_dialog_says_what_is_wrong_in_the_seeds_order",
    AuthMessage.INVALID_EMAIL: "test_messages_storefront.py::test_the_sign_up_dialog_says_what_is_wrong_in_the_seeds_order",
    AuthMessage.ALL_FIELDS: "test_messages_storefront.py::test_the_auth_page_asks_for_all_fields",
    AuthMessage.AGREE_TO_TERMS: "test_messages_storefront.py::test_the_sign_up_dialog_says_what_is_wrong_in_the_seeds_order",
    AuthMessage.PASSWORDS_DO_NOT_MATCH: "test_messages_storefront.py::test_the_sign_up_dialog_says_what_is_wrong_in_the_seeds_order",
    AuthMessage.PASSWORD_TOO_SHORT: "test_messages_storefront.py::test_the_sign_up_dialog_says_what_is_wrong_in_the_seeds_order",
    AuthMessage.UNEXPECTED_ERROR: "test_messages_storefront.py::test_sign_in_and_sign_up_say_so_when_the_database_fails",
    AuthMessage.LOGIN_ERROR: "test_messages_storefront.py::test_sign_in_and_sign_up_say_so_when_the_database_fails",
    AuthMessage.REGISTRATION_ERROR: "test_messages_storefront.py::test_sign_in_and_sign_up_say_so_when_the_database_fails",
    AuthMessage.SIGNING_IN: "test_messages_storefront.py::test_the_dialog_says_it_is_creating_the_account_and_signing_in",
    AuthMessage.CREATING_ACCOUNT: "test_messages_storefront.py::test_the_dialog_says_it_is_creating_the_account_and_signing_in",
    AuthMessage.WELCOME_BACK: "test_accounts.py::test_register_verify_sign_in_favourite_edit_profile_and_sign_out",
    AuthMessage.ACCOUNT_CREATED: "test_accounts.py::test_register_verify_sign_in_favourite_edit_profile_and_sign_out",
    AuthMessage.PROFILE_UPDATED: "test_accounts.py::test_register_verify_sign_in_favourite_edit_profile_and_sign_out",
    CartMessage.ADDED: "test_shopping_journey.py::test_browse_filter_search_product_scent_add_and_edit_the_cart",
    CartMessage.SELECT_A_SCENT: "test_shopping_journey.py::test_a_product_with_scent_options_needs_a_scent_before_adding",
    CartMessage.EMPTY_DRAWER: "test_shopping_journey.py::test_browse_filter_search_product_scent_add_and_edit_the_cart",
    CartMessage.EMPTY_CHECKOUT: "test_checkout.py::test_an_empty_cart_has_nothing_to_check_out",
    StockText.OUT_OF_STOCK: "test_messages_storefront.py::test_a_product_page_says_how_many_are_in_stock_or_that_none_are",
    StockText.ONLY_N_LEFT: "test_entry_points.py::test_a_range_whose_first_scent_is_sold_out_can_still_be_bought",
    StockText.N_IN_STOCK: "test_messages_storefront.py::test_a_product_page_says_how_many_are_in_stock_or_that_none_are",
    StockText.IN_STOCK: "test_messages_storefront.py::test_the_back_office_shows_last_seen_times_and_stock_badges",
    WishlistMessage.ADDED: "test_entry_points.py::test_a_favourite_goes_into_the_cart",
    WishlistMessage.REMOVED: "test_messages_storefront.py::test_a_stale_heart_says_the_item_is_already_a_favourite_then_removes_it",
    WishlistMessage.ALREADY_IN_WISHLIST: (
        "test_messages_storefront.py::test_a_stale_heart_says_the_item_is_already_a_favourite_then_removes_it"
    ),
    WishlistMessage.LOAD_FAILED: "test_messages_storefront.py::test_favourites_say_so_when_they_cannot_be_loaded_added_or_removed",
    WishlistMessage.ADD_FAILED: "test_messages_storefront.py::test_favourites_say_so_when_they_cannot_be_loaded_added_or_removed",
    WishlistMessage.REMOVE_FAILED: "test_messages_storefront.py::test_favourites_say_so_when_they_cannot_be_loaded_added_or_removed",
    WishlistMessage.SIGN_IN_REQUIRED: "test_accounts.py::test_a_guest_heart_asks_to_sign_in",
    DisplayText.MORE_SCENTS: "test_shopping_journey.py::test_a_product_with_scent_options_needs_a_scent_before_adding",
    DisplayText.SHOWING_PRODUCTS: "test_storefront_smoke.py::test_shop_lists_every_active_product",
    DisplayText.LOADING_CHECKOUT: "test_checkout.py::test_the_checkout_is_drawn_before_its_state_with_visible_placeholders",
    DisplayText.EMPTY_CHECKOUT_HINT: "test_checkout_first_view.py::test_the_empty_cart_shows_without_a_websocket",
    DisplayText.LOADING_PRODUCT: "test_first_view.py::test_a_product_reached_by_a_link_inside_the_app_shows_its_placeholder_then_itself",
    DisplayText.JUST_NOW: "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer",
    DisplayText.HOURS_AGO: "test_messages_storefront.py::test_the_back_office_shows_last_seen_times_and_stock_badges",
    DisplayText.DAYS_AGO: "test_messages_storefront.py::test_the_back_office_shows_last_seen_times_and_stock_badges",
    DisplayText.NEVER: "test_messages_storefront.py::test_the_back_office_shows_last_seen_times_and_stock_badges",
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
        "the seed's fallback when its auth server refuses a sign-in without saying why; this shop's "
        "own sign-in always says why (INVALID_CREDENTIALS or the rate limit's wait), and one that "
        "fails says LOGIN_ERROR on /auth or UNEXPECTED_ERROR in the dialog"
    ),
    AuthMessage.SIGNUP_ERROR: (
        "the seed's auth provider's own fallback for a failed sign-up, a layer this shop does not "
        "have (its forms call services.auth directly); a failing sign-up says REGISTRATION_ERROR on "
        "/auth or UNEXPECTED_ERROR in the dialog"
    ),
    AuthMessage.REGISTRATION_FAILED: (
        "the seed's fallback when its auth server refuses a registration without saying why; this "
        "shop's refusals always say why (the validation messages, the request limit), and one that "
        "fails says REGISTRATION_ERROR or UNEXPECTED_ERROR"
    ),
}
