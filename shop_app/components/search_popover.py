"""The header's search popover: a box, four suggestion chips and a Search button."""

from __future__ import annotations

import reflex as rx

from shop_app.state.search import HeaderSearchState

INPUT_ID = "header-search"
PLACEHOLDER = "Search candles, body care, home fragrance..."
SUGGESTIONS = ("Vanilla Candles", "Body Lotion", "Diffusers", "Wax Melts")
"""The popover's search chips: each leads to products of the demo catalogue (a test checks)."""


def search_popover() -> rx.Component:
    """Search from any page: a non-empty query opens /shop?search=…"""
    return rx.popover.root(
        rx.popover.trigger(
            rx.icon_button(
                rx.icon("search", size=20),
                variant="ghost",
                color_scheme="gray",
                aria_label="Open search",
                title="Search",
                size="2",
            ),
        ),
        rx.popover.content(
            rx.form(
                rx.vstack(
                    rx.el.label(
                        "Search the shop",
                        html_for=INPUT_ID,
                        font_size="var(--font-size-2)",
                        font_weight="500",
                    ),
                    rx.hstack(
                        rx.input(
                            id=INPUT_ID,
                            name="query",
                            placeholder=PLACEHOLDER,
                            type="search",
                            auto_focus=True,
                            width="100%",
                        ),
                        rx.button("Search", type="submit"),
                        width="100%",
                    ),
                    rx.hstack(
                        *[
                            rx.button(
                                text,
                                type="button",
                                size="1",
                                variant="soft",
                                radius="full",
                                on_click=rx.set_value(INPUT_ID, text),
                            )
                            for text in SUGGESTIONS
                        ],
                        wrap="wrap",
                        spacing="2",
                    ),
                    spacing="3",
                ),
                on_submit=HeaderSearchState.submit,
                reset_on_submit=False,
            ),
            width="min(26rem, 92vw)",
        ),
    )
