"""Product page (/product/{id}): gallery, badges, scent, quantity, Add to Cart and tabs."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.heart import heart_button
from shop_app.components.image import safe_image, square_image
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.services.media import PRODUCT_PAGE_SIZES
from shop_app.state.product import NOT_FOUND_TITLE, DetailRow, GalleryImage, ProductState
from shop_app.state.site import SiteState

SHIPPING_TEXT = (
    "Orders are processed within 1 to 3 business days and ship from British Columbia to {ships_to}. "
    "Shipping is a flat $15.00, free on orders of $100.00 or more. If anything arrives "
    "damaged, contact us within 14 days and we will make it right."
)
"""The Shipping & Returns tab; ``{ships_to}``: the store settings' countries (SiteState)."""
CARE_TEXT = (
    "Trim the wick to a quarter inch before every burn and burn for 2 to 3 hours at a time. Never leave a "
    "burning candle unattended, and keep it away from drafts, children and pets."
)


def _shipping_text() -> rx.Component:
    before, after = SHIPPING_TEXT.split("{ships_to}")
    return rx.text(before, SiteState.ships_to, after, padding_y="1rem")


def _breadcrumb() -> rx.Component:
    separator = rx.text("/", color_scheme="gray", aria_hidden="true")
    return rx.el.nav(
        rx.hstack(
            rx.link("Home", href=routes.HOME, size="2"),
            separator,
            rx.link("Shop", href=routes.SHOP, size="2"),
            rx.cond(
                ProductState.category_name != "",
                rx.hstack(
                    separator, rx.link(ProductState.category_name, href=ProductState.category_url, size="2")
                ),
            ),
            rx.cond(
                ProductState.subcategory_name != "",
                rx.hstack(
                    separator,
                    rx.link(ProductState.subcategory_name, href=ProductState.subcategory_url, size="2"),
                ),
            ),
            separator,
            rx.text(ProductState.name, size="2", color_scheme="gray", aria_current="page"),
            wrap="wrap",
            spacing="2",
            align="center",
        ),
        aria_label="Breadcrumb",
    )


def _thumbnail(image: GalleryImage, index: rx.Var[int]) -> rx.Component:
    return rx.button(
        safe_image(image.src, "", width="64px", height="64px", object_fit="cover"),
        on_click=ProductState.show_image(index),
        variant=rx.cond(ProductState.image_index == index, "surface", "ghost"),
        aria_label="Show image " + (index + 1).to_string(),
        aria_pressed=ProductState.image_index == index,
        padding="2px",
        height="auto",
    )


def _gallery() -> rx.Component:
    current = ProductState.images[ProductState.image_index]
    return rx.vstack(
        rx.box(
            square_image(
                current.src,
                current.alt,
                srcset=current.srcset,
                sizes=PRODUCT_PAGE_SIZES,
                border_radius="var(--radius-4)",
                background_color=rx.color("gray", 3),
            ),
            heart_button(
                ProductState.product_id, ProductState.name, size="3", top="0.75rem", right="0.75rem"
            ),
            position="relative",
            width="100%",
        ),
        rx.cond(
            ProductState.images.length() > 1,
            rx.hstack(rx.foreach(ProductState.images, _thumbnail), spacing="2", wrap="wrap"),
        ),
        width="100%",
        spacing="3",
    )


def _badges() -> rx.Component:
    return rx.hstack(
        rx.cond(ProductState.is_new, rx.badge("New", color_scheme="green", size="2")),
        rx.cond(ProductState.is_featured, rx.badge("Featured", color_scheme="bronze", size="2")),
        rx.cond(ProductState.on_sale, rx.badge("On Sale", color_scheme="red", size="2")),
        rx.badge(
            ProductState.stock_text,
            color_scheme=rx.cond(ProductState.in_stock, "gray", "red"),
            variant="outline",
            size="2",
        ),
        spacing="2",
        wrap="wrap",
    )


def _scent_picker() -> rx.Component:
    return rx.cond(
        ProductState.scents.length() > 0,
        rx.vstack(
            rx.el.label("Scent", html_for="product-scent", font_weight="500"),
            # A native <select>, as on the shop's cards: a phone's own picker, little to hydrate.
            rx.el.select(
                rx.el.option("Select a Scent", value="", disabled=True),
                rx.foreach(ProductState.scents, lambda c: rx.el.option(c.text, value=c.label)),
                id="product-scent",
                value=ProductState.scent,
                on_change=ProductState.choose_scent,
                class_name="native-select",
            ),
            rx.cond(
                ProductState.scent_more != "",
                rx.button(
                    ProductState.scent_more,
                    on_click=ProductState.show_all_scents,
                    variant="ghost",
                    size="1",
                    type="button",
                    aria_label="Show every scent",
                ),
            ),
            spacing="1",
            width="100%",
        ),
    )


def _quantity() -> rx.Component:
    return rx.hstack(
        rx.icon_button(
            rx.icon("minus", size=16),
            variant="soft",
            aria_label="Decrease quantity",
            disabled=ProductState.quantity <= 1,
            on_click=ProductState.change_quantity(-1),
        ),
        rx.text(
            ProductState.quantity,
            size="4",
            min_width="3ch",
            text_align="center",
            aria_live="polite",
            aria_label="Quantity",
        ),
        rx.icon_button(
            rx.icon("plus", size=16),
            variant="soft",
            aria_label="Increase quantity",
            disabled=ProductState.quantity >= ProductState.max_quantity,
            on_click=ProductState.change_quantity(1),
        ),
        align="center",
        spacing="2",
    )


def _detail_row(row: DetailRow) -> rx.Component:
    return rx.data_list.item(rx.data_list.label(row.label), rx.data_list.value(row.value))


def _tabs() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            rx.tabs.trigger("Description", value="description"),
            rx.tabs.trigger("Product Details", value="details"),
            rx.tabs.trigger("Shipping & Returns", value="shipping"),
            # On a phone the three names fit at the small size; narrower still, they wrap
            # (Radix scrolls them sideways, and "Shipping & Returns" read "Shipping & Re").
            size=rx.breakpoints(initial="1", sm="2"),
            flex_wrap="wrap",
        ),
        rx.tabs.content(rx.text(ProductState.description, padding_y="1rem"), value="description"),
        rx.tabs.content(
            rx.vstack(
                rx.data_list.root(rx.foreach(ProductState.details, _detail_row)),
                rx.cond(ProductState.scent_notes != "", rx.text("Scent notes: ", ProductState.scent_notes)),
                rx.text(CARE_TEXT, color_scheme="gray"),
                spacing="3",
                padding_y="1rem",
            ),
            value="details",
        ),
        rx.tabs.content(_shipping_text(), value="shipping"),
        default_value="description",
        width="100%",
    )


def _product() -> rx.Component:
    return rx.vstack(
        _breadcrumb(),
        rx.grid(
            _gallery(),
            rx.vstack(
                _badges(),
                rx.heading(ProductState.name, size="8", as_="h1"),
                rx.hstack(
                    rx.text(ProductState.price, size="6", weight="bold"),
                    rx.cond(
                        ProductState.compare_at_price != "",
                        rx.text(ProductState.compare_at_price, as_="s", size="4", color_scheme="gray"),
                    ),
                    align="baseline",
                    spacing="3",
                ),
                rx.text(ProductState.description, color_scheme="gray"),
                rx.hstack(
                    rx.foreach(ProductState.details, lambda r: rx.text(r.label, ": ", r.value, size="2")),
                    spacing="4",
                    wrap="wrap",
                ),
                _scent_picker(),
                _quantity(),
                rx.button(
                    ProductState.add_label,
                    size="4",
                    width="100%",
                    disabled=~ProductState.can_add,
                    on_click=ProductState.add_to_cart,
                ),
                spacing="4",
                align="start",
                width="100%",
            ),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="8",
            width="100%",
        ),
        _tabs(),
        spacing="6",
        width="100%",
    )


def _not_found() -> rx.Component:
    return rx.vstack(
        rx.heading(NOT_FOUND_TITLE, size="8", as_="h1"),
        rx.text("This product may have sold out for good, or the link is mistyped.", color_scheme="gray"),
        link_button("Back to Shop", routes.SHOP, size="3"),
        align="center",
        spacing="4",
        padding_y="4rem",
        width="100%",
    )


@public_layout
def product() -> rx.Component:
    """A product page."""
    return rx.cond(
        ProductState.loaded,
        rx.cond(ProductState.found, _product(), _not_found()),
        rx.center(rx.spinner(size="3"), padding_y="6rem", width="100%"),
    )
