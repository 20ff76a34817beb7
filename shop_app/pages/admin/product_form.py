"""/admin/products/new and /admin/products/edit/{id}: the full-page product form
(docs/spec/admin-products.md#local-form, #one-editor).

The Product ID is the product's SKU (its code): optional when adding (one is made from the name),
read-only in edit mode. The stock is here too: the low-stock mail's "Restock" link opens this form.
"""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.admin.draft_fields import draft_input, draft_select, field_error, flag, money_input
from shop_app.components.admin.image_picker import image_picker
from shop_app.components.admin.page_header import title_with_back_button
from shop_app.components.link_button import link_button
from shop_app.domain.admin_messages import ProductDraftText
from shop_app.state.admin.product_form import ProductFormState as S

P = "product-form"
UPLOAD_ID = "product-form-images"


def _scent_notes() -> rx.Component:
    return rx.vstack(
        rx.el.label(
            "Scent Notes", html_for=f"{P}-scent-note", font_size="var(--font-size-2)", font_weight="500"
        ),
        # A small form of its own: Enter in the box or the Add button submits the typed note.
        rx.form(
            rx.hstack(
                rx.input(
                    id=f"{P}-scent-note",
                    name="scent_note",
                    placeholder="e.g. Lavender",
                    size="3",
                    flex="1",
                    custom_attrs={"aria-describedby": f"{P}-scent_notes-error"},
                ),
                rx.button("Add", type="submit", variant="soft", size="3"),
                width="100%",
            ),
            on_submit=S.add_scent_note,
            reset_on_submit=True,
            width="100%",
        ),
        rx.hstack(
            rx.foreach(
                S.scent_notes,
                lambda note, index: rx.badge(
                    note,
                    rx.icon_button(
                        rx.icon("x", size=12),
                        type="button",
                        size="1",
                        variant="ghost",
                        aria_label="Remove scent note " + note,
                        on_click=S.remove_scent_note(index),
                    ),
                    size="2",
                    variant="soft",
                ),
            ),
            wrap="wrap",
            spacing="2",
        ),
        field_error(S, "scent_notes", f"{P}-scent_notes-error"),
        spacing="2",
        width="100%",
    )


def _fields() -> rx.Component:
    return rx.vstack(
        rx.grid(
            draft_input(
                S,
                "Product ID",
                "sku",
                id_prefix=P,
                read_only=S.editing,
                hint=rx.cond(
                    S.editing,
                    "Locked: the ID cannot change.",
                    "The product's code (SKU). Optional: left empty, one is made from the name.",
                ),
            ),
            draft_input(S, "Product Name", "name", id_prefix=P, required=True),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="4",
            width="100%",
        ),
        draft_input(S, "Description", "description", id_prefix=P, required=True, multiline=True),
        rx.grid(
            draft_select(
                S,
                "Category",
                "category",
                S.categories,
                id_prefix=P,
                on_change=S.set_category,
                placeholder="Select a category",
                required=True,
            ),
            draft_select(
                S,
                "Collection",
                "subcategory",
                S.collections,
                id_prefix=P,
                on_change=lambda value: S.set_field("subcategory", value),
                placeholder="Select a collection",
                required=True,
            ),
            money_input(S, "Price ($)", "base_price", id_prefix=P, required=True),
            money_input(S, "Sale Price ($)", "sale_price", id_prefix=P),
            draft_input(
                S,
                "Stock Quantity",
                "stock_quantity",
                id_prefix=P,
                required=True,
                type="number",
                step="1",
                min="0",
            ),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="4",
            width="100%",
        ),
        rx.vstack(
            rx.text("Product Images", size="2", weight="medium"),
            image_picker(S, upload_id=UPLOAD_ID, error=field_error(S, "images", f"{P}-images-error")),
            spacing="1",
            width="100%",
        ),
        _scent_notes(),
        rx.heading("Details", size="3", as_="h2"),
        rx.grid(
            draft_input(S, "Size", "size", id_prefix=P, placeholder="8 oz"),
            draft_input(S, "Burn Time", "burn_time", id_prefix=P, placeholder="50-55 hours"),
            draft_input(S, "Ingredients", "ingredients", id_prefix=P, placeholder="Soy wax, cotton wick"),
            columns=rx.breakpoints(initial="1", sm="3"),
            spacing="4",
            width="100%",
        ),
        rx.hstack(
            flag("Featured", S.is_featured, S.set_featured),
            flag("New", S.is_new_arrival, S.set_new_arrival),
            spacing="5",
        ),
        rx.hstack(
            link_button("Cancel", routes.ADMIN, variant="soft", color_scheme="gray"),
            rx.button(
                rx.cond(S.saving, "Saving...", rx.cond(S.editing, "Update Product", "Add Product")),
                type="button",
                disabled=S.saving,
                on_click=S.save,
            ),
            justify="end",
            width="100%",
        ),
        spacing="4",
        width="100%",
    )


def product_form() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        title_with_back_button(S.heading),
        rx.cond(
            S.missing,
            rx.callout(ProductDraftText.PRODUCT_NOT_FOUND.value, icon="triangle_alert", color_scheme="red"),
            rx.card(_fields(), width="100%"),
        ),
        spacing="5",
        width="100%",
        max_width="56rem",
    )
