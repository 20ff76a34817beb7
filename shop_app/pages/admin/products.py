"""/admin/manage-products: Manage Products, individual view (docs/spec/admin-products.md#manage)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.admin.csv_tools import csv_tools
from shop_app.components.admin.page_header import page_header
from shop_app.components.admin.product_dialogs import convert_dialog, delete_dialogs, edit_dialog
from shop_app.components.admin.product_parts import (
    action_button,
    empty_state,
    pager,
    search_input,
    select,
    stat_card,
    stats_grid,
    when_loaded,
)
from shop_app.components.image import thumbnail
from shop_app.components.link_button import link_button
from shop_app.domain.admin_messages import AdminLabel
from shop_app.state.admin.product_views import ALL, ProductRowView
from shop_app.state.admin.products import ManageProductsState as S
from shop_app.state.admin.products import ProductConvertState, ProductDeleteState, ProductEditState


def header_actions() -> list[rx.Component]:
    """The header's buttons, in order (more tools are added to this list)."""
    return [
        link_button(
            rx.hstack(rx.icon("layers", size=16), "Grouped View", spacing="2"),
            routes.ADMIN_MANAGE_PRODUCTS_GROUPED,
            variant="outline",
        ),
        rx.button(
            rx.icon("refresh-cw", size=16),
            rx.cond(S.syncing, "Syncing...", "Sync from Square"),
            on_click=S.sync_square,
            disabled=S.syncing,
            variant="outline",
        ),
        link_button(
            rx.hstack(rx.icon("git-compare", size=16), "Reconcile with Square", spacing="2"),
            routes.ADMIN_SQUARE_RECONCILE,
            variant="outline",
        ),
        link_button(
            rx.hstack(rx.icon("plus", size=16), "Add Product", spacing="2"),
            routes.ADMIN_PRODUCT_CREATION,
        ),
    ]


def _header() -> rx.Component:
    return page_header(
        "Manage Products",
        "Edit, archive and organise every product.",
        rx.flex(*header_actions(), spacing="2", wrap="wrap", class_name="admin-header-actions"),
    )


def _filters() -> rx.Component:
    return rx.flex(
        search_input(
            S.search,
            S.set_search,
            placeholder="Search products by name, ID or category...",
            label="Search products",
            debounce_timeout=300,
            flex="1",
            min_width="14rem",
        ),
        select(
            "Category filter",
            S.category,
            S.set_category,
            rx.fragment(
                rx.select.item("All Categories", value=ALL),
                rx.foreach(S.main_categories, lambda c: rx.select.item(c.label, value=c.value)),
            ),
            width="12rem",
        ),
        rx.cond(
            S.category != ALL,
            select(
                "Subcategory filter",
                S.subcategory,
                S.set_subcategory,
                rx.fragment(
                    rx.select.item("All Subcategories", value=ALL),
                    rx.foreach(S.filter_subcategories, lambda c: rx.select.item(c.label, value=c.value)),
                ),
                width="12rem",
            ),
        ),
        rx.button("Clear Filters", on_click=S.clear_filters, variant="soft", color_scheme="gray"),
        spacing="3",
        wrap="wrap",
        align="center",
        width="100%",
    )


def _price(row: ProductRowView) -> rx.Component:
    return rx.cond(
        row.on_sale,
        rx.hstack(
            rx.el.s(row.price, color=rx.color("gray", 10)),
            rx.text(row.sale_price, weight="bold", color=rx.color("red", 11)),
            spacing="2",
        ),
        rx.text(row.price),
    )


def _stock(row: ProductRowView) -> rx.Component:
    return rx.hstack(
        rx.text(row.stock),
        rx.cond(
            row.low_stock,
            rx.badge(rx.icon("triangle-alert", size=12), "Low stock", color_scheme="amber", variant="soft"),
        ),
        spacing="2",
        align="center",
    )


def _row(row: ProductRowView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            thumbnail(
                row.image_url, row.name, "48px", srcset=row.image_srcset, sizes="48px", intrinsic=(48, 48)
            )
        ),
        rx.table.row_header_cell(
            rx.vstack(
                rx.text(row.name, weight="medium"),
                rx.hstack(
                    rx.cond(row.is_featured, rx.badge("Featured", color_scheme="violet")),
                    rx.cond(row.is_new, rx.badge(AdminLabel.STATUS_NEW.value, color_scheme="blue")),
                    spacing="1",
                ),
                spacing="1",
            )
        ),
        rx.table.cell(row.category),
        rx.table.cell(row.subcategory),
        rx.table.cell(_price(row)),
        rx.table.cell(_stock(row)),
        rx.table.cell(
            rx.cond(
                row.is_active,
                rx.badge(AdminLabel.STATUS_ACTIVE.value, color_scheme="green"),
                rx.badge(AdminLabel.STATUS_ARCHIVED.value, color_scheme="gray"),
            )
        ),
        rx.table.cell(
            rx.hstack(
                action_button("pencil", "Edit " + row.name, ProductEditState.open_edit(row.id)),
                action_button(
                    "git-merge", "Convert to Variant " + row.name, ProductConvertState.open_convert(row.id)
                ),
                rx.cond(
                    row.is_active,
                    action_button("archive", "Archive " + row.name, S.toggle_active(row.id), color="amber"),
                    action_button(
                        "archive-restore", "Activate " + row.name, S.toggle_active(row.id), color="green"
                    ),
                ),
                action_button(
                    "trash-2", "Delete " + row.name, ProductDeleteState.ask_delete(row.id), color="red"
                ),
                spacing="1",
            )
        ),
        align="center",
    )


def _table() -> rx.Component:
    return rx.table.root(
        rx.table.header(
            rx.table.row(
                *(
                    rx.table.column_header_cell(label)
                    for label in ("Image", "Product", "Category", "Subcategory", "Price", "Stock", "Status")
                ),
                rx.table.column_header_cell("Actions"),
            )
        ),
        rx.table.body(rx.foreach(S.rows, _row)),
        variant="surface",
        width="100%",
    )


def manage_products() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        _header(),
        csv_tools(),
        stats_grid(
            stat_card("Total Products", S.total, "package"),
            stat_card("Active", S.active, "circle-check", "green"),
            stat_card("Featured", S.featured, "star", "violet"),
            stat_card("Low Stock", S.low_stock, "triangle-alert", "amber"),
        ),
        _filters(),
        when_loaded(
            S.loaded,
            S.rows.length() > 0,
            rx.vstack(
                rx.box(_table(), overflow_x="auto", width="100%"),
                pager(S.page, S.pages, S.page_text, S.go_to_page),
                spacing="4",
                width="100%",
            ),
            empty_state(
                AdminLabel.NO_PRODUCTS.value,
                rx.cond(
                    S.has_products, AdminLabel.ADJUST_FILTERS.value, AdminLabel.CREATE_FIRST_PRODUCT.value
                ),
            ),
        ),
        edit_dialog(),
        convert_dialog(),
        delete_dialogs(),
        spacing="5",
        width="100%",
        max_width="1400px",
    )
