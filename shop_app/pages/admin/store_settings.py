"""/admin/settings: the seed's store settings form (docs/spec/admin-site.md#store-settings), saved for real
(docs/spec/README.md#gaps)."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.shipping_zones import shipping_zones
from shop_app.components.admin.tax_table import tax_table
from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.state.admin.store_settings import StoreSettingsState as S

ID_PREFIX = "settings"


def _field(
    label: str,
    name: str,
    *,
    type_: str = "text",
    hint: str = "",
    auto_complete: str = "",
    multiline: bool = False,
    placeholder: str = "",
) -> rx.Component:
    """A labelled input with its help text and, after a failed save, its error."""
    input_id = f"{ID_PREFIX}-{name}"
    error_id, hint_id = f"{input_id}-error", f"{input_id}-hint"
    error = S.errors.get(name, "")
    described = rx.cond(error != "", error_id, hint_id if hint else "")
    props = {
        "box_shadow": rx.cond(error != "", "inset 0 0 0 1px var(--red-9)", ""),
        "id": input_id,
        "name": name,
        "default_value": S.values.get(name, ""),
        "placeholder": placeholder or None,
        "width": "100%",
        "custom_attrs": {
            "aria-invalid": rx.cond(error != "", "true", "false"),
            "aria-describedby": described,
        },
    }
    control = (
        rx.text_area(rows="3", **props)
        if multiline
        else rx.input(type=type_, auto_complete=auto_complete or None, size="3", **props)
    )
    return rx.vstack(
        rx.el.label(label, html_for=input_id, font_size="var(--font-size-2)", font_weight="500"),
        control,
        rx.cond(
            error != "",
            rx.text(error, id=error_id, size="1", color_scheme="red"),
            rx.text(hint, id=hint_id, size="1", color_scheme="gray") if hint else rx.fragment(),
        ),
        spacing="1",
        width="100%",
    )


def _switch(label: str, name: str, checked: rx.Var[bool], hint: str = "") -> rx.Component:
    switch_id = f"{ID_PREFIX}-{name}"
    return rx.hstack(
        rx.vstack(
            rx.el.label(label, html_for=switch_id, font_size="var(--font-size-2)", font_weight="500"),
            rx.text(hint, size="1", color_scheme="gray") if hint else rx.fragment(),
            spacing="0",
        ),
        rx.spacer(),
        rx.switch(id=switch_id, name=name, default_checked=checked),
        align="center",
        width="100%",
    )


def _section(title: str, *children: rx.Component) -> rx.Component:
    return rx.card(
        rx.vstack(rx.heading(title, size="4", as_="h2"), *children, spacing="4", width="100%"),
        width="100%",
    )


def _banner() -> rx.Component:
    return rx.box(
        rx.cond(
            S.saved,
            rx.callout(StoreSettingsMessage.SAVED.value, icon="circle_check", color_scheme="green"),
        ),
        role="status",
        width="100%",
    )


def _form() -> rx.Component:
    return rx.form(
        rx.vstack(
            _section(
                "Company",
                _field(
                    "Company name",
                    "company_name",
                    auto_complete="organization",
                    hint="Shown in the header, the footer, page titles and e-mails.",
                ),
                rx.grid(
                    _field(
                        "Email",
                        "email",
                        type_="email",
                        auto_complete="email",
                        hint="Customers write here; order and stock alerts are sent here.",
                    ),
                    _field("Phone", "phone", type_="tel", auto_complete="tel"),
                    columns=rx.breakpoints(initial="1", sm="2"),
                    spacing="4",
                    width="100%",
                ),
                _field("Address", "address", multiline=True),
            ),
            _section(
                "Social Media",
                rx.text(
                    "A full link or just your handle, e.g. @yourshop. Leave empty to hide it.",
                    size="2",
                    color_scheme="gray",
                ),
                _field("Instagram", "instagram", placeholder="@yourshop"),
                _field("Facebook", "facebook", placeholder="https://facebook.com/yourshop"),
                _field("Twitter", "twitter", placeholder="@yourshop"),
            ),
            _section(
                "Notifications",
                _switch(
                    "Order confirmation",
                    "notify_order_confirmation",
                    S.notify_order_confirmation,
                    "E-mail customers a receipt when they order.",
                ),
                _switch(
                    "Low stock",
                    "notify_low_stock",
                    S.notify_low_stock,
                    "E-mail the shop when a product drops to 5 units or fewer.",
                ),
                _switch("New reviews", "notify_new_reviews", S.notify_new_reviews),
            ),
            _section(
                "Tax and Currency",
                rx.grid(
                    _field(
                        "GST/HST registration number",
                        "gst_hst_number",
                        hint="E.g. 123456789 RT0001. Leave empty if the shop is not registered.",
                        auto_complete="off",
                    ),
                    _field("Currency symbol", "currency_symbol", auto_complete="off"),
                    columns=rx.breakpoints(initial="1", sm="2"),
                    spacing="4",
                    width="100%",
                ),
            ),
            _section("Taxes by Province", tax_table()),
            _section("Shipping Zones", shipping_zones()),
            rx.hstack(rx.button("Save Settings", type="submit", size="3"), justify="end", width="100%"),
            spacing="5",
            width="100%",
        ),
        key=S.form_key,
        on_submit=S.save,
        reset_on_submit=False,
        width="100%",
    )


def store_settings() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        rx.heading("Store Settings", size="8", as_="h1"),
        rx.text(
            "Your shop's name, contact details, the taxes checkout charges and where you ship.",
            color_scheme="gray",
        ),
        _banner(),
        rx.cond(
            S.values.length() > 0,
            _form(),
            rx.center(
                rx.spinner(size="3"), padding_y="4rem", width="100%", role="status", aria_label="Loading"
            ),
        ),
        spacing="4",
        width="100%",
        max_width="48rem",
    )
