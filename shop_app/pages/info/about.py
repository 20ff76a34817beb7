"""/about: the shop's story, mission, commitments and charity partnership, with the founder image
from the stored website image of type 'about' (docs/spec/content.md#about)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.image import safe_image
from shop_app.components.info_page import accent_circle, info_heading, info_section
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.state.info import AboutState
from shop_app.state.site import SiteState

STORY = (
    "It started at a kitchen table in British Columbia, with a double boiler, a bag of soy flakes "
    "and a wish for candles that smelled like the places we love: cedar forests after the rain, "
    "lavender fields in July, the salt air of the coast.",
    "Friends asked for a candle, then their friends did, and our little studio grew from there. "
    "We still pour every candle by hand, in small batches, and we still smell every batch before "
    "it leaves the studio.",
)
MISSION = (
    "To make beautiful, clean-burning candles and home fragrance that turn an ordinary evening into a "
    "moment of calm, and to make every purchase do a little good in the world."
)
COMMITMENTS = (
    ("leaf", "Natural ingredients", "100% soy wax, lead-free cotton wicks, phthalate-free fragrance oils."),
    ("hand", "Made by hand", "Hand-poured in small batches, so every candle gets our full attention."),
    ("recycle", "Less waste", "Reusable vessels and recyclable, plastic-free packaging wherever we can."),
    ("heart_handshake", "Giving back", "Part of every sale supports cancer research and care."),
)
CHARITY = (
    "Cancer has touched our family, as it touches so many. That is why part of every sale goes to a "
    "cancer foundation that funds research and supports patients and their families here in British "
    "Columbia.",
    "Every candle you light helps someone through a difficult time. Thank you for being part of it.",
)


def _story() -> rx.Component:
    return rx.grid(
        safe_image(
            AboutState.image_src,
            AboutState.image_alt,
            srcset=AboutState.image_srcset,
            sizes="(min-width: 768px) 50vw, 100vw",
            width="100%",
            aspect_ratio="4 / 3",
            object_fit="cover",
            border_radius="var(--radius-4)",
            class_name="about-founder-image",
        ),
        info_section("Our Story", *[rx.text(paragraph) for paragraph in STORY], justify="center"),
        columns=rx.breakpoints(initial="1", md="2"),
        spacing="7",
        width="100%",
        align_items="center",
    )


def _commitment(icon: str, title: str, text: str) -> rx.Component:
    return rx.el.li(
        rx.hstack(
            accent_circle(
                rx.icon(icon, size=20),
                flex_shrink="0",
                aria_hidden="true",
            ),
            rx.vstack(rx.heading(title, size="3", as_="h3"), rx.text(text, size="2"), spacing="1"),
            spacing="3",
            align="start",
        ),
        list_style="none",
    )


def _commitments() -> rx.Component:
    return info_section(
        "Our Commitment",
        rx.el.ul(
            *[_commitment(*item) for item in COMMITMENTS],
            display="grid",
            grid_template_columns=rx.breakpoints(initial="1fr", sm="1fr 1fr"),
            gap="var(--space-5)",
            width="100%",
            padding="0",
            margin="0",
        ),
    )


def _charity() -> rx.Component:
    return rx.card(
        info_section(
            "Our Charity Partnership",
            *[rx.text(paragraph) for paragraph in CHARITY],
            rx.hstack(
                link_button("Shop and Give Back", routes.SHOP, size="3"),
                link_button("Ask Us About It", routes.CONTACT, size="3", variant="soft"),
                spacing="3",
                wrap="wrap",
            ),
        ),
        size="4",
        width="100%",
        background_color=rx.color("accent", 2),
    )


@public_layout
def about() -> rx.Component:
    """The About page."""
    return rx.vstack(
        info_heading(
            "About Us",
            rx.text(
                SiteState.brand_name,
                " makes hand-poured soy candles, body care and home fragrance in British Columbia.",
                size="4",
                color_scheme="gray",
            ),
        ),
        _story(),
        info_section("Our Mission", rx.text(MISSION, size="4")),
        _commitments(),
        _charity(),
        spacing="8",
        width="100%",
    )
