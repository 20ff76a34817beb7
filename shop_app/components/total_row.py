"""A line of an order's totals: the label on the left, the amount on the right."""

from __future__ import annotations

from typing import Any

import reflex as rx


def total_row(
    label: str | rx.Var[str], value: rx.Var[str], *, strong: bool = False, **props: Any
) -> rx.Component:
    """Subtotal, Shipping, Tax…; ``strong`` sets both in bold (the Total)."""
    weight = "bold" if strong else "regular"
    return rx.hstack(
        rx.text(label, weight=weight), rx.spacer(), rx.text(value, weight=weight), width="100%", **props
    )
