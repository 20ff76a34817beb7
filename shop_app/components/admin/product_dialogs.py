"""The individual view's dialogs: Edit Product, Convert to Variant, Delete Product, archive instead."""

from __future__ import annotations

from typing import Any

import reflex as rx

from shop_app.components.admin.product_parts import (
    delete_or_archive_dialogs,
    field,
    form_dialog,
    money_input,
    select,
    switch,
    text_input,
    two_columns,
)
from shop_app.domain.product_draft import DraftField
from shop_app.services.admin.variants import NEW_GROUP
from shop_app.state.admin.product_views import NONE
from shop_app.state.admin.products import ProductConvertState as C
from shop_app.state.admin.products import ProductDeleteState
from shop_app.state.admin.products import ProductEditState as S

UPDATE_NEEDS = "Update needs a product name and a base price above 0."


def _category_items(choices: rx.Var) -> rx.Component:
    return rx.fragment(
        rx.select.item("None", value=NONE),
        rx.foreach(choices, lambda c: rx.select.item(c.label, value=c.value)),
    )


def _error_id(key: DraftField) -> str:
    return f"edit-product-{key.value}-error"


def _described(key: DraftField) -> dict[str, Any]:
    """The input's link to its message (and whether it has one), for screen readers."""
    invalid = S.edit_errors.contains(key.value)
    attributes = {"aria-invalid": rx.cond(invalid, "true", "false"), "aria-describedby": _error_id(key)}
    return {"custom_attrs": attributes}


def _checked(label: str, control: rx.Component, key: DraftField) -> rx.Component:
    """A field with the message the editors' rules give it, under it (outside its label)."""
    return rx.vstack(
        field(label, control),
        rx.cond(
            S.edit_errors.contains(key.value),
            rx.text(S.edit_errors[key.value], id=_error_id(key), color_scheme="red", size="2"),
            rx.fragment(),
        ),
        spacing="1",
        width="100%",
    )


def edit_dialog() -> rx.Component:
    """Edit Product: the editors' main fields and the Active, Featured and New Arrival switches."""
    return form_dialog(
        "Edit Product",
        ("Change the product's details.",),
        _checked(
            "Product Name",
            text_input(S.edit_name, lambda v: S.set_edit_field("name", v), **_described(DraftField.NAME)),
            DraftField.NAME,
        ),
        _checked(
            "Description",
            rx.text_area(
                value=S.edit_description,
                on_change=lambda v: S.set_edit_field("description", v),
                rows="3",
                width="100%",
                **_described(DraftField.DESCRIPTION),
            ),
            DraftField.DESCRIPTION,
        ),
        two_columns(
            _checked(
                "Base Price ($)",
                money_input(
                    S.edit_base_price,
                    lambda v: S.set_edit_field("base_price", v),
                    **_described(DraftField.BASE_PRICE),
                ),
                DraftField.BASE_PRICE,
            ),
            _checked(
                "Sale Price ($)",
                money_input(
                    S.edit_sale_price,
                    lambda v: S.set_edit_field("sale_price", v),
                    **_described(DraftField.SALE_PRICE),
                ),
                DraftField.SALE_PRICE,
            ),
        ),
        two_columns(
            _checked(
                "Category",
                select("Category", S.edit_category, S.set_edit_category, _category_items(S.edit_categories)),
                DraftField.CATEGORY,
            ),
            _checked(
                "Collection",
                select(
                    "Collection",
                    S.edit_subcategory,
                    S.set_edit_subcategory,
                    _category_items(S.edit_subcategories),
                ),
                DraftField.SUBCATEGORY,
            ),
        ),
        _checked(
            "Stock Quantity",
            text_input(
                S.edit_stock,
                lambda v: S.set_edit_field("stock", v),
                input_type="number",
                min="0",
                step="1",
                **_described(DraftField.STOCK),
            ),
            DraftField.STOCK,
        ),
        rx.hstack(
            switch("Active", S.edit_active, lambda v: S.set_edit_flag("active", v)),
            switch("Featured", S.edit_featured, lambda v: S.set_edit_flag("featured", v)),
            switch("New Arrival", S.edit_new, lambda v: S.set_edit_flag("new", v)),
            spacing="5",
            wrap="wrap",
        ),
        # Why Update is greyed out: a number field emptied by letters ("abc", "1e") says nothing itself.
        rx.cond(~S.can_update, rx.text(UPDATE_NEEDS, size="2", color_scheme="gray")),
        action="Update",
        on_save=S.save_edit,
        open_=S.edit_open,
        on_open_change=S.set_edit_open,
        disabled=~S.can_update,
        max_width="36rem",
    )


def convert_dialog() -> rx.Component:
    """Convert to Variant: an existing vessel group or a new one, and the scent name."""
    return form_dialog(
        "Convert to Variant",
        ("Make ", rx.text.strong(C.convert_product), " a scent variant of a vessel group."),
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
                C.convert_scent, lambda v: C.set_convert_field("scent", v), placeholder="e.g. Lavender"
            ),
        ),
        action="Convert",
        on_save=C.save_convert,
        open_=C.convert_open,
        on_open_change=C.set_convert_open,
    )


def delete_dialogs() -> rx.Component:
    """Delete Product, and the archive-instead question when the product has been ordered."""
    return delete_or_archive_dialogs(ProductDeleteState)
