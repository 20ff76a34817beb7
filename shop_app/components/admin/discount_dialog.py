"""The Discount Codes dialog (new or edit): code, what it gives, minimum, dates, usage limits,
products and categories, note, Active.

Its text inputs are one form, sent on Save: a refused save keeps what was typed, and each field
shows its message under it (``DiscountsState.errors``). The product search box belongs to no form
(Enter there must not save).
"""

from __future__ import annotations

import reflex as rx

from shop_app.domain.admin_messages import DiscountAdminMessage
from shop_app.domain.discount_form import (
    CATEGORIES,
    CODE,
    ENDS,
    KIND,
    MAX_USES,
    MINIMUM,
    NOTE,
    NOTE_MAX,
    PER_CUSTOMER,
    PRODUCTS,
    STARTS,
    VALUE,
)
from shop_app.domain.discounts import CODE_MAX, DiscountKind
from shop_app.state.admin.discounts import KINDS, ChoiceView
from shop_app.state.admin.discounts import DiscountsState as S

FORM_ID = "discount-form"
ID_PREFIX = "discount"
_LABEL = {"font_size": "var(--font-size-2)", "font_weight": "500"}


def _message(name: str, hint: str | rx.Var[str] = "") -> rx.Component:
    """The field's error after a refused save, else its hint."""
    error = S.errors.get(name, "")
    return rx.cond(
        error != "",
        rx.text(error, id=f"{ID_PREFIX}-{name}-error", size="1", color_scheme="red"),
        rx.text(hint, id=f"{ID_PREFIX}-{name}-hint", size="1", color_scheme="gray"),
    )


def _described(name: str) -> dict[str, rx.Var[str]]:
    error = S.errors.get(name, "") != ""
    return {
        "aria-invalid": rx.cond(error, "true", "false"),
        "aria-describedby": rx.cond(error, f"{ID_PREFIX}-{name}-error", f"{ID_PREFIX}-{name}-hint"),
    }


def _field(
    label: str | rx.Var[str],
    name: str,
    *,
    hint: str | rx.Var[str] = "",
    type_: str = "text",
    **props: object,
) -> rx.Component:
    """A labelled text input of the form, with its hint or error below."""
    input_id = f"{ID_PREFIX}-{name}"
    return rx.vstack(
        rx.el.label(label, html_for=input_id, **_LABEL),
        rx.input(
            id=input_id,
            name=name,
            type=type_,
            default_value=S.values.get(name, ""),
            width="100%",
            box_shadow=rx.cond(S.errors.get(name, "") != "", "inset 0 0 0 1px var(--red-9)", ""),
            custom_attrs=_described(name),
            **props,
        ),
        _message(name, hint),
        spacing="1",
        width="100%",
    )


def _pair(*fields: rx.Component) -> rx.Component:
    return rx.grid(*fields, columns=rx.breakpoints(initial="1", sm="2"), spacing="3", width="100%")


def _kind_and_value() -> rx.Component:
    kind = rx.vstack(
        rx.text("Gives", **_LABEL),
        rx.select.root(
            rx.select.trigger(custom_attrs={"aria-label": "Gives"}, width="100%"),
            rx.select.content(*(rx.select.item(label, value=value) for value, label in KINDS)),
            value=S.kind,
            on_change=S.set_kind,
        ),
        _message(KIND),
        spacing="1",
        width="100%",
    )
    percent = S.kind == DiscountKind.PERCENT.value
    value = rx.box(
        _field(
            rx.cond(percent, "Percent off", "Amount off ($)"),
            VALUE,
            hint=rx.cond(percent, "e.g. 10 or 12.5", "e.g. 5 or 12.50"),
            input_mode="decimal",
            auto_complete="off",
        ),
        # Free shipping has no value: the input stays (what was typed is kept) but is not shown.
        display=rx.cond(S.kind == DiscountKind.FREE_SHIPPING.value, "none", "block"),
        width="100%",
    )
    return _pair(kind, value)


def _product_picker() -> rx.Component:
    def chosen(choice: ChoiceView) -> rx.Component:
        return rx.badge(
            choice.label,
            rx.icon_button(
                rx.icon("x", size=12),
                size="1",
                variant="ghost",
                type="button",
                aria_label="Remove " + choice.label,
                on_click=S.remove_product(choice.id),
            ),
            variant="soft",
            size="2",
        )

    def offered(choice: ChoiceView) -> rx.Component:
        return rx.button(
            rx.icon("plus", size=14),
            choice.label,
            type="button",
            variant="ghost",
            size="1",
            aria_label="Add " + choice.label,
            on_click=S.add_product(choice.id),
            justify_content="start",
        )

    return rx.vstack(
        rx.el.label("Only for these products", html_for=f"{ID_PREFIX}-product-search", **_LABEL),
        rx.flex(rx.foreach(S.chosen_products, chosen), wrap="wrap", gap="0.5rem"),
        rx.input(
            rx.input.slot(rx.icon("search", size=14)),
            id=f"{ID_PREFIX}-product-search",
            name="product_search",
            type="search",
            placeholder="Search products by name or SKU",
            default_value=S.product_search,
            on_change=S.search_products.debounce(300),
            custom_attrs={"form": f"{FORM_ID}-search-only"},  # owned by no form
            width="100%",
        ),
        rx.cond(
            S.product_results.length() > 0,
            rx.vstack(
                rx.foreach(S.product_results, offered), spacing="1", max_height="10rem", overflow_y="auto"
            ),
        ),
        _message(
            PRODUCTS,
            rx.cond(
                S.chosen_products.length() > 0, "The code applies to these.", "None chosen: every product."
            ),
        ),
        spacing="2",
        width="100%",
    )


def _category_picker() -> rx.Component:
    def option(choice: ChoiceView) -> rx.Component:
        return rx.text(
            rx.hstack(
                rx.checkbox(
                    checked=S.chosen_categories.contains(choice.id),
                    on_change=lambda checked: S.set_category(choice.id, checked),
                ),
                choice.label,
                spacing="2",
                align="center",
            ),
            as_="label",
            size="2",
        )

    return rx.el.fieldset(
        rx.el.legend("Only for these categories", **_LABEL),
        rx.vstack(
            rx.foreach(S.categories, option),
            spacing="1",
            max_height="10rem",
            overflow_y="auto",
            width="100%",
            padding_y="0.25rem",
        ),
        _message(
            CATEGORIES,
            rx.cond(
                S.chosen_categories.length() > 0,
                "Products filed in a ticked category count too.",
                "None ticked: every category.",
            ),
        ),
        border="none",
        padding="0",
        margin="0",
        width="100%",
    )


def _form() -> rx.Component:
    return rx.form(
        rx.vstack(
            _field(
                "Code",
                CODE,
                hint=rx.cond(
                    S.code_used,
                    DiscountAdminMessage.CODE_KEPT.value,
                    "Letters, digits, - and _; stored in capitals. e.g. SPRING-10",
                ),
                max_length=CODE_MAX + 8,
                auto_complete="off",
                read_only=S.code_used,
                text_transform="uppercase",
            ),
            _kind_and_value(),
            _field(
                "Minimum subtotal ($)",
                MINIMUM,
                hint="Optional: the goods must come to this much.",
                input_mode="decimal",
                auto_complete="off",
            ),
            _pair(
                _field("Starts", STARTS, type_="date", hint="Optional: from 00:00, Vancouver time."),
                _field("Ends", ENDS, type_="date", hint="Optional: the last day it works."),
            ),
            _pair(
                _field("Total uses", MAX_USES, hint="Optional: orders in all.", input_mode="numeric"),
                _field("Uses per customer", PER_CUSTOMER, hint="Optional: by e-mail.", input_mode="numeric"),
            ),
            _product_picker(),
            _category_picker(),
            _field("Note", NOTE, hint="Only you see it, e.g. Spring newsletter.", max_length=NOTE_MAX + 20),
            rx.text(
                rx.hstack(
                    rx.switch(checked=S.is_active, on_change=S.set_is_active),
                    "Active (shoppers can use it)",
                    spacing="2",
                    align="center",
                ),
                as_="label",
                size="2",
            ),
            rx.cond(
                S.error != "",
                rx.callout(S.error, icon="circle-alert", color_scheme="red", role="alert", width="100%"),
            ),
            rx.flex(
                rx.dialog.close(rx.button("Cancel", variant="soft", color_scheme="gray", type="button")),
                rx.button(
                    rx.cond(S.editing_id != 0, "Save Changes", "Create Code"), type="submit", loading=S.saving
                ),
                spacing="3",
                justify="end",
                width="100%",
            ),
            spacing="4",
            width="100%",
        ),
        id=FORM_ID,
        key=S.form_key,
        on_submit=S.save,
        reset_on_submit=False,
        width="100%",
    )


def discount_dialog() -> rx.Component:
    """New Discount Code or Edit Discount Code."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.vstack(
                rx.dialog.title(S.dialog_title, margin="0"),
                rx.dialog.description(
                    "What the code gives and who may use it. It applies to the goods, before tax.",
                    size="2",
                    color_scheme="gray",
                ),
                _form(),
                spacing="4",
            ),
            max_width="36rem",
        ),
        open=S.dialog_open,
        on_open_change=S.set_dialog_open,
    )
