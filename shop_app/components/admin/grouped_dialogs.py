"""The grouped view's dialogs: Add New Scent Variant, Convert to Single Product, Delete Product Variant."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.product_parts import (
    confirm_dialog,
    field,
    form_dialog,
    money_input,
    text_input,
    two_columns,
)
from shop_app.state.admin.products_grouped import GroupedProductsState as S


def add_scent_dialog() -> rx.Component:
    """Add New Scent Variant: scent name (required), price, sale price and stock."""
    return form_dialog(
        "Add New Scent Variant",
        ("A new scent of ", rx.text.strong(S.scent_group), "."),
        field(
            "Scent Name *",
            text_input(
                S.scent_name,
                lambda v: S.set_scent_field("name", v),
                placeholder="e.g. Lavender Fields",
            ),
        ),
        two_columns(
            field(
                "Price ($)",
                money_input(
                    S.scent_price,
                    lambda v: S.set_scent_field("price", v),
                    placeholder=S.scent_group_price,
                ),
                hint="Leave empty to use the group's price",
            ),
            field(
                "Sale Price ($)",
                money_input(S.scent_sale_price, lambda v: S.set_scent_field("sale_price", v)),
            ),
        ),
        field(
            "Stock Quantity",
            text_input(
                S.scent_stock,
                lambda v: S.set_scent_field("stock", v),
                input_type="number",
                min="0",
                placeholder="0",
            ),
        ),
        action="Add Variant",
        on_save=S.save_scent,
        open_=S.scent_open,
        on_open_change=S.set_scent_open,
    )


def variant_dialogs() -> rx.Component:
    """Convert to Single Product and Delete Product Variant confirmations."""
    return rx.fragment(
        confirm_dialog(
            title="Convert to Single Product",
            question=rx.Var.create("\u201c")
            + S.target_name
            + "\u201d will become the standalone product \u201c"
            + S.single_preview
            + "\u201d and be set active.",
            action="Convert",
            on_confirm=S.confirm_single,
            open_=S.single_open,
            on_open_change=S.set_single_open,
            color="blue",
        ),
        confirm_dialog(
            title="Delete Product Variant",
            question=rx.Var.create("Are you sure you want to delete \u201c")
            + S.target_name
            + "\u201d? This cannot be undone.",
            action="Delete",
            on_confirm=S.confirm_delete,
            open_=S.delete_open,
            on_open_change=S.set_delete_open,
        ),
    )
