"""/contact ('Get in Touch'): the shop's contact details from the store settings and the message
form (docs/spec/content.md#contact; docs/spec/limits.md#back-office).

The form leaves validation to the server (``novalidate``), which names every wrong field under
it; the inputs are not cleared or limited by the browser, so nothing typed is lost and an
over-long text gets a message instead of being cut silently.
"""

from __future__ import annotations

import reflex as rx

from shop_app.components.contact_form import contact_form
from shop_app.components.info_page import accent_circle, info_heading
from shop_app.components.layout import public_layout
from shop_app.state.site import SiteState


def _detail(icon: str, label: str, value: rx.Component, shown: rx.Var[bool]) -> rx.Component:
    return rx.cond(
        shown,
        rx.hstack(
            accent_circle(
                rx.icon(icon, size=20),
                flex_shrink="0",
            ),
            rx.vstack(rx.text(label, size="2", color_scheme="gray"), value, spacing="0"),
            spacing="3",
            align="center",
        ),
    )


def _details() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading("Contact Details", size="5", as_="h2"),
            _detail(
                "mail",
                "Email",
                rx.link(SiteState.contact_email, href=SiteState.mailto, weight="medium"),
                SiteState.contact_email != "",
            ),
            _detail(
                "phone",
                "Phone",
                rx.link(SiteState.phone, href=SiteState.tel, weight="medium"),
                SiteState.phone != "",
            ),
            _detail(
                "map_pin", "Studio", rx.text(SiteState.address, weight="medium"), SiteState.address != ""
            ),
            _detail(
                "camera",
                "Instagram",
                rx.link("Follow us", href=SiteState.instagram, is_external=True, weight="medium"),
                SiteState.instagram != "",
            ),
            _detail(
                "users",
                "Facebook",
                rx.link("Like our page", href=SiteState.facebook, is_external=True, weight="medium"),
                SiteState.facebook != "",
            ),
            rx.text(
                "We read every message ourselves and usually reply within one to two business days.",
                size="2",
                color_scheme="gray",
            ),
            spacing="4",
        ),
        width="100%",
    )


@public_layout
def contact() -> rx.Component:
    """The contact page."""
    return rx.vstack(
        info_heading(
            "Get in Touch",
            "Questions about an order, a scent or a custom piece? We would love to hear from you.",
        ),
        rx.grid(
            _details(),
            rx.card(contact_form(), width="100%"),
            columns=rx.breakpoints(initial="1", md="5fr 7fr"),
            spacing="6",
            width="100%",
            align_items="start",
        ),
        spacing="7",
        width="100%",
    )
