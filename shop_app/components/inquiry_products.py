"""The bulk and wholesale forms' product picker: search the catalogue, add, set quantities."""

from __future__ import annotations

import reflex as rx

from shop_app.components.inquiry_fields import ID_PREFIX
from shop_app.state.custom_orders import CustomOrdersState as S
from shop_app.state.custom_orders import ProductOptionRow, SelectedProductRow


def _result(product: ProductOptionRow) -> rx.Component:
    return rx.hstack(
        rx.text(product.name, size="2", flex="1"),
        rx.text(product.price, size="2", color_scheme="gray"),
        rx.button(
            rx.icon("plus", size=14),
            "Add",
            type="button",
            size="1",
            variant="soft",
            aria_label="Add " + product.name,
            disabled=S.selected_ids.contains(product.id),
            on_click=S.add_product(product.id),
        ),
        align="center",
        width="100%",
        spacing="3",
    )


def _selected(product: SelectedProductRow) -> rx.Component:
    input_id = f"{ID_PREFIX}-quantity-" + product.id.to_string()
    return rx.hstack(
        rx.vstack(
            rx.text(product.name, size="2", weight="medium"),
            rx.text(product.price, " each", size="1", color_scheme="gray"),
            spacing="0",
            flex="1",
        ),
        rx.el.label("Quantity of ", product.name, html_for=input_id, class_name="sr-only"),
        rx.input(
            id=input_id,
            name="quantity-" + product.id.to_string(),
            type="number",
            min=0,
            default_value=product.quantity,
            on_blur=lambda value: S.set_product_quantity(product.id, value),
            width="6rem",
            size="2",
        ),
        rx.icon_button(
            rx.icon("trash-2", size=14),
            type="button",
            size="1",
            variant="ghost",
            color_scheme="red",
            aria_label="Remove " + product.name,
            on_click=S.remove_product(product.id),
        ),
        align="center",
        width="100%",
        spacing="3",
        key=product.id,  # the row's input belongs to its product, whatever is removed before it
    )


def inquiry_products() -> rx.Component:
    """Search, the matching products, and the products of the inquiry with their quantities."""
    return rx.vstack(
        rx.heading("Products", size="4", as_="h3"),
        rx.text(
            "Add the products you would like and how many of each. A quantity of 0 removes a product.",
            size="2",
            color_scheme="gray",
        ),
        rx.el.label(
            "Find products",
            html_for=f"{ID_PREFIX}-search",
            font_size="var(--font-size-2)",
            font_weight="500",
        ),
        rx.input(
            rx.input.slot(rx.icon("search", size=16)),
            id=f"{ID_PREFIX}-search",
            name="search",
            type="search",
            # Owned by no form: Enter in the search box must not send the inquiry.
            custom_attrs={"form": f"{ID_PREFIX}-search-only"},
            placeholder="Candles, lotions, diffusers...",
            default_value=S.search,
            on_change=S.search_products.debounce(300),
            size="3",
            width="100%",
        ),
        rx.card(
            rx.vstack(
                rx.foreach(S.results, _result),
                rx.cond(S.results.length() == 0, rx.text("No products found", size="2", color_scheme="gray")),
                spacing="2",
                width="100%",
            ),
            width="100%",
            role="group",
            aria_label="Matching products",
        ),
        rx.heading("Your selection", size="3", as_="h4", margin_top="0.5rem"),
        rx.cond(
            S.selected.length() > 0,
            rx.vstack(
                rx.foreach(S.selected, _selected),
                rx.separator(),
                rx.text("Total quantity: ", S.total_quantity, weight="medium", size="2"),
                spacing="3",
                width="100%",
            ),
            rx.text("No products selected yet.", size="2", color_scheme="gray"),
        ),
        spacing="2",
        width="100%",
    )
