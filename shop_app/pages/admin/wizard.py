"""/admin/product-creation: the 6-step product creation wizard (docs/spec/admin-products.md#wizard)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.draft_fields import draft_input, draft_select, field_error, flag, money_input
from shop_app.components.admin.image_picker import image_picker
from shop_app.components.admin.page_header import title_with_back_button
from shop_app.components.image import safe_image
from shop_app.domain.admin_messages import ProductDraftText
from shop_app.domain.product_draft import STEP_COUNT, STEP_TITLES
from shop_app.state.admin.wizard import ProductWizardState as S

P = "wizard"
UPLOAD_ID = "wizard-images"


def _progress() -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.text(S.step_label, weight="medium", size="2"),
            rx.spacer(),
            rx.text(S.percent.to_string() + "% complete", size="2", color_scheme="gray"),
            width="100%",
        ),
        rx.progress(value=S.percent, max=100, width="100%", aria_label="Wizard progress"),
        rx.hstack(
            *[
                rx.text(
                    title,
                    size="1",
                    weight=rx.cond(S.step == number, "bold", "regular"),
                    color_scheme=rx.cond(S.step >= number, "green", "gray"),
                    custom_attrs={"aria-current": rx.cond(S.step == number, "step", "false")},
                )
                for number, title in enumerate(STEP_TITLES, start=1)
            ],
            justify="between",
            width="100%",
            display=rx.breakpoints(initial="none", md="flex"),
        ),
        spacing="2",
        width="100%",
    )


def _basic() -> rx.Component:
    return rx.vstack(
        draft_input(
            S, "Product Name", "name", id_prefix=P, required=True, placeholder="Lavender Fields Candle"
        ),
        draft_input(S, "Description", "description", id_prefix=P, required=True, multiline=True),
        draft_input(
            S,
            "SKU",
            "sku",
            id_prefix=P,
            hint="Optional: left empty, one is made from the name.",
        ),
        spacing="4",
        width="100%",
    )


def _images() -> rx.Component:
    return image_picker(S, upload_id=UPLOAD_ID)


def _pricing() -> rx.Component:
    preview = S.pricing_preview
    return rx.vstack(
        rx.grid(
            money_input(S, "Regular Price ($)", "base_price", id_prefix=P, required=True),
            money_input(S, "Sale Price ($)", "sale_price", id_prefix=P),
            money_input(S, "Cost Price ($)", "cost_price", id_prefix=P),
            columns=rx.breakpoints(initial="1", sm="3"),
            spacing="4",
            width="100%",
        ),
        rx.cond(
            preview.shown,
            rx.callout.root(
                rx.callout.text(
                    rx.vstack(
                        rx.text("Discount: ", rx.text.strong(preview.discount)),
                        rx.cond(
                            preview.margin != "",
                            rx.text("Profit margin: ", rx.text.strong(preview.margin)),
                            rx.fragment(),
                        ),
                        spacing="1",
                    )
                ),
                color_scheme="green",
                width="100%",
                custom_attrs={"aria-label": "Pricing preview"},
            ),
            rx.fragment(),
        ),
        spacing="4",
        width="100%",
    )


def _category() -> rx.Component:
    return rx.vstack(
        rx.grid(
            draft_select(
                S,
                "Main Category",
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
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="4",
            width="100%",
        ),
        draft_input(S, "Tags", "tags", id_prefix=P, hint="Separate tags with commas."),
        rx.hstack(
            flag("Featured Product", S.is_featured, S.set_featured),
            flag("New Arrival", S.is_new_arrival, S.set_new_arrival),
            spacing="5",
        ),
        spacing="4",
        width="100%",
    )


def _inventory() -> rx.Component:
    return rx.vstack(
        rx.grid(
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
            draft_input(S, "Weight (oz)", "weight", id_prefix=P, type="number", step="0.1", min="0"),
            draft_input(S, "Dimensions", "dimensions", id_prefix=P, placeholder='3" x 3" x 4"'),
            columns=rx.breakpoints(initial="1", sm="3"),
            spacing="4",
            width="100%",
        ),
        draft_input(S, "Care Instructions", "care_instructions", id_prefix=P, multiline=True),
        draft_input(
            S,
            "Ingredients",
            "ingredients",
            id_prefix=P,
            hint="Separate ingredients with commas or new lines.",
        ),
        draft_input(S, "SEO Title", "seo_title", id_prefix=P),
        draft_input(S, "SEO Description", "seo_description", id_prefix=P, multiline=True),
        spacing="4",
        width="100%",
    )


def _row(label: str, value: rx.Var | str) -> rx.Component:
    return rx.data_list.item(rx.data_list.label(label), rx.data_list.value(rx.cond(value != "", value, "—")))


def _review() -> rx.Component:
    form = S.form
    return rx.vstack(
        rx.heading(rx.cond(form["name"] != "", form["name"], "Untitled product"), size="5", as_="h3"),
        rx.hstack(
            rx.cond(S.is_featured, rx.badge("Featured", color_scheme="amber"), rx.fragment()),
            rx.cond(S.is_new_arrival, rx.badge("New Arrival", color_scheme="blue"), rx.fragment()),
            rx.cond(S.pricing_preview.shown, rx.badge("Sale", color_scheme="red"), rx.fragment()),
            spacing="2",
        ),
        rx.text(form["description"], size="2", white_space="pre-wrap"),
        rx.grid(
            rx.foreach(
                S.images,
                lambda image, index: rx.box(
                    safe_image(image.src, "Review image", width="100%", height="5rem", object_fit="cover"),
                    rx.cond(index == 0, rx.badge("Main", color_scheme="green"), rx.fragment()),
                ),
            ),
            columns="6",
            spacing="2",
            width="100%",
        ),
        rx.data_list.root(
            _row("Regular price", S.review_prices[0]),
            _row("Sale price", S.review_prices[1]),
            _row("Cost price", S.review_prices[2]),
            _row("Stock", form["stock_quantity"]),
            _row("Weight", rx.cond(form["weight"] != "", form["weight"] + " oz", "")),
            _row("Type", S.product_type),
            _row("Category", S.category_label),
            _row("Collection", S.collection_label),
        ),
        field_error(S, "images", f"{P}-images-error"),
        spacing="3",
        width="100%",
    )


def _navigation() -> rx.Component:
    return rx.hstack(
        rx.button(
            rx.icon("chevron-left", size=16),
            "Previous",
            type="button",
            variant="soft",
            color_scheme="gray",
            disabled=S.step == 1,
            on_click=S.previous_step,
        ),
        rx.spacer(),
        rx.cond(
            S.step < STEP_COUNT,
            rx.button("Next", rx.icon("chevron-right", size=16), type="button", on_click=S.next_step),
            rx.button(
                rx.cond(S.publishing, ProductDraftText.PUBLISHING.value, "Publish Product"),
                type="button",
                disabled=~S.can_publish,
                on_click=S.publish,
                color_scheme="green",
            ),
        ),
        width="100%",
    )


def product_wizard() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        title_with_back_button("Create New Product"),
        _progress(),
        rx.card(
            rx.vstack(
                rx.heading(
                    rx.match(S.step, *[(n, t) for n, t in enumerate(STEP_TITLES, start=1)], STEP_TITLES[0]),
                    size="5",
                    as_="h2",
                ),
                rx.match(
                    S.step,
                    (1, _basic()),
                    (2, _images()),
                    (3, _pricing()),
                    (4, _category()),
                    (5, _inventory()),
                    (6, _review()),
                    rx.fragment(),
                ),
                spacing="4",
                width="100%",
            ),
            width="100%",
        ),
        _navigation(),
        spacing="5",
        width="100%",
        max_width="56rem",
    )
