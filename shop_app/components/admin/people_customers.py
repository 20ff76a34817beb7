"""View Users' parts: the filters, the customer table, paging and the User Details dialog.

Guests who ordered without an account are rows too (ours, issue 17): a "Guest" badge instead of
Active/Inactive, and their name opens User Details by their e-mail (they have no id)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.product_parts import search_input, select
from shop_app.components.admin.table import data_table
from shop_app.domain.admin_messages import AdminLabel
from shop_app.services.admin.customers import StatusFilter
from shop_app.state.admin.users import CustomerOrderView, CustomerRowView
from shop_app.state.admin.users import ViewUsersState as S

STATUS_CHOICES = (
    (StatusFilter.ALL, "All Users"),
    (StatusFilter.ACTIVE, "Active Only"),
    (StatusFilter.INACTIVE, "Inactive Only"),
    (StatusFilter.GUESTS, "Guests only"),  # ours
)  # docs/spec/admin-people.md#users
# docs/spec/admin-people.md#users; Orders and Spent are ours.
COLUMNS = ("User", "Contact", "Location", "Joined", "Last Seen", "Orders", "Spent", "Status")


def filters() -> rx.Component:
    """Search by name, e-mail or phone, and the status filter."""
    return rx.flex(
        search_input(
            S.search,
            S.set_search,
            placeholder="Search by name, email or phone...",
            label="Search customers",
            debounce_timeout=300,
            flex="1",
            min_width="14rem",
        ),
        select(
            "Status filter",
            S.status,
            S.set_status,
            rx.fragment(*(rx.select.item(label, value=value.value) for value, label in STATUS_CHOICES)),
            width="12rem",
        ),
        spacing="3",
        wrap="wrap",
        align="center",
        width="100%",
    )


def _status(row: CustomerRowView) -> rx.Component:
    return rx.cond(
        row.is_guest,
        rx.badge(AdminLabel.STATUS_GUEST.value, color_scheme="orange"),
        rx.hstack(
            rx.cond(
                row.is_active,
                rx.badge(AdminLabel.STATUS_ACTIVE.value, color_scheme="green"),
                rx.badge("Inactive", color_scheme="gray"),
            ),
            rx.cond(
                row.verified,
                rx.badge(rx.icon("badge-check", size=12), "Verified", color_scheme="blue", variant="soft"),
                rx.badge("Unverified", color_scheme="amber", variant="soft"),
            ),
            spacing="1",
            wrap="wrap",
        ),
    )


def _avatar(row: CustomerRowView) -> rx.Component:
    return rx.center(
        rx.text(row.initial, size="2", weight="bold"),
        width="2rem",
        height="2rem",
        border_radius="50%",
        background=rx.color("accent", 4),
        color=rx.color("accent", 11),
        flex_shrink="0",
        aria_hidden="true",
    )


def _details_button(row: CustomerRowView) -> rx.Component:
    """The name, opening User Details: an account by its id, a guest by their e-mail."""

    def button(on_click: rx.EventSpec) -> rx.Component:
        return rx.button(
            row.name,
            on_click=on_click,
            variant="ghost",
            aria_label="View details of " + row.name,
            title="View details",
        )

    return rx.cond(row.is_guest, button(S.open_guest_details(row.email)), button(S.open_details(row.id)))


def _row(row: CustomerRowView) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(
            rx.hstack(
                _avatar(row),
                _details_button(row),
                spacing="2",
                align="center",
            )
        ),
        rx.table.cell(
            rx.vstack(
                rx.text(row.email, size="2"),
                rx.cond(row.phone != "", rx.text(row.phone, size="1", color_scheme="gray")),
                spacing="0",
            )
        ),
        rx.table.cell(rx.cond(row.location != "", row.location, "—")),
        rx.table.cell(
            rx.hstack(
                rx.text(row.joined),
                rx.cond(row.recent, rx.badge(AdminLabel.STATUS_NEW.value, color_scheme="violet")),
                spacing="2",
                align="center",
            )
        ),
        rx.table.cell(row.last_seen),
        rx.table.cell(row.order_count, text_align="right"),
        rx.table.cell(row.spent, text_align="right"),
        rx.table.cell(_status(row)),
        align="center",
    )


def customer_table() -> rx.Component:
    """One page of customers, newest first; a name opens User Details."""
    return data_table(COLUMNS, S.rows, _row)


def pager() -> rx.Component:
    """'Showing 1–20 of 57' with Previous and Next."""
    return rx.flex(
        rx.text(S.range_text, size="2", color_scheme="gray"),
        rx.hstack(
            rx.button("Previous", on_click=S.turn_page(-1), disabled=S.page == 0, variant="soft"),
            rx.text(f"Page {S.page + 1} of {S.page_count}", size="2"),
            rx.button("Next", on_click=S.turn_page(1), disabled=S.page + 1 >= S.page_count, variant="soft"),
            spacing="3",
            align="center",
        ),
        justify="between",
        align="center",
        wrap="wrap",
        gap="0.75rem",
        width="100%",
    )


def no_users() -> rx.Component:
    """The empty text (docs/spec/admin-people.md#users)."""
    return rx.center(
        rx.vstack(
            rx.icon("users", size=40, color=rx.color("gray", 9)),
            rx.text(AdminLabel.NO_USERS.value, color_scheme="gray"),
            align="center",
            spacing="2",
        ),
        padding_y="4rem",
        width="100%",
    )


def _fact(label: str, value: rx.Var[str] | rx.Component) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", color_scheme="gray"),
        rx.text(value, size="2") if isinstance(value, rx.Var) else value,
        spacing="0",
        min_width="0",
    )


def _order_row(order: CustomerOrderView) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(rx.link(order.number, href=order.url, aria_label="Order " + order.number)),
        rx.table.cell(order.placed_on),
        rx.table.cell(rx.badge(order.status, color_scheme=order.status_colour)),
        rx.table.cell(order.total, text_align="right"),
        align="center",
    )


def _orders() -> rx.Component:
    return rx.vstack(
        rx.heading(f"Orders ({S.details.order_count})", size="3", as_="h3"),
        rx.cond(
            S.orders.length() > 0,
            rx.box(
                rx.table.root(
                    rx.table.header(
                        rx.table.row(
                            rx.table.column_header_cell("Order"),
                            rx.table.column_header_cell("Date"),
                            rx.table.column_header_cell("Status"),
                            rx.table.column_header_cell("Total", text_align="right"),
                        )
                    ),
                    rx.table.body(rx.foreach(S.orders, _order_row)),
                    size="1",
                    variant="surface",
                    width="100%",
                ),
                overflow_x="auto",
                width="100%",
            ),
            rx.text("No orders yet.", size="2", color_scheme="gray"),
        ),
        spacing="2",
        width="100%",
    )


def details_dialog() -> rx.Component:
    """User Details: the customer's profile and their orders, each linking to its page."""
    person = S.person
    return rx.dialog.root(
        rx.dialog.content(
            rx.vstack(
                rx.dialog.title("User Details", margin="0"),
                rx.dialog.description(person.name, size="3", weight="medium"),
                rx.grid(
                    _fact("Email", person.email),
                    _fact("Phone", rx.cond(person.phone != "", person.phone, "—")),
                    _fact("Address", rx.cond(S.details.address != "", S.details.address, "—")),
                    _fact("Joined", person.joined),
                    _fact("Last Seen", person.last_seen),
                    _fact("Email verified", S.details.verified_on),
                    _fact("Status", _status(person)),
                    _fact("Notifications", S.details.notifications),
                    _fact("Spent", person.spent),
                    columns=rx.breakpoints(initial="1", sm="2"),
                    spacing="3",
                    width="100%",
                ),
                rx.separator(),
                _orders(),
                rx.flex(
                    rx.dialog.close(rx.button("Close", variant="soft", color_scheme="gray")),
                    justify="end",
                    width="100%",
                ),
                spacing="4",
                width="100%",
            ),
            max_width="40rem",
        ),
        open=S.details_open,
        on_open_change=S.set_details_open,
    )
