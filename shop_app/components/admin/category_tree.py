"""The category hierarchy of Manage Categories: main categories with their subcategories nested,
and the orphaned subcategories apart (docs/spec/admin-categories.md#screen)."""

from __future__ import annotations

import reflex as rx

from shop_app.state.admin.categories import BranchItem, CategoryItem
from shop_app.state.admin.categories import CategoriesState as S


def _status(item: CategoryItem) -> rx.Component:
    return rx.cond(
        item.is_active,
        rx.badge("Active", color_scheme="green"),
        rx.badge("Inactive", color_scheme="gray"),
    )


def _details(item: CategoryItem, *, heading: bool) -> rx.Component:
    name = rx.heading(item.name, size="4", as_="h3") if heading else rx.text(item.name, weight="medium")
    return rx.vstack(
        rx.hstack(
            name,
            _status(item),
            rx.text("Sort: ", item.sort_order, size="1", color_scheme="gray"),
            align="center",
            wrap="wrap",
        ),
        rx.cond(item.description != "", rx.text(item.description, size="2", color_scheme="gray")),
        spacing="1",
        # At least 12rem before the buttons beside it wrap below (on a phone the buttons kept the
        # row and squeezed the name under them and the description to a word a line).
        flex="1 1 12rem",
        min_width="0",
    )


def _edit_button(item: CategoryItem) -> rx.Component:
    return rx.button(
        rx.icon("pencil", size=14),
        "Edit",
        size="1",
        variant="soft",
        on_click=S.open_edit(item.id),
        aria_label="Edit " + item.name,
    )


def _delete_button(item: CategoryItem) -> rx.Component:
    return rx.button(
        rx.icon("trash-2", size=14),
        "Delete",
        size="1",
        variant="soft",
        color_scheme="red",
        on_click=S.ask_delete(item.id),
        aria_label="Delete " + item.name,
    )


def _subcategory(item: CategoryItem) -> rx.Component:
    return rx.el.li(
        rx.hstack(
            _details(item, heading=False),
            rx.hstack(_edit_button(item), _delete_button(item), spacing="2"),
            align="start",
            width="100%",
        ),
        class_name="category-subcategory",
        padding="0.5rem 0.75rem",
        border_left=f"3px solid {rx.color('accent', 6)}",
    )


def _branch(branch: BranchItem) -> rx.Component:
    main = branch.category
    return rx.el.li(
        rx.card(
            rx.vstack(
                rx.hstack(
                    _details(main, heading=True),
                    rx.hstack(
                        rx.button(
                            rx.icon("plus", size=14),
                            "Add Subcategory",
                            size="1",
                            variant="outline",
                            on_click=S.open_add_subcategory(main.id),
                            aria_label="Add subcategory to " + main.name,
                        ),
                        _edit_button(main),
                        _delete_button(main),
                        spacing="2",
                        wrap="wrap",
                    ),
                    align="start",
                    width="100%",
                    wrap="wrap",
                ),
                rx.cond(
                    branch.subcategories.length() > 0,
                    rx.el.ul(
                        rx.foreach(branch.subcategories, _subcategory),
                        aria_label="Subcategories of " + main.name,
                        class_name="category-subcategories",
                        width="100%",
                        padding_left="1rem",
                        display="flex",
                        flex_direction="column",
                        gap="0.5rem",
                    ),
                    rx.text("No subcategories", size="1", color_scheme="gray", padding_left="1rem"),
                ),
                spacing="3",
            ),
            width="100%",
        ),
    )


def category_tree() -> rx.Component:
    """Every main category, in display order, with its subcategories."""
    return rx.cond(
        S.branches.length() > 0,
        rx.el.ul(
            rx.foreach(S.branches, _branch),
            aria_label="Category hierarchy",
            width="100%",
            display="flex",
            flex_direction="column",
            gap="1rem",
        ),
        rx.cond(
            S.loaded,
            rx.card(rx.text("No categories yet. Add a main category to get started."), width="100%"),
        ),
    )


def category_orphans() -> rx.Component:
    """Subcategories whose parent is missing or not a main category, each with Edit."""
    return rx.cond(
        S.orphans.length() > 0,
        rx.callout.root(
            rx.callout.icon(rx.icon("triangle-alert")),
            rx.vstack(
                rx.heading("Orphaned Subcategories", size="3", as_="h2"),
                rx.text(
                    "These subcategories have no main category above them. Edit each one to choose a "
                    "parent, or to make it a main category.",
                    size="2",
                ),
                rx.el.ul(
                    rx.foreach(
                        S.orphans,
                        lambda item: rx.el.li(
                            rx.hstack(_details(item, heading=False), _edit_button(item), width="100%"),
                        ),
                    ),
                    width="100%",
                    display="flex",
                    flex_direction="column",
                    gap="0.5rem",
                ),
                spacing="2",
                width="100%",
            ),
            color_scheme="amber",
            width="100%",
        ),
    )
