"""Shop page (/shop): category pills, search, grouped/individual toggle and product cards."""

from __future__ import annotations

import reflex as rx

from shop_app.components.first_view import first_view
from shop_app.components.layout import public_layout
from shop_app.components.product_card import product_grid
from shop_app.components.skeletons import card_grid_skeleton, line_skeleton
from shop_app.state.shop import Pill, ShopState

SEARCH_INPUT_ID = "shop-search"


def _pill(
    label: rx.Var[str] | str, count: rx.Var[int] | int, url: rx.Var[str] | str, active: rx.Var[bool]
) -> rx.Component:
    return rx.link(
        rx.badge(
            label,
            " (",
            count,
            ")",
            size="3",
            radius="full",
            variant=rx.cond(active, "solid", "surface"),
            color_scheme=rx.cond(active, "bronze", "gray"),
        ),
        href=url,
        underline="none",
        aria_current=rx.cond(active, "page", "false"),
    )


def _category_pills() -> rx.Component:
    return rx.vstack(
        rx.hstack(
            _pill("All", ShopState.all_count, ShopState.all_url, ShopState.active_category == ""),
            rx.foreach(
                ShopState.category_pills,
                lambda p: _pill(p.label, p.count, p.url, ShopState.active_category == p.slug),
            ),
            wrap="wrap",
            spacing="2",
        ),
        rx.cond(
            ShopState.subcategory_pills.length() > 0,
            rx.hstack(
                rx.foreach(
                    ShopState.subcategory_pills,
                    _subcategory_pill,
                ),
                wrap="wrap",
                spacing="2",
            ),
        ),
        spacing="3",
        aria_label="Categories",
        as_="nav",
    )


def _subcategory_pill(pill: Pill) -> rx.Component:
    return _pill(pill.label, pill.count, pill.url, ShopState.active_subcategory == pill.slug)


def _search_bar() -> rx.Component:
    return rx.cond(
        ShopState.searching,
        rx.form(
            rx.hstack(
                rx.el.label("Search products", html_for=SEARCH_INPUT_ID, class_name="sr-only"),
                rx.input(
                    id=SEARCH_INPUT_ID,
                    name="search",
                    default_value=ShopState.search,
                    type="search",
                    placeholder="Search candles, body care, home fragrance...",
                    auto_focus=True,
                    width="100%",
                    size="3",
                    on_blur=ShopState.set_searching(False),
                ),
                rx.button(
                    "Cancel", type="button", variant="soft", size="3", on_click=ShopState.set_searching(False)
                ),
                width="100%",
            ),
            on_submit=ShopState.apply_search,
            width="100%",
        ),
        rx.hstack(
            rx.button(
                rx.icon("search", size=16),
                "Search",
                variant="outline",
                on_click=ShopState.set_searching(True),
            ),
            rx.cond(
                ShopState.search != "",
                rx.hstack(
                    rx.text("Results for “", ShopState.search, "”", size="2"),
                    rx.link("Clear search", href=ShopState.clear_search_url, size="2"),
                    align="center",
                ),
            ),
            align="center",
            spacing="3",
        ),
    )


def _toolbar() -> rx.Component:
    return rx.hstack(
        rx.cond(
            ShopState.loaded,
            rx.text(ShopState.showing_text, color_scheme="gray", aria_live="polite"),
            line_skeleton("9rem"),
        ),
        rx.spacer(),
        rx.el.label(
            rx.hstack(
                rx.text("Group variations", size="2"),
                rx.switch(checked=ShopState.grouped, on_change=ShopState.set_grouped),
                align="center",
                spacing="2",
            ),
        ),
        width="100%",
        align="center",
        wrap="wrap",
    )


def _empty_state() -> rx.Component:
    return rx.vstack(
        rx.icon("search-x", size=40, color=rx.color("gray", 8)),
        rx.heading("No products found", size="5", as_="h2"),
        rx.text(ShopState.empty_text, color_scheme="gray", text_align="center"),
        align="center",
        spacing="3",
        padding_y="3rem",
        width="100%",
    )


@public_layout
def shop() -> rx.Component:
    """The catalogue listing."""
    return rx.vstack(
        rx.heading("Shop", size="8", as_="h1"),
        _search_bar(),
        rx.cond(ShopState.loaded, _category_pills(), line_skeleton("min(100%, 32rem)", "2rem")),
        _toolbar(),
        # The cards' titles are h3 (as under the home page's sections): a level-2 heading keeps
        # the outline in order for screen readers.
        rx.heading("Products", as_="h2", class_name="sr-only"),
        rx.cond(
            ShopState.loaded,
            rx.cond(
                ShopState.total > 0, product_grid(ShopState.cards, ShopState.choose_scent), _empty_state()
            ),
            first_view("shop-cards", card_grid_skeleton()),
        ),
        rx.cond(
            ShopState.has_more,
            rx.button(
                "Load more", on_click=ShopState.load_more, variant="outline", size="3", align_self="center"
            ),
        ),
        spacing="5",
        align="start",
        width="100%",
    )
