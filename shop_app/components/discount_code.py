"""The discount code field (issue 19): in the cart drawer and in the checkout's order summary.

Without a code: a text field and "Apply"; a refusal shows its reason under the field (and what
was typed stays). With one: the code and a "Remove" button, and, when it no longer applies to
the cart (a minimum no longer met…), why. The amount is a row of the totals where it is shown.

At checkout the summary is inside the order's form, and a form inside a form is not HTML (its
submit event would reach the order's form too: Enter in the code field placed the order). There
the field and its button belong to a form of their own outside it (:func:`detached_form`,
through the ``form`` attribute), which is what Enter and "Apply" submit.
"""

from __future__ import annotations

import reflex as rx

from shop_app.domain.discounts import CODE_MAX
from shop_app.state.cart import CartState
from shop_app.state.discount_code import FIELD, DiscountCodeState


def _form_id(prefix: str) -> str:
    return f"{prefix}-discount-form"


def _fields(prefix: str, *, detached: bool) -> rx.Component:
    input_id, error_id = f"{prefix}-discount-code", f"{prefix}-discount-code-error"
    error = DiscountCodeState.error
    owner = {"form": _form_id(prefix)} if detached else {}
    return rx.vstack(
        rx.el.label("Discount code", html_for=input_id, font_size="var(--font-size-2)", font_weight="500"),
        rx.hstack(
            rx.input(
                id=input_id,
                name=FIELD,
                auto_complete="off",
                auto_capitalize="characters",
                spell_check=False,
                max_length=4 * CODE_MAX,
                size="2",
                flex="1",
                key=DiscountCodeState.field_key,  # emptied once a code is applied
                custom_attrs={
                    "aria-invalid": rx.cond(error != "", "true", "false"),
                    "aria-describedby": rx.cond(error != "", error_id, ""),
                    **owner,
                },
            ),
            rx.button("Apply", type="submit", variant="soft", size="2", custom_attrs=owner),
            width="100%",
            spacing="2",
        ),
        rx.cond(error != "", rx.text(error, id=error_id, size="1", color_scheme="red", role="alert")),
        spacing="1",
        width="100%",
    )


def detached_form(prefix: str) -> rx.Component:
    """The empty form a detached field submits (place it outside any other form)."""
    return rx.form(id=_form_id(prefix), on_submit=DiscountCodeState.apply, reset_on_submit=False)


def _held(refused: rx.Var[str]) -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.icon("tag", size=16, aria_hidden="true"),
            rx.text("Code ", rx.text.strong(CartState.code), size="2"),
            rx.spacer(),
            rx.button(
                "Remove",
                type="button",  # at checkout it is inside the order's form: never its submit
                on_click=DiscountCodeState.remove,
                variant="ghost",
                size="1",
                aria_label="Remove discount code " + CartState.code,
            ),
            align="center",
            width="100%",
        ),
        rx.cond(refused != "", rx.text(refused, size="1", color_scheme="red", role="status")),
        spacing="1",
        width="100%",
    )


def discount_code_field(prefix: str, refused: rx.Var[str], *, detached: bool = False) -> rx.Component:
    """The field, or the code the cart holds with ``refused``, why it does not apply there; the
    ``prefix`` keeps the ids of two places apart.

    ``detached``: the field is inside another form; it submits :func:`detached_form` instead.
    """
    fields = _fields(prefix, detached=detached)
    if not detached:
        fields = rx.form(fields, on_submit=DiscountCodeState.apply, reset_on_submit=False, width="100%")
    return rx.cond(CartState.code != "", _held(refused), fields)
