"""The dashboard's Product Management tab: search, category filter, sort, list, delete dialogs."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.admin.product_parts import delete_or_archive_dialogs, search_input
from shop_app.components.admin.table import data_table
from shop_app.components.image import thumbnail
from shop_app.components.link_button import link_button
from shop_app.domain.admin_messages import AdminLabel
from shop_app.domain.product_sort import SORT_LABELS
from shop_app.state.admin.dashboard import ALL_CATEGORIES, DashboardProductRow
from shop_app.state.admin.dashboard import DashboardProductsState as S

THUMB = 40


def _toolbar() -> rx.Component:
    return rx.flex(
        search_input(
            S.search,
            S.set_search,
            placeholder="Search by name, ID or category",
            label="Search products",
            debounce_timeout=300,
            type="search",
            flex="1",
            min_width="14rem",
        ),
        rx.select.root(
            rx.select.trigger(custom_attrs={"aria-label": "Filter by category"}),
            rx.select.content(
                rx.select.item("All Categories", value=ALL_CATEGORIES),
                rx.foreach(S.categories, lambda c: rx.select.item(c["name"], value=c["id"])),
            ),
            value=S.category,
            on_change=S.set_category,
        ),
        rx.select.root(
            rx.select.trigger(custom_attrs={"aria-label": "Sort products"}),
            rx.select.content(
                *(rx.select.item(label, value=option.value) for option, label in SORT_LABELS.items())
            ),
            value=S.sort,
            on_change=S.set_sort,
        ),
        link_button(
            rx.hstack(rx.icon("plus", size=16), rx.text("Add Product"), spacing="2", align="center"),
            routes.ADMIN_PRODUCT_NEW,
        ),
        gap="3",
        wrap="wrap",
        align="center",
        width="100%",
    )


def _status(row: DashboardProductRow) -> rx.Component:
    color = rx.match(
        row.status, (AdminLabel.STATUS_NEW.value, "blue"), (AdminLabel.STATUS_SALE.value, "red"), "green"
    )
    return rx.cond(  # an archived product is only that: not "Active" (nor "New" or "Sale") as well
        row.archived,
        rx.badge(AdminLabel.STATUS_ARCHIVED.value, color_scheme="gray"),
        rx.badge(row.status, color_scheme=color),
    )


def _price(row: DashboardProductRow) -> rx.Component:
    return rx.vstack(
        rx.text(row.price, weight="medium"),
        rx.cond(
            row.compare_at_price != "",
            rx.text(row.compare_at_price, size="1", color_scheme="gray", text_decoration="line-through"),
        ),
        spacing="0",
    )


def _stock(row: DashboardProductRow) -> rx.Component:
    return rx.cond(
        row.low_stock,
        rx.hstack(
            rx.icon("triangle_alert", size=14, aria_hidden="true"),
            rx.text(row.stock, weight="medium"),
            rx.text("Low", class_name="sr-only"),
            color=rx.color("orange", 11),
            spacing="1",
            align="center",
        ),
        rx.text(row.stock),
    )


def _actions(row: DashboardProductRow) -> rx.Component:
    return rx.hstack(
        rx.tooltip(
            rx.link(
                rx.icon("eye", size=16),
                href=row.view_url,
                aria_label=f"View {row.name}",
                color_scheme="gray",
                padding="0.375rem",
            ),
            content="View",
        ),
        rx.tooltip(
            rx.link(
                rx.icon("pencil", size=16),
                href=row.edit_url,
                aria_label=f"Edit {row.name}",
                color_scheme="gray",
                padding="0.375rem",
            ),
            content="Edit",
        ),
        rx.tooltip(
            rx.icon_button(
                rx.icon("trash_2", size=16),
                variant="ghost",
                color_scheme="red",
                aria_label=f"Delete {row.name}",
                on_click=S.ask_delete(row.id),
            ),
            content="Delete",
        ),
        spacing="1",
        align="center",
    )


def _row(row: DashboardProductRow) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(
            rx.hstack(
                thumbnail(
                    row.image_url,
                    "",
                    f"{THUMB}px",
                    srcset=row.image_srcset,
                    sizes=f"{THUMB}px",
                    intrinsic=(THUMB, THUMB),
                    loading="lazy",
                ),
                rx.vstack(
                    rx.text(row.name, weight="medium"),
                    rx.text("ID ", row.id, size="1", color_scheme="gray"),
                    spacing="0",
                ),
                spacing="3",
                align="center",
            )
        ),
        rx.table.cell(row.category),
        rx.table.cell(_price(row)),
        rx.table.cell(_stock(row)),
        rx.table.cell(_status(row)),
        rx.table.cell(_actions(row)),
        align="center",
    )


def _empty() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.icon("package", size=32, color=rx.color("gray", 9)),
            rx.text(AdminLabel.NO_PRODUCTS.value, weight="medium"),
            rx.text(
                rx.cond(
                    S.catalogue_size == 0,
                    AdminLabel.CREATE_FIRST_PRODUCT.value,
                    AdminLabel.ADJUST_FILTERS.value,
                ),
                size="2",
                color_scheme="gray",
            ),
            align="center",
            spacing="2",
        ),
        padding_y="3rem",
        width="100%",
    )


def _table() -> rx.Component:
    return data_table(("Product", "Category", "Price", "Stock", "Status", "Actions"), S.rows, _row)


def _pages() -> rx.Component:
    return rx.hstack(
        rx.text(S.range_text, size="2", color_scheme="gray", aria_live="polite"),
        rx.spacer(),
        rx.button("Previous", variant="soft", disabled=S.page == 0, on_click=S.turn_page(-1)),
        rx.button("Next", variant="soft", disabled=S.page + 1 >= S.page_count, on_click=S.turn_page(1)),
        align="center",
        width="100%",
    )


def product_management() -> rx.Component:
    """The tab's content."""
    return rx.vstack(
        _toolbar(),
        rx.cond(S.matches == 0, _empty(), rx.fragment(_table(), _pages())),
        delete_or_archive_dialogs(S),
        spacing="4",
        width="100%",
    )
