"""Back-office site messages: categories, administrators and the website's images. (See
``__init__`` for what the tables mean.)"""

from __future__ import annotations

from enum import StrEnum

from shop_app.domain.admin_messages import AdminUserMessage, CategoryMessage, WebsiteImageMessage

_PEOPLE = "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer"
_ADMINS_FAIL = (
    "test_messages_admin_site.py::test_admin_changes_the_database_cannot_take_fail_with_the_seeds_messages"
)
_IMAGES = "test_messages_admin_site.py::test_website_image_uploads_removals_and_failed_saves_are_told"
_NO_TABLE = (
    "test_messages_admin_site.py::"
    "test_without_the_website_images_table_the_screen_shows_the_static_images_and_cannot_save"
)

SHOWN: dict[StrEnum, str] = {
    CategoryMessage.LOAD_FAILED: "test_messages_admin_site.py::test_categories_that_cannot_be_read_say_so",
    CategoryMessage.CREATED: (
        "test_admin_categories_images.py::test_categories_edited_in_the_back_office_change_the_shops_pills"
    ),
    AdminUserMessage.ALL_FIELDS: _PEOPLE,
    AdminUserMessage.USER_NOT_FOUND: _PEOPLE,
    AdminUserMessage.ALREADY_ADMIN: _PEOPLE,
    AdminUserMessage.ADMIN_ADDED: _PEOPLE,
    AdminUserMessage.ADMIN_REMOVED: _PEOPLE,
    AdminUserMessage.LOAD_ADMINS_FAILED: _ADMINS_FAIL,
    AdminUserMessage.ADD_FAILED: _ADMINS_FAIL,
    AdminUserMessage.REMOVE_FAILED: _ADMINS_FAIL,
    AdminUserMessage.LOAD_USERS_FAILED: (
        "test_messages_admin_site.py::test_a_customer_row_that_cannot_be_read_fails_the_customer_list"
    ),
    AdminUserMessage.ACCESS_DENIED: (
        "test_messages_admin_site.py::test_a_customer_who_opens_a_back_office_link_reads_access_denied"
    ),
    WebsiteImageMessage.UPLOADED: "test_admin_categories_images.py::test_a_replaced_hero_image_is_the_home_pages_hero",
    WebsiteImageMessage.ALL_SAVED: "test_admin_categories_images.py::test_a_replaced_hero_image_is_the_home_pages_hero",
    WebsiteImageMessage.REMOVED: _IMAGES,
    WebsiteImageMessage.SAVE_FAILED: _IMAGES,
    WebsiteImageMessage.SAVE_TYPE_FAILED: _IMAGES,
    WebsiteImageMessage.UPLOAD_IMAGE_FAILED: _IMAGES,
    WebsiteImageMessage.STATIC_FALLBACK: _NO_TABLE,
    WebsiteImageMessage.TABLE_MISSING: _NO_TABLE,
    WebsiteImageMessage.CANNOT_SAVE_NO_TABLE: _NO_TABLE,
}

NOT_SHOWN: dict[StrEnum, str] = {
    WebsiteImageMessage.STORAGE_UPLOAD_FAILED: (
        "the seed uploads to a storage service and falls back to a local preview; the shop stores an "
        "upload in its own media folder at once and has no preview that is not stored (a failed "
        "upload is WebsiteImageMessage.UPLOAD_IMAGE_FAILED)"
    ),
    WebsiteImageMessage.UPLOAD_BEFORE_SAVING: (
        "the seed can hold a local preview not yet in its storage service; every preview of the "
        "shop is an upload already stored in its media folder, so there is nothing to upload first"
    ),
    WebsiteImageMessage.UPLOAD_FILE_FAILED: (
        "the seed's per-file upload to its storage service; a website image slot of the shop takes "
        "one file, and its failure is WebsiteImageMessage.UPLOAD_IMAGE_FAILED"
    ),
    WebsiteImageMessage.UPLOAD_IMAGES_FAILED: (
        "the seed's several-files upload to its storage service; a website image slot of the shop "
        "takes one file, and its failure is WebsiteImageMessage.UPLOAD_IMAGE_FAILED"
    ),
    WebsiteImageMessage.DELETE_FAILED: (
        "the seed deletes a removed image from its storage service at once; the shop deletes rows "
        "only in Save All Changes' one transaction (WebsiteImageMessage.SAVE_FAILED when it fails) "
        "and removes old files after the commit, quietly (an unreferenced file is swept later)"
    ),
}
