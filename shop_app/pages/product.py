"""Product page (/product/{id}): gallery, badges, scent, quantity, Add to Cart and tabs."""

from __future__ import annotations

import reflex as rx
from reflex_base.vars.special import use_hook_var

from shop_app import routes
from shop_app.components.first_view import first_view, region_sent
from shop_app.components.heart import heart_button
from shop_app.components.image import safe_image
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.components.skeletons import product_skeleton
from shop_app.services.media import PRODUCT_PAGE_SIZES
from shop_app.state.product import NOT_FOUND_TITLE, DetailRow, GalleryImage, ProductState
from shop_app.state.site import SiteState

PRODUCT_PARAM = routes.PRODUCT.rsplit("[", 1)[1].rstrip("]")  # "product_id", the route's parameter

SHIPPING_TEXT = (
    "Orders are processed within 1 to 3 business days and ship from British Columbia to {ships_to}. "
    "{shipping_terms} If anything arrives damaged, contact us within 14 days and we will make it right."
)
"""The Shipping & Returns tab; ``{ships_to}`` and ``{shipping_terms}`` follow the store settings
(SiteState)."""
CARE_TEXT = (
    "Trim the wick to a quarter inch before every burn and burn for 2 to 3 hours at a time. Never leave a "
    "burning candle unattended, and keep it away from drafts, children and pets."
)


def _shipping_text() -> rx.Component:
    return rx.text(*SiteState.filled(SHIPPING_TEXT), padding_y="1rem")


def _crumb(text: rx.Var[str] | str, href: rx.Var[str] | str) -> rx.Component:
    return rx.link(text, href=href, size="2", class_name="product-page__crumb", _hover=None)


def _breadcrumb() -> rx.Component:
    separator = rx.text("/", color_scheme="gray", aria_hidden="true")
    return rx.el.nav(
        rx.hstack(
            _crumb("Home", routes.HOME),
            separator,
            _crumb("Shop", routes.SHOP),
            rx.cond(
                ProductState.category_name != "",
                rx.fragment(separator, _crumb(ProductState.category_name, ProductState.category_url)),
            ),
            rx.cond(
                ProductState.subcategory_name != "",
                rx.fragment(separator, _crumb(ProductState.subcategory_name, ProductState.subcategory_url)),
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
        safe_image(image.src, "", class_name="product-page__thumb-image"),
        on_click=ProductState.show_image(index),
        variant=rx.cond(ProductState.image_index == index, "surface", "ghost"),
        aria_label="Show image " + (index + 1).to_string(),
        aria_pressed=ProductState.image_index == index,
        class_name="product-page__thumb",
    )


def _gallery() -> rx.Component:
    current = ProductState.images[ProductState.image_index]
    return rx.vstack(
        rx.box(
            safe_image(
                current.src,
                current.alt,
                srcset=current.srcset,
                sizes=PRODUCT_PAGE_SIZES,
                intrinsic=(800, 800),
                fetch_priority="high",
                class_name="product-page__image",
            ),
            heart_button(
                ProductState.product_id, ProductState.name, size="3", class_name="product-page__heart"
            ),
            class_name="product-page__media",
        ),
        rx.cond(
            ProductState.images.length() > 1,
            rx.hstack(rx.foreach(ProductState.images, _thumbnail), spacing="2", wrap="wrap"),
        ),
        spacing="3",
        class_name="product-page__column",
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
            rx.el.label("Scent", html_for="product-scent", class_name="product-page__label"),
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
            class_name="product-page__field",
        ),
    )


def _step_button(icon: str, label: str, delta: int, disabled: rx.Var[bool]) -> rx.Component:
    # Radix's icon button by its classes: its component adds a generated padding style.
    return rx.el.button(
        rx.icon(icon, size=16),
        type="button",
        class_name="rt-reset rt-BaseButton rt-r-size-2 rt-variant-soft rt-IconButton",
        # Radix draws a disabled button by this attribute (its component sets it; so must we).
        custom_attrs={
            "data-accent-color": "",
            "data-disabled": rx.cond(disabled, "true", rx.Var.create(None)),
        },
        aria_label=label,
        disabled=disabled,
        on_click=ProductState.change_quantity(delta),
    )


def _quantity() -> rx.Component:
    return rx.hstack(
        _step_button("minus", "Decrease quantity", -1, ProductState.quantity <= 1),
        rx.text(
            ProductState.quantity,
            size="4",
            aria_live="polite",
            aria_label="Quantity",
            class_name="product-page__quantity",
        ),
        _step_button("plus", "Increase quantity", 1, ProductState.quantity >= ProductState.max_quantity),
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


def _summary() -> rx.Component:
    """Badges, name, price, description, details, scent, quantity and Add to Cart."""
    return rx.vstack(
        _badges(),
        rx.heading(ProductState.name, size="8", as_="h1"),
        rx.hstack(
            rx.text(ProductState.price, size="6", weight="bold"),
            rx.cond(
                ProductState.compare_at_price != "",
                rx.text(
                    ProductState.compare_at_price,
                    size="4",
                    color_scheme="gray",
                    aria_label="was " + ProductState.compare_at_price,
                    as_="span",
                    class_name="product-page__was",  # struck through (Radix's Text has no <s>)
                ),
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
            disabled=~ProductState.can_add,
            on_click=ProductState.add_to_cart,
            class_name="product-page__add",
        ),
        spacing="4",
        align="start",
        class_name="product-page__column",
    )


def _product() -> rx.Component:
    """The breadcrumb, the gallery and the summary: what the first HTML response carries too.

    Drawn with Radix's classes and the ``product-page`` classes of ``assets/shop.css``, never
    with style props (which Emotion turns into generated class names that the server's copy could
    not carry): ``api/first_view.product_html`` writes the same markup for the page's first HTML
    response, and ``tests/e2e/test_first_view.py`` compares the two.
    """
    return rx.vstack(
        _breadcrumb(),
        rx.grid(
            _gallery(),
            _summary(),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="8",
            class_name="product-page__grid",
        ),
        spacing="6",
        class_name="product-page__top",
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


def _addressed() -> rx.Var[bool]:
    """Whether the page's state is that of the product the address names, read in the browser
    (React Router's route parameter, decoded). A tab's state keeps its last product until the new
    one's load has run: a full page load must not show it over the server's first view, and a
    link to another product shows it only held (below). A stranger saw the last product under
    the new address, its Add to Cart live."""
    params = use_hook_var("react-router", "useParams", dict[str, str])
    return ProductState.loaded_for == params[PRODUCT_PARAM]


@public_layout
def product() -> rx.Component:
    """A product page: its first view comes in the page's HTML (``api/seo.product_page``).

    Reached by a link inside the app (no first view in the page), the last product stays drawn
    until the new one arrives, dimmed and ``inert`` (nothing on it answers; assistive technology
    is told the page is busy), rather than being taken down for a placeholder and drawn again:
    a scent's switch stays one update of the same page.
    """
    addressed = _addressed()
    held = ~addressed & ProductState.found & ~region_sent("product")
    return rx.cond(
        ProductState.loaded & (addressed | held),
        rx.cond(
            ProductState.found,
            rx.vstack(
                _product(),
                _tabs(),
                spacing="6",
                class_name=rx.cond(held, "product-page product-page--held", "product-page"),
                aria_busy=rx.cond(held, "true", "false"),
                custom_attrs={"inert": rx.cond(held, True, rx.Var.create(None))},
            ),
            _not_found(),
        ),
        rx.box(first_view("product", product_skeleton()), class_name="product-page"),
    )
