"""Back-office product messages: the product list, the six-step wizard and the edit form, Square
sync, and the back office's labels. (See ``__init__`` for what the tables mean.)"""

from __future__ import annotations

from enum import StrEnum

from shop_app.domain.admin_messages import (
    AdminLabel,
    BackendMessage,
    ProductAdminMessage,
    ProductDraftText,
    ProductFormMessage,
)

SHOWN: dict[StrEnum, str] = {
    AdminLabel.STATUS_ACTIVE: "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product",
    AdminLabel.STATUS_ARCHIVED: "test_admin_products.py::test_an_ordered_product_is_archived_instead_of_deleted",
    AdminLabel.SINGLE_PRODUCT: "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product",
    AdminLabel.ONE_SCENT_VARIANT: "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product",
    AdminLabel.N_SCENT_VARIANTS: "test_admin_products.py::test_add_a_scent_to_a_group_and_find_it_in_the_shop",
    AdminLabel.NO_USERS: "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer",
    AdminLabel.ACCESS_DENIED: (
        "test_admin_dashboard.py::test_a_signed_in_customer_is_told_the_dashboard_is_not_for_them"
    ),
    ProductFormMessage.NAME_REQUIRED: (
        "test_admin_wizard.py::test_the_local_form_shows_the_first_message_on_an_empty_submit"
    ),
    ProductFormMessage.ID_REQUIRED: "test_admin_wizard.py::test_the_local_form_shows_the_first_message_on_an_empty_submit",
    ProductFormMessage.NOT_AN_IMAGE: (
        "test_admin_wizard.py::test_an_admin_creates_a_product_in_six_steps_and_the_shop_shows_it"
    ),
    ProductFormMessage.IMAGE_TOO_LARGE: (
        "test_admin_wizard.py::test_an_admin_creates_a_product_in_six_steps_and_the_shop_shows_it"
    ),
    ProductAdminMessage.CREATED_EVERYWHERE: (
        "test_admin_wizard.py::test_an_admin_creates_a_product_in_six_steps_and_the_shop_shows_it"
    ),
    ProductAdminMessage.DELETED_EVERYWHERE: (
        "test_admin_dashboard.py::test_an_admin_searches_sorts_deletes_and_renames_the_shop"
    ),
    ProductAdminMessage.ARCHIVED_INSTEAD: (
        "test_admin_products.py::test_an_ordered_product_is_archived_instead_of_deleted"
    ),
    ProductAdminMessage.SYNC_DONE: "test_admin_products.py::test_sync_from_square_runs_in_the_background_and_reports",
    ProductAdminMessage.CONVERTED_TO_VARIANT: (
        "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product"
    ),
    ProductAdminMessage.VARIANT_ADDED: "test_admin_products.py::test_add_a_scent_to_a_group_and_find_it_in_the_shop",
    ProductAdminMessage.CONVERTED_TO_STANDALONE: (
        "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product"
    ),
    ProductDraftText.IMAGE_HINT: (
        "test_admin_wizard.py::test_an_admin_creates_a_product_in_six_steps_and_the_shop_shows_it"
    ),
}

NOT_SHOWN: dict[StrEnum, str] = {
    BackendMessage.INVALID_JSON: (
        "the seed's browser reads its separate back end's HTTP answers; the shop's states call its "
        "services in-process, so there is no JSON answer to be malformed"
    ),
    BackendMessage.EMPTY_RESPONSE: (
        "the seed's browser reads its separate back end's HTTP answers; the shop's states call its "
        "services in-process, so there is no answer to be empty"
    ),
}
