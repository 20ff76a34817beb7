"""Back-office site messages: categories, administrators and the website's images. (See
``__init__`` for what the tables mean.)"""

from __future__ import annotations

from enum import StrEnum

from shop_app.domain.admin_messages import AdminUserMessage, CategoryMessage, WebsiteImageMessage

SHOWN: dict[StrEnum, str] = {
    CategoryMessage.CREATED: (
        "test_admin_categories_images.py::test_categories_edited_in_the_back_office_change_the_shops_pills"
    ),
    AdminUserMessage.ALL_FIELDS: "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer",
    AdminUserMessage.USER_NOT_FOUND: (
        "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer"
    ),
    AdminUserMessage.ALREADY_ADMIN: (
        "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer"
    ),
    AdminUserMessage.ADMIN_ADDED: "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer",
    AdminUserMessage.ADMIN_REMOVED: (
        "test_admin_people.py::test_an_admin_adds_and_removes_an_admin_and_finds_a_customer"
    ),
    WebsiteImageMessage.UPLOADED: "test_admin_categories_images.py::test_a_replaced_hero_image_is_the_home_pages_hero",
    WebsiteImageMessage.ALL_SAVED: "test_admin_categories_images.py::test_a_replaced_hero_image_is_the_home_pages_hero",
}

NOT_SHOWN: dict[StrEnum, str] = {}
