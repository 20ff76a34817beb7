"""Manage Categories (/admin/manage-categories, docs/spec/admin-categories.md#screen): figures, the hierarchy,
the orphaned subcategories and the category dialogs."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.category_dialog import category_delete_dialog, category_dialog
from shop_app.components.admin.category_tree import category_orphans, category_tree
from shop_app.components.admin.page_header import back_to_dashboard_link
from shop_app.components.admin.product_parts import figure_card, stats_grid
from shop_app.state.admin.categories import CategoriesState as S


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
        stats_grid(
            figure_card("Total", S.total),
            figure_card("Main", S.mains),
            figure_card("Subcategories", S.subcategories),
            figure_card("Active", S.active),
        ),
        category_orphans(),
        category_tree(),
        category_dialog(),
        category_delete_dialog(),
        spacing="5",
        max_width="1200px",
        width="100%",
    )
