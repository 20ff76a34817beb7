"""The individual view's dialogs: Edit Product, Convert to Variant, Delete Product, archive instead."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.product_parts import (
    delete_or_archive_dialogs,
    dialog_buttons,
    field,
    select,
    switch,
    text_input,
)
from shop_app.services.admin.variants import NEW_GROUP
from shop_app.state.admin.product_views import NONE
from shop_app.state.admin.products import ProductConvertState as C
from shop_app.state.admin.products import ProductDeleteState
from shop_app.state.admin.products import ProductEditState as S


def _category_items(choices: rx.Var) -> rx.Component:
    return rx.fragment(
        rx.select.item("None", value=NONE),
        rx.foreach(choices, lambda c: rx.select.item(c.label, value=c.value)),
    )


def edit_dialog() -> rx.Component:
    """Edit Product: the main fields and the Active, Featured and New Arrival switches."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Edit Product"),
            rx.dialog.description("Change the product's details.", size="2", color_scheme="gray"),
            rx.vstack(
                field("Product Name", text_input(S.edit_name, lambda v: S.set_edit_field("name", v))),
                field(
                    "Description",
                    rx.text_area(
                        value=S.edit_description,
                        on_change=lambda v: S.set_edit_field("description", v),
                        rows="3",
                        width="100%",
                    ),
                ),
                rx.grid(
                    field(
                        "Base Price ($)",
                        text_input(
                            S.edit_base_price,
                            lambda v: S.set_edit_field("base_price", v),
                            input_type="number",
                            step="0.01",
                            min="0",
                        ),
                    ),
                    field(
                        "Sale Price ($)",
                        text_input(
                            S.edit_sale_price,
                            lambda v: S.set_edit_field("sale_price", v),
                            input_type="number",
                            step="0.01",
                            min="0",
                        ),
                    ),
                    columns="2",
                    spacing="3",
                    width="100%",
                ),
                rx.grid(
                    field(
                        "Category",
                        select(
                            "Category",
                            S.edit_category,
                            S.set_edit_category,
                            _category_items(S.edit_categories),
                        ),
                    ),
                    field(
                        "Subcategory",
                        select(
                            "Subcategory",
                            S.edit_subcategory,
                            S.set_edit_subcategory,
                            _category_items(S.edit_subcategories),
                        ),
                    ),
                    columns="2",
                    spacing="3",
                    width="100%",
                ),
                field(
                    "Stock Quantity",
                    text_input(
                        S.edit_stock, lambda v: S.set_edit_field("stock", v), input_type="number", min="0"
                    ),
                ),
                rx.hstack(
                    switch("Active", S.edit_active, lambda v: S.set_edit_flag("active", v)),
                    switch("Featured", S.edit_featured, lambda v: S.set_edit_flag("featured", v)),
                    switch("New Arrival", S.edit_new, lambda v: S.set_edit_flag("new", v)),
                    spacing="5",
                    wrap="wrap",
                ),
                dialog_buttons("Update", S.save_edit, disabled=~S.can_update),
                spacing="3",
                margin_top="0.5rem",
            ),
            max_width="36rem",
        ),
        open=S.edit_open,
        on_open_change=S.set_edit_open,
    )


def convert_dialog() -> rx.Component:
    """Convert to Variant: an existing vessel group or a new one, and the scent name."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Convert to Variant"),
            rx.dialog.description(
                "Make ",
                rx.text.strong(C.convert_product),
                " a scent variant of a vessel group.",
                size="2",
                color_scheme="gray",
            ),
            rx.vstack(
                field(
                    "Vessel Group",
                    select(
                        "Vessel Group",
                        C.convert_group,
                        lambda v: C.set_convert_field("group", v),
                        rx.fragment(
                            rx.select.item("+ Create new vessel group", value=NEW_GROUP),
                            rx.foreach(C.group_names, lambda name: rx.select.item(name, value=name)),
                        ),
                        placeholder="Select a vessel group",
                    ),
                ),
                rx.cond(
                    C.convert_group == NEW_GROUP,
                    field(
                        "New Vessel Name",
                        text_input(
                            C.convert_new_vessel,
                            lambda v: C.set_convert_field("new_vessel", v),
                            placeholder="e.g. Matte White",
                        ),
                    ),
                ),
                field(
                    "Scent Name",
                    text_input(
                        C.convert_scent,
                        lambda v: C.set_convert_field("scent", v),
                        placeholder="e.g. Lavender",
                    ),
                ),
                dialog_buttons("Convert", C.save_convert),
                spacing="3",
                margin_top="0.5rem",
            ),
            max_width="30rem",
        ),
        open=C.convert_open,
        on_open_change=C.set_convert_open,
    )


def delete_dialogs() -> rx.Component:
    """Delete Product, and the archive-instead question when the product has been ordered."""
    return delete_or_archive_dialogs(ProductDeleteState)
