"""/admin/view-users: View Users, the customer list (docs/spec/admin-people.md#users): stats, search, status
filter, one page of customers (accounts, and guests who ordered) and the User Details dialog with the
customer's orders."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.page_header import page_title
from shop_app.components.admin.people_customers import (
    customer_table,
    details_dialog,
    filters,
    no_users,
    pager,
)
from shop_app.components.admin.product_parts import stat_card, when_loaded
from shop_app.state.admin.users import ViewUsersState as S


def view_users() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        page_title(
            "Customers",
            "Everyone with an account on the shop (admins are on Manage Admins), and guests who "
            "ordered without one. Click a name for their details and orders.",
        ),
        rx.grid(
            stat_card("Total", S.total, "users"),  # accounts; the guests have their own card
            stat_card("Active", S.active, "user-check", "green"),
            stat_card("Recent Signups (last 7 days)", S.recent_signups, "user-plus", "violet"),
            stat_card("Verified", S.verified, "badge-check", "blue"),
            stat_card("Guests", S.guests, "shopping-bag", "orange"),
            columns=rx.breakpoints(initial="2", md="3", lg="5"),
            spacing="4",
            width="100%",
        ),
        filters(),
        when_loaded(
            S.loaded,
            S.rows.length() > 0,
            rx.vstack(customer_table(), pager(), spacing="3", width="100%"),
            no_users(),
        ),
        details_dialog(),
        spacing="5",
        width="100%",
        max_width="1400px",
    )
