"""Manage Categories (/admin/manage-categories, docs/spec/admin-categories.md#screen): figures, the hierarchy,
the orphaned subcategories and the category dialogs."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.category_dialog import category_delete_dialog, category_dialog
from shop_app.components.admin.category_tree import category_orphans, category_tree
from shop_app.components.admin.page_header import back_to_dashboard_link
from shop_app.state.admin.categories import CategoriesState as S


def _stat(label: str, value: rx.Var[int]) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(label, size="2", color_scheme="gray"),
            rx.text(value, size="7", weight="bold", as_="p"),
            spacing="1",
        )
    )


def manage_categories() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        back_to_dashboard_link(),
        rx.hstack(
            rx.heading("Manage Categories", size="8", as_="h1"),
            rx.button(rx.icon("plus", size=16), "Add Main Category", on_click=S.open_add_main),
            justify="between",
            align="center",
            width="100%",
            wrap="wrap",
        ),
        rx.grid(
            _stat("Total", S.total),
            _stat("Main", S.mains),
            _stat("Subcategories", S.subcategories),
            _stat("Active", S.active),
            columns=rx.breakpoints(initial="2", md="4"),
            spacing="4",
            width="100%",
        ),
        category_orphans(),
        category_tree(),
        category_dialog(),
        category_delete_dialog(),
        spacing="5",
        max_width="1200px",
        width="100%",
    )
