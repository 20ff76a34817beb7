"""The category dialog (create or edit) and the delete confirmation of Manage Categories.

The dialog keeps everything typed when the server refuses a change: the message shows inside
it and it stays open (docs/architecture.md#bad-input).
"""

from __future__ import annotations

import reflex as rx

from shop_app.domain.categories import NAME_MAX_LENGTH
from shop_app.state.admin.categories import EDIT
from shop_app.state.admin.categories import CategoriesState as S

_LABEL = {"font_size": "var(--font-size-2)", "font_weight": "500"}


def _labelled(label: str, input_id: str, control: rx.Component, *hints: rx.Component) -> rx.Component:
    return rx.vstack(
        rx.el.label(label, html_for=input_id, **_LABEL), control, *hints, spacing="1", width="100%"
    )


def _parent_selector() -> rx.Component:
    """Shown unless adding under a given parent (docs/spec/admin-categories.md#rules); never offers the edited
    category."""
    return rx.cond(
        S.fixed_parent_id == 0,
        rx.vstack(
            rx.text("Parent category", **_LABEL),
            rx.select.root(
                rx.select.trigger(custom_attrs={"aria-label": "Parent category"}, width="100%"),
                rx.select.content(
                    rx.foreach(S.parent_options, lambda o: rx.select.item(o.label, value=o.value))
                ),
                value=S.parent,
                on_change=S.set_parent,
                disabled=S.keeps_subcategories,
            ),
            rx.cond(
                S.keeps_subcategories,
                rx.text(
                    "This category has subcategories, so it stays a main category: categories have "
                    "only two levels. Move or delete its subcategories to make it a subcategory.",
                    size="1",
                    color_scheme="gray",
                ),
            ),
            spacing="1",
            width="100%",
        ),
        rx.text("Parent category: ", rx.text.strong(S.fixed_parent_name), size="2"),
    )


def category_dialog() -> rx.Component:
    """Add Main Category, Add Subcategory or Edit Category."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.vstack(
                rx.dialog.title(S.dialog_title, margin="0"),
                rx.dialog.description(
                    "Name, description, place in the hierarchy and order of the category.",
                    size="2",
                    color_scheme="gray",
                ),
                _labelled(
                    "Name *",
                    "category-name",
                    rx.input(
                        id="category-name",
                        value=S.name,
                        on_change=S.set_name,
                        max_length=NAME_MAX_LENGTH,
                        required=True,
                        width="100%",
                    ),
                ),
                _labelled(
                    "Description",
                    "category-description",
                    rx.text_area(
                        id="category-description",
                        value=S.description,
                        on_change=S.set_description,
                        rows="3",
                        width="100%",
                    ),
                ),
                _parent_selector(),
                _labelled(
                    "Sort order",
                    "category-sort-order",
                    rx.input(
                        id="category-sort-order",
                        type="number",
                        step=1,
                        value=S.sort_order,
                        on_change=S.set_sort_order,
                        width="8rem",
                    ),
                    rx.text("Lower numbers come first.", size="1", color_scheme="gray"),
                ),
                rx.text(
                    rx.hstack(
                        rx.checkbox(checked=S.is_active, on_change=S.set_is_active),
                        "Active (shown in the shop)",
                        spacing="2",
                    ),
                    as_="label",
                    size="2",
                ),
                rx.cond(
                    S.error != "",
                    rx.callout(S.error, icon="circle-alert", color_scheme="red", role="alert", width="100%"),
                ),
                rx.hstack(
                    rx.dialog.close(rx.button("Cancel", variant="soft", color_scheme="gray")),
                    rx.button(
                        rx.cond(S.mode == EDIT, "Update Category", "Create Category"),
                        on_click=S.save,
                        disabled=~S.can_save,
                        loading=S.saving,
                    ),
                    justify="end",
                    width="100%",
                ),
                spacing="4",
            ),
            max_width="32rem",
        ),
        open=S.dialog_open,
        on_open_change=S.set_dialog_open,
    )


def category_delete_dialog() -> rx.Component:
    """Delete Category: says what the deletion does, or what stops it."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.vstack(
                rx.alert_dialog.title("Delete Category", margin="0"),
                rx.alert_dialog.description(
                    rx.cond(
                        S.delete_blocker != "",
                        S.delete_blocker,
                        rx.text(
                            'Are you sure you want to delete "',
                            S.delete_name,
                            '"? It holds no subcategories and no products, so nothing else changes. '
                            "This cannot be undone.",
                        ),
                    ),
                    size="2",
                ),
                rx.hstack(
                    rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray")),
                    rx.button(
                        "Delete",
                        color_scheme="red",
                        on_click=S.confirm_delete,
                        disabled=S.delete_blocker != "",
                        loading=S.deleting,
                    ),
                    justify="end",
                    width="100%",
                ),
                spacing="4",
            ),
            max_width="30rem",
        ),
        open=S.delete_open,
        on_open_change=S.set_delete_open,
    )
