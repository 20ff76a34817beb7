"""/admin/manage-products-grouped: products grouped by vessel with their scent variants
(docs/spec/admin-products.md#grouped)."""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.admin.grouped_dialogs import add_scent_dialog, variant_dialogs
from shop_app.components.admin.page_header import page_header
from shop_app.components.admin.product_parts import (
    action_button,
    empty_state,
    pager,
    search_input,
    stat_card,
    stats_grid,
    when_loaded,
)
from shop_app.components.image import thumbnail
from shop_app.components.link_button import link_button
from shop_app.domain.admin_messages import AdminLabel
from shop_app.state.admin.products_grouped import GroupedProductsState as S
from shop_app.state.admin.products_grouped import GroupRowView, VariantView


def _header() -> rx.Component:
    return page_header(
        "Manage Products (Grouped)",
        "Vessels and their scent variants.",
        rx.flex(
            link_button(
                rx.hstack(rx.icon("list", size=16), "Individual View", spacing="2"),
                routes.ADMIN_MANAGE_PRODUCTS,
                variant="outline",
            ),
            link_button(
                rx.hstack(rx.icon("plus", size=16), "Add New Vessel", spacing="2"),
                routes.ADMIN_PRODUCT_CREATION,
            ),
            spacing="2",
            wrap="wrap",
        ),
    )


def _variant(variant: VariantView) -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.text(variant.scent, weight="medium"),
            rx.text("Stock: ", variant.stock, size="1", color_scheme="gray"),
            spacing="0",
            flex="1",
            min_width="10rem",
        ),
        rx.text(variant.price, weight="medium"),
        rx.badge(variant.stock_badge, color_scheme=rx.cond(variant.in_stock, "green", "red")),
        rx.cond(~variant.is_active, rx.badge(AdminLabel.STATUS_ARCHIVED.value, color_scheme="gray")),
        rx.hstack(
            action_button(
                "split", "Convert to Single Product " + variant.name, S.open_single(variant.id), color="blue"
            ),
            rx.cond(
                variant.is_active,
                action_button(
                    "eye-off", "Deactivate " + variant.name, S.deactivate(variant.id), color="amber"
                ),
                action_button("eye", "Activate " + variant.name, S.activate(variant.id), color="green"),
            ),
            action_button("trash-2", "Delete " + variant.name, S.open_delete(variant.id), color="red"),
            spacing="1",
        ),
        align="center",
        gap="0.75rem",
        wrap="wrap",
        padding="0.5rem 0.75rem",
        border_top=f"1px solid {rx.color('gray', 4)}",
        role="listitem",
        aria_label=variant.name,
    )


def _group(group: GroupRowView) -> rx.Component:
    opened = S.expanded.contains(group.key)
    return rx.card(
        rx.flex(
            thumbnail(group.image_url, group.base_name, "56px", intrinsic=(56, 56)),
            rx.vstack(
                rx.heading(group.base_name, size="4", as_="h2"),
                rx.hstack(
                    rx.badge(group.label, variant="soft"),
                    rx.text(group.base_price, size="2", color_scheme="gray"),
                    rx.cond(group.category != "", rx.text(group.category, size="2", color_scheme="gray")),
                    spacing="2",
                    wrap="wrap",
                ),
                spacing="1",
                flex="1",
            ),
            rx.button(
                rx.icon("plus", size=14),
                "Add Scent",
                on_click=S.open_add_scent(group.base_name),
                variant="soft",
                size="2",
                aria_label="Add Scent to " + group.base_name,
            ),
            rx.cond(
                group.expandable,
                rx.icon_button(
                    rx.cond(opened, rx.icon("chevron-up", size=16), rx.icon("chevron-down", size=16)),
                    on_click=S.toggle_group(group.key),
                    variant="ghost",
                    aria_label=rx.cond(opened, "Hide variants of ", "Show variants of ") + group.base_name,
                    custom_attrs={"aria-expanded": opened},
                ),
            ),
            align="center",
            gap="0.75rem",
            wrap="wrap",
        ),
        rx.cond(
            ~group.expandable | opened,
            rx.box(rx.foreach(group.variants, _variant), role="list", margin_top="0.75rem"),
        ),
        rx.cond(
            opened & (group.more != ""),
            rx.button(
                group.more,
                on_click=S.show_more(group.key),
                variant="ghost",
                size="2",
                margin_top="0.5rem",
                aria_label="Show more variants of " + group.base_name,
            ),
        ),
        rx.cond(
            opened & (group.held != ""),
            rx.text(group.held, size="2", color_scheme="gray", margin_top="0.5rem"),
        ),
        width="100%",
    )


def manage_products_grouped() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        _header(),
        stats_grid(
            stat_card("Product Groups", S.group_count, "layers"),
            stat_card("Total Variants", S.variant_count, "package"),
            stat_card("Active Products", S.in_stock, "circle-check", "green"),
            stat_card("Low Stock", S.low_stock, "triangle-alert", "amber"),
        ),
        search_input(
            S.search,
            S.set_search,
            placeholder="Search vessels and scents...",
            label="Search product groups",
            debounce_timeout=300,
            width="100%",
            max_width="32rem",
        ),
        when_loaded(
            S.loaded,
            S.groups.length() > 0,
            rx.vstack(
                rx.foreach(S.groups, _group),
                pager(S.page, S.pages, S.page_text, S.go_to_page),
                spacing="3",
                width="100%",
            ),
            empty_state(
                AdminLabel.NO_PRODUCTS.value,
                rx.cond(
                    S.has_products, AdminLabel.ADJUST_FILTERS.value, AdminLabel.CREATE_FIRST_PRODUCT.value
                ),
            ),
        ),
        add_scent_dialog(),
        variant_dialogs(),
        spacing="5",
        width="100%",
        max_width="1200px",
    )
