"""/reviews: the shop's customer testimonials, their rating summary and a link to the shop's social
account (docs/spec/content.md#reviews: "a static rating summary, six placeholder cards and a link to the
shop's social account").

The six reviews are the shop's own content (kind words customers sent in), not a review system;
the summary is computed from them, so it can never claim more than the cards show.
"""

from __future__ import annotations

from dataclasses import dataclass

import reflex as rx

from shop_app import routes
from shop_app.components.info_page import info_heading
from shop_app.components.layout import public_layout
from shop_app.components.link_button import link_button
from shop_app.state.site import SiteState

MAX_STARS = 5


@dataclass(frozen=True)
class Review:
    """One testimonial card."""

    name: str
    place: str
    rating: int  # 1 to 5 stars
    title: str
    text: str


REVIEWS = (
    Review(
        "Megan R.",
        "Kelowna, BC",
        5,
        "Smells like home",
        "Lavender Fields fills my whole living room without ever being too much. It burns clean and "
        "even right down to the bottom, and the jar now holds my makeup brushes.",
    ),
    Review(
        "Daniel T.",
        "Calgary, AB",
        5,
        "The perfect gift",
        "I ordered three candles for my mom's birthday and each one arrived wrapped with a handwritten "
        "note. She has already asked where to order more.",
    ),
    Review(
        "Priya S.",
        "Vancouver, BC",
        5,
        "Clean burn, no headaches",
        "Scented candles usually give me a headache, but these soy candles don't. Fresh Linen is on my "
        "desk every workday now.",
    ),
    Review(
        "Jessica L.",
        "Seattle, WA",
        4,
        "Lovely scents, worth the wait",
        "Shipping to the States took a little over a week, but it was worth it. Cedar & Sage smells "
        "exactly like a rainy hike on the coast.",
    ),
    Review(
        "Marc B.",
        "Victoria, BC",
        5,
        "Custom candles for our wedding",
        "We ordered sixty custom candles as wedding favours. They matched our colours perfectly and our "
        "guests are still talking about them.",
    ),
    Review(
        "Aiko H.",
        "Toronto, ON",
        5,
        "A shop with a heart",
        "I love that part of every order supports cancer care. Beautiful candles from lovely people; "
        "Vanilla Bean is my favourite.",
    ),
)


def average_rating(reviews: tuple[Review, ...] = REVIEWS) -> float:
    """The mean star rating, to one decimal."""
    return round(sum(r.rating for r in reviews) / len(reviews), 1)


def _stars(rating: int | float, size: str = "3") -> rx.Component:
    full = round(rating)
    return rx.el.span(
        "★" * full + "☆" * (MAX_STARS - full),
        role="img",
        aria_label=f"{rating:g} out of {MAX_STARS} stars",
        color=rx.color("amber", 10),
        font_size=f"var(--font-size-{size})",
        letter_spacing="0.1em",
    )


def _summary() -> rx.Component:
    average = average_rating()
    counts = [sum(1 for r in REVIEWS if r.rating == stars) for stars in range(MAX_STARS, 0, -1)]
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.text(f"{average:.1f}", size="9", weight="bold", line_height="1"),
                _stars(average, "5"),
                rx.text(f"Based on {len(REVIEWS)} customer reviews", size="2", color_scheme="gray"),
                spacing="2",
                align="center",
                min_width="12rem",
            ),
            rx.vstack(
                *[
                    rx.hstack(
                        rx.text(f"{stars} ★", size="2", width="2.5rem", aria_hidden="true"),
                        rx.progress(
                            value=round(100 * count / len(REVIEWS)),
                            max=100,
                            flex="1",
                            aria_label=f"{stars} stars: {count} of {len(REVIEWS)} reviews",
                        ),
                        rx.text(str(count), size="2", width="1.5rem", text_align="right", aria_hidden="true"),
                        align="center",
                        width="100%",
                    )
                    for stars, count in zip(range(MAX_STARS, 0, -1), counts, strict=True)
                ],
                spacing="2",
                flex="1",
                width="100%",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            gap="6",
            align="center",
        ),
        width="100%",
    )


def _card(review: Review) -> rx.Component:
    return rx.card(
        rx.vstack(
            _stars(review.rating),
            rx.heading(review.title, size="4", as_="h3"),
            rx.text(f"“{review.text}”", size="2"),
            rx.spacer(),
            rx.text(
                rx.text.strong(review.name),
                " · ",
                review.place,
                size="2",
                color_scheme="gray",
            ),
            spacing="3",
            height="100%",
        ),
        class_name="review-card",
        height="100%",
    )


def _social() -> rx.Component:
    """Instagram when the store settings have it, else Facebook, else nothing."""
    return rx.cond(
        SiteState.instagram != "",
        _social_link("Follow us on Instagram", "camera", SiteState.instagram),
        rx.cond(
            SiteState.facebook != "",
            _social_link("Follow us on Facebook", "users", SiteState.facebook),
        ),
    )


def _social_link(label: str, icon: str, href: rx.Var[str]) -> rx.Component:
    return rx.vstack(
        rx.text("See what our customers are lighting up at home, and share your own.", color_scheme="gray"),
        rx.button(
            rx.link(
                rx.icon(icon, size=18),
                label,
                href=href,
                is_external=True,
                underline="none",
                display="inline-flex",
                align_items="center",
                gap="0.5rem",
            ),
            as_child=True,
            size="3",
            variant="outline",
        ),
        spacing="3",
        align="center",
    )


@public_layout
def reviews() -> rx.Component:
    """The reviews page."""
    return rx.vstack(
        info_heading(
            "Customer Reviews",
            "Kind words from the people who light our candles at home. Thank you for every one of them.",
        ),
        _summary(),
        rx.grid(
            *[_card(review) for review in REVIEWS],
            columns=rx.breakpoints(initial="1", sm="2", lg="3"),
            spacing="4",
            width="100%",
        ),
        rx.center(_social(), width="100%"),
        rx.center(
            rx.hstack(
                link_button("Shop Our Candles", routes.SHOP, size="3"),
                link_button("Write to Us", routes.CONTACT, size="3", variant="soft"),
                spacing="3",
                wrap="wrap",
                justify="center",
            ),
            width="100%",
        ),
        spacing="7",
        width="100%",
    )
