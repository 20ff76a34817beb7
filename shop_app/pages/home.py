"""Home page (/): hero, featured products, categories, reviews, mission and newsletter."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.first_view import first_view
from shop_app.components.image import safe_image
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.components.newsletter import newsletter_form
from shop_app.components.product_card import product_grid
from shop_app.components.skeletons import card_grid_skeleton
from shop_app.services.media import HERO_SIZES, IMAGE_WIDTHS, MAX_STORED_WIDTH
from shop_app.state.home import DEFAULT_HERO, HomeState

TYPED_LINES = (("LUXURY HOME FRAGRANCE", 400), ("Handcrafted with Care", 1600))
MS_PER_LETTER = 70
HERO_WIDTHS = tuple(w for w in IMAGE_WIDTHS if w >= 640)  # a phone's hero is already 640+ px
REVIEWS = (
    ("Sarah M.", "The Lavender Fields candle fills my whole living room. Clean burn, no soot."),
    ("Jordan K.", "Gifted the Holiday set to my mom and she has already reordered."),
    ("Priya S.", "The hand lotion is rich without being greasy. Coconut Lime is my favourite."),
    ("Ethan R.", "Beautiful vessels; I reuse every one of them once the candle is done."),
    ("Camille D.", "Fast shipping to Ontario and everything arrived wrapped with care."),
    ("Noah T.", "The Mandle line is perfect. Whiskey & Tobacco is my desk candle now."),
    ("Aiko H.", "Love that part of every order supports cancer care. Lovely people."),
    ("Grace L.", "Reed diffuser still going strong after two months. Fresh Linen is lovely."),
)


def _typed(text: str, delay_ms: int) -> list[rx.Component]:
    """``text`` typed letter by letter: each letter appears at its own moment.

    One 0-second opacity animation per letter, started after its delay: the browser has a few
    dozen changes to draw in all, where a ``clip-path`` animation (what this replaced) made it
    redraw the headline on every frame for seconds (in a trace of the home page on a throttled
    phone, about a third of the main thread's work). Screen readers get the whole text once
    (the letters are hidden from them).
    """
    letters = [
        rx.el.span(
            char, class_name="typed__letter", style={"--typing-at": f"{delay_ms + i * MS_PER_LETTER}ms"}
        )
        for i, char in enumerate(text)
    ]
    return [
        rx.el.span(text, class_name="sr-only"),
        rx.el.span(*letters, class_name="typed", aria_hidden="true"),
    ]


def _hero() -> rx.Component:
    # A fixed address (routes.HERO_IMAGE serves the current hero): the prerendered page already
    # names the image, so it loads with the HTML instead of after the page's state arrives.
    srcset = ", ".join(f"{routes.hero_image_url(w)} {w}w" for w in HERO_WIDTHS)
    return rx.box(
        safe_image(
            routes.hero_image_url(),
            HomeState.hero_alt,
            fallback=DEFAULT_HERO,
            srcset=f"{srcset}, {routes.hero_image_url()} {MAX_STORED_WIDTH}w",
            sizes=HERO_SIZES,
            fetch_priority="high",
            intrinsic=(2100, 900),
        ),
        rx.vstack(
            rx.heading(*_typed(*TYPED_LINES[0]), size=rx.breakpoints(initial="7", md="9"), as_="h1"),
            rx.text(*_typed(*TYPED_LINES[1]), size=rx.breakpoints(initial="4", md="6")),
            link_button("GET IN TOUCH", routes.CONTACT, size="4"),
            class_name="hero__content",
            justify="center",
            spacing="5",
            color="white",
            max_width="1200px",
            margin_x="auto",
            padding_x="1.5rem",
        ),
        class_name="hero",
    )


def _section(title: str, *children: rx.Component, **props) -> rx.Component:
    return rx.el.section(
        rx.vstack(rx.heading(title, size="7", as_="h2"), *children, spacing="5", width="100%", **props),
        class_name="reveal",
        max_width="1200px",
        margin_x="auto",
        padding="3rem 1rem 0",
    )


def _featured() -> rx.Component:
    return _section(
        "Featured Products",
        rx.cond(
            HomeState.loaded,
            rx.cond(
                HomeState.cards.length() > 0,
                product_grid(HomeState.cards, HomeState.choose_scent),
                rx.text("Our featured products will appear here once they are chosen.", color_scheme="gray"),
            ),
            first_view("home-cards", card_grid_skeleton(4)),
        ),
        rx.link("View All Products", href=routes.SHOP, weight="medium"),
    )


def _category_card(title: str, src: rx.Var[str], code: str) -> rx.Component:
    return rx.link(
        rx.box(
            safe_image(src, "", width="100%", aspect_ratio="4 / 3", object_fit="cover", loading="lazy"),
            rx.heading(
                title,
                size="5",
                as_="h3",
                position="absolute",
                bottom="1rem",
                left="1rem",
                color="white",
                text_shadow="0 1px 8px rgb(0 0 0 / 60%)",
            ),
            position="relative",
            overflow="hidden",
            border_radius="var(--radius-4)",
        ),
        href=routes.shop_url(category=code),
        class_name="category-card",
        underline="none",
    )


def _categories() -> rx.Component:
    return _section(
        "Shop By Category",
        rx.grid(
            _category_card("Candles", HomeState.candles_src, "candles"),
            _category_card("Body Care", HomeState.bodycare_src, "bodycare"),
            _category_card("Home Fragrance", HomeState.fragrance_src, "homefragrance"),
            columns=rx.breakpoints(initial="1", sm="3"),
            spacing="4",
            width="100%",
        ),
    )


def _review(name: str, text: str) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text("★★★★★", color=rx.color("amber", 10), aria_label="5 out of 5 stars"),
            rx.text(f"“{text}”", size="2"),
            rx.text(name, size="2", weight="bold"),
            spacing="2",
        ),
        width="18rem",
        flex_shrink="0",
    )


def _reviews() -> rx.Component:
    cards = [_review(name, text) for name, text in REVIEWS]
    duplicate = [rx.box(_review(name, text), aria_hidden="true") for name, text in REVIEWS]
    return _section(
        "What Our Customers Say",
        rx.box(
            rx.box(*cards, *duplicate, class_name="review-strip__track"),
            class_name="review-strip",
            width="100%",
            tab_index=0,
            aria_label="Customer reviews",
        ),
        rx.link("Read All Reviews", href=routes.REVIEWS, weight="medium"),
    )


def _mission() -> rx.Component:
    return _section(
        "Our Mission",
        rx.grid(
            safe_image(
                HomeState.mission_src,
                "Our mission",
                width="100%",
                aspect_ratio="4 / 3",
                object_fit="cover",
                border_radius="var(--radius-4)",
                loading="lazy",
            ),
            rx.vstack(
                rx.text(
                    "Every candle, lotion and diffuser is made by hand in small batches in British Columbia, "
                    "with natural soy wax, cotton wicks and phthalate-free fragrance."
                ),
                rx.text(
                    "A part of every sale goes to a cancer charity foundation, so each order lights a little "
                    "more than a room."
                ),
                rx.link("Learn more about us", href=routes.ABOUT, weight="medium"),
                spacing="3",
                justify="center",
            ),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="6",
            width="100%",
        ),
    )


def _newsletter() -> rx.Component:
    return _section(
        "Stay in the Glow",
        rx.text(
            "Be the first to hear about new scents, seasonal collections and restocks.", color_scheme="gray"
        ),
        newsletter_form("home"),
    )


@public_layout(overlay_header=True)
def home() -> rx.Component:
    """The home page."""
    return rx.box(_hero(), _featured(), _categories(), _reviews(), _mission(), _newsletter(), width="100%")
