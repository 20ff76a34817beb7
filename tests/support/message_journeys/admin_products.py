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
    ReconcileMessage,
)

SHOWN: dict[StrEnum, str] = {
    ReconcileMessage.TITLE: "test_admin_square_reconcile.py::test_a_shop_edit_reaches_square_and_a_till_price_is_reconciled",
    ReconcileMessage.INTRO: "test_admin_square_reconcile.py::test_a_shop_edit_reaches_square_and_a_till_price_is_reconciled",
    ReconcileMessage.CHECK_AGAIN: "test_admin_square_reconcile.py::test_a_shop_edit_reaches_square_and_a_till_price_is_reconciled",
    ReconcileMessage.USE_SHOPS: "test_admin_square_reconcile.py::test_a_shop_edit_reaches_square_and_a_till_price_is_reconciled",
    ReconcileMessage.USE_SQUARES: "test_admin_square_reconcile.py::test_a_shop_edit_reaches_square_and_a_till_price_is_reconciled",
    ReconcileMessage.SETTLED: "test_admin_square_reconcile.py::test_a_shop_edit_reaches_square_and_a_till_price_is_reconciled",
    ReconcileMessage.AGREE: "test_admin_square_reconcile.py::test_the_bulk_actions_on_a_phone",
    ReconcileMessage.ALL_SHOPS: "test_admin_square_reconcile.py::test_the_bulk_actions_on_a_phone",
    ReconcileMessage.ALL_SQUARES: "test_admin_square_reconcile.py::test_the_bulk_actions_on_a_phone",
    ReconcileMessage.CHANGED: "test_admin_square_reconcile.py::test_a_row_settled_meanwhile_is_not_applied_again",
    ReconcileMessage.WAITING: "test_admin_square_reconcile.py::test_square_down_shows_what_waits_and_send_now_sends_it_when_square_is_back",
    ReconcileMessage.FAILING: "test_admin_square_reconcile.py::test_square_down_shows_what_waits_and_send_now_sends_it_when_square_is_back",
    ReconcileMessage.SEND_NOW: "test_admin_square_reconcile.py::test_square_down_shows_what_waits_and_send_now_sends_it_when_square_is_back",
    ReconcileMessage.STILL_WAITING: "test_admin_square_reconcile.py::test_square_down_shows_what_waits_and_send_now_sends_it_when_square_is_back",
    ReconcileMessage.WAITING_ROW: "test_admin_square_reconcile.py::test_square_down_shows_what_waits_and_send_now_sends_it_when_square_is_back",
    ReconcileMessage.FAILED: "test_admin_square_reconcile.py::test_squares_values_never_put_on_sale_what_the_editors_refuse",
    ReconcileMessage.SENT: "test_admin_square_reconcile.py::test_square_down_shows_what_waits_and_send_now_sends_it_when_square_is_back",
    ReconcileMessage.READ_FAILED: "test_admin_square_reconcile.py::test_square_unreadable_says_so",
    AdminLabel.STATUS_NEW: (
        "test_messages_admin_products.py::test_manage_products_edits_archives_and_checks_a_conversion"
    ),
    AdminLabel.STATUS_SALE: (
        "test_messages_admin_products.py::test_the_dashboard_asks_to_archive_and_says_a_product_is_gone"
    ),
    AdminLabel.STATUS_ACTIVE: (
        "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product"
    ),
    AdminLabel.STATUS_ARCHIVED: (
        "test_admin_products.py::test_an_ordered_product_is_archived_instead_of_deleted"
    ),
    AdminLabel.SINGLE_PRODUCT: (
        "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product"
    ),
    AdminLabel.ONE_SCENT_VARIANT: (
        "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product"
    ),
    AdminLabel.N_SCENT_VARIANTS: (
        "test_admin_products.py::test_add_a_scent_to_a_group_and_find_it_in_the_shop"
    ),
    AdminLabel.NO_PRODUCTS: (
        "test_messages_admin_products.py::test_manage_products_edits_archives_and_checks_a_conversion"
    ),
    AdminLabel.CREATE_FIRST_PRODUCT: (
        "test_messages_admin_products.py::test_a_shop_without_products_is_asked_for_its_first_one"
    ),
    AdminLabel.ADJUST_FILTERS: (
        "test_messages_admin_products.py::test_manage_products_edits_archives_and_checks_a_conversion"
    ),
    AdminLabel.NO_USERS: "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer",
    AdminLabel.ACCESS_DENIED: (
        "test_admin_dashboard.py::test_a_signed_in_customer_is_told_the_dashboard_is_not_for_them"
    ),
    AdminLabel.UNKNOWN_FIRST_NAME: (
        "test_messages_admin_products.py::test_an_admin_whose_account_cannot_be_read_is_unknown_user"
    ),
    AdminLabel.UNKNOWN_LAST_NAME: (
        "test_messages_admin_products.py::test_an_admin_whose_account_cannot_be_read_is_unknown_user"
    ),
    ProductFormMessage.NAME_REQUIRED: (
        "test_admin_wizard.py::test_the_local_form_shows_the_first_message_on_an_empty_submit"
    ),
    ProductFormMessage.DESCRIPTION_REQUIRED: (
        "test_messages_admin_products.py::test_the_local_form_shows_each_validation_message"
    ),
    ProductFormMessage.PRICE_NOT_POSITIVE: (
        "test_messages_admin_products.py::test_the_local_form_shows_each_validation_message"
    ),
    ProductFormMessage.SALE_NOT_BELOW_PRICE: (
        "test_messages_admin_products.py::test_the_local_form_shows_each_validation_message"
    ),
    ProductFormMessage.NOT_AN_IMAGE: (
        "test_admin_wizard.py::test_an_admin_creates_a_product_in_six_steps_and_the_shop_shows_it"
    ),
    ProductFormMessage.IMAGE_TOO_LARGE: (
        "test_admin_wizard.py::test_an_admin_creates_a_product_in_six_steps_and_the_shop_shows_it"
    ),
    ProductFormMessage.SELECT_GROUP_AND_SCENT: (
        "test_messages_admin_products.py::test_manage_products_edits_archives_and_checks_a_conversion"
    ),
    ProductFormMessage.NEW_VESSEL_NAME_REQUIRED: (
        "test_messages_admin_products.py::test_manage_products_edits_archives_and_checks_a_conversion"
    ),
    ProductFormMessage.GROUP_NOT_FOUND: (
        "test_messages_admin_products.py::test_manage_products_edits_archives_and_checks_a_conversion"
    ),
    # The Add Scent dialog's own member; its twin CheckoutMessage.REQUIRED_FIELDS (same text) is in
    # the checkout section's table, so the two are not one key of a dict.
    ProductFormMessage.REQUIRED_FIELDS: (
        "test_admin_products.py::test_add_a_scent_to_a_group_and_find_it_in_the_shop"
    ),
    ProductAdminMessage.LOAD_FAILED: (
        "test_messages_admin_products.py::test_manage_products_reports_each_failure_of_the_database"
    ),
    ProductAdminMessage.CREATED_EVERYWHERE: (
        "test_admin_wizard.py::test_an_admin_creates_a_product_in_six_steps_and_the_shop_shows_it"
    ),
    ProductAdminMessage.CREATED_LOCALLY: (
        "test_messages_admin_products.py::test_a_product_square_refuses_is_created_here_only"
    ),
    ProductAdminMessage.CREATE_FAILED: (
        "test_messages_admin_products.py::test_the_wizard_reports_a_product_that_could_not_be_created"
    ),
    ProductAdminMessage.DELETED_EVERYWHERE: (  # a product the wizard also created in Square
        "test_messages_admin_products.py::test_the_wizard_says_publishing_and_the_sync_says_starting"
    ),
    ProductAdminMessage.DELETED_LOCALLY: (  # a product that was never in Square
        "test_admin_dashboard.py::test_an_admin_searches_sorts_deletes_and_renames_the_shop"
    ),
    ProductAdminMessage.SQUARE_DELETE_FAILED: (
        "test_messages_admin_products.py::test_a_product_square_cannot_delete_is_deleted_here_with_a_warning"
    ),
    ProductAdminMessage.CONFIRM_ARCHIVE_INSTEAD: (
        "test_messages_admin_products.py::test_the_dashboard_asks_to_archive_and_says_a_product_is_gone"
    ),
    ProductAdminMessage.ARCHIVED_INSTEAD: (
        "test_admin_products.py::test_an_ordered_product_is_archived_instead_of_deleted"
    ),
    ProductAdminMessage.DELETE_FAILED: (
        "test_messages_admin_products.py::test_the_dashboard_asks_to_archive_and_says_a_product_is_gone"
    ),
    ProductAdminMessage.VARIANT_ORDERED: (
        "test_messages_admin_products.py::test_grouped_view_deactivates_and_deletes_variants"
    ),
    ProductAdminMessage.VARIANT_DELETED: (
        "test_messages_admin_products.py::test_grouped_view_deactivates_and_deletes_variants"
    ),
    ProductAdminMessage.VARIANT_DELETE_FAILED: (
        "test_messages_admin_products.py::test_grouped_view_reports_each_failure_of_the_database"
    ),
    ProductAdminMessage.ARCHIVED: (
        "test_messages_admin_products.py::test_manage_products_edits_archives_and_checks_a_conversion"
    ),
    ProductAdminMessage.ACTIVATED: (
        "test_messages_admin_products.py::test_manage_products_edits_archives_and_checks_a_conversion"
    ),
    ProductAdminMessage.STATUS_FAILED: (
        "test_messages_admin_products.py::test_manage_products_reports_each_failure_of_the_database"
    ),
    ProductAdminMessage.DEACTIVATED: (
        "test_messages_admin_products.py::test_grouped_view_deactivates_and_deletes_variants"
    ),
    ProductAdminMessage.DEACTIVATE_FAILED: (
        "test_messages_admin_products.py::test_grouped_view_reports_each_failure_of_the_database"
    ),
    ProductAdminMessage.UPDATED: (
        "test_messages_admin_products.py::test_manage_products_edits_archives_and_checks_a_conversion"
    ),
    ProductAdminMessage.UPDATE_FAILED: (
        "test_messages_admin_products.py::test_manage_products_reports_each_failure_of_the_database"
    ),
    ProductAdminMessage.CHANGED_ELSEWHERE: (
        "test_messages_admin_products.py::test_two_tabs_editing_one_product_the_later_save_undoes_nothing"
    ),
    ProductAdminMessage.SYNC_STARTING: (
        "test_messages_admin_products.py::test_the_wizard_says_publishing_and_the_sync_says_starting"
    ),
    ProductAdminMessage.SYNC_DONE: (
        "test_admin_products.py::test_sync_from_square_runs_in_the_background_and_reports"
    ),
    ProductAdminMessage.SYNC_FAILED: (
        "test_messages_admin_products.py::test_manage_products_reports_each_failure_of_the_database"
    ),
    ProductAdminMessage.CONVERTED_TO_VARIANT: (
        "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product"
    ),
    ProductAdminMessage.CONVERT_TO_VARIANT_FAILED: (
        "test_messages_admin_products.py::test_manage_products_reports_each_failure_of_the_database"
    ),
    ProductAdminMessage.VARIANT_ADDED: (
        "test_admin_products.py::test_add_a_scent_to_a_group_and_find_it_in_the_shop"
    ),
    ProductAdminMessage.VARIANT_ADD_FAILED: (
        "test_messages_admin_products.py::test_grouped_view_reports_each_failure_of_the_database"
    ),
    ProductAdminMessage.CONVERTED_TO_STANDALONE: (
        "test_admin_products.py::test_convert_to_a_variant_and_back_to_a_single_product"
    ),
    ProductAdminMessage.CONVERT_TO_STANDALONE_FAILED: (
        "test_messages_admin_products.py::test_grouped_view_reports_each_failure_of_the_database"
    ),
    BackendMessage.UNKNOWN_ERROR: (
        "test_messages_admin_products.py::test_the_wizard_reports_a_product_that_could_not_be_created"
    ),
    BackendMessage.SYNC_FAILED: (
        "test_messages_square_api.py::test_reading_and_syncing_squares_catalogue_while_square_is_down"
    ),
    BackendMessage.FETCH_PRODUCTS_FAILED: (
        "test_messages_square_api.py::test_reading_and_syncing_squares_catalogue_while_square_is_down"
    ),
    BackendMessage.CATALOG_CREATE_FAILED: (
        "test_messages_square_api.py::test_creating_an_item_in_square_while_square_refuses"
    ),
    BackendMessage.INVENTORY_SYNC_FAILED: (
        "test_messages_square_api.py::test_pushing_the_stock_to_square_while_square_is_down"
    ),
    ProductDraftText.IMAGE_HINT: (
        "test_admin_wizard.py::test_an_admin_creates_a_product_in_six_steps_and_the_shop_shows_it"
    ),
    ProductDraftText.PUBLISHING: (
        "test_messages_admin_products.py::test_the_wizard_says_publishing_and_the_sync_says_starting"
    ),
}

NOT_SHOWN: dict[StrEnum, str] = {
    # The seed's local form refused these; the three product editors now share one rule set
    # (domain/product_editing.py, docs/spec/admin-products.md#one-editor; issue 17, acceptance 4).
    ProductFormMessage.ID_REQUIRED: (
        "the Product ID (SKU) is optional in every product editor, as in the wizard: left empty, one "
        "is made from the name"
    ),
    ProductFormMessage.IMAGE_REQUIRED: (
        "images are optional in every product editor, as in the wizard: a product synced from "
        "Square has none and must still be editable and restockable"
    ),
    ProductFormMessage.SCENT_NOTE_REQUIRED: (
        "scent notes are optional in every product editor: demo products without any (the "
        "unscented lotion, the custom candle vessels) must save unchanged"
    ),
    BackendMessage.API_ERROR: (
        "the seed's browser client wraps the HTTP errors of its separate back end as 'Backend API "
        "Error: …'; the shop's pages call its services in-process (a failure is shown as the screen's "
        "own message, e.g. 'Sync failed: …'), and its JSON routes answer with their own error field"
    ),
    BackendMessage.INVALID_JSON: (
        "the seed's browser reads its separate back end's HTTP answers; the shop's states call its "
        "services in-process, so there is no JSON answer to be malformed"
    ),
    BackendMessage.EMPTY_RESPONSE: (
        "the seed's browser reads its separate back end's HTTP answers; the shop's states call its "
        "services in-process, so there is no answer to be empty"
    ),
    BackendMessage.IMAGE_UPLOAD_DISABLED: (
        "the only answer of the seed's disabled Square catalogue image upload endpoint; the shop has "
        "no such endpoint and no screen uploads images to Square (product images are stored by the "
        "shop itself; the catalogue route ignores image_ids)"
    ),
}
