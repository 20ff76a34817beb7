"""The small count on the header's heart and cart buttons."""

from __future__ import annotations

import reflex as rx


def count_badge(count: rx.Var[int]) -> rx.Component:
    """A round count over the corner of its button, shown above zero; clicks go to the button."""
    return rx.cond(
        count > 0,
        rx.badge(
            count,
            variant="solid",
            radius="full",
            size="1",
            position="absolute",
            top="-6px",
            right="-8px",
            aria_hidden="true",  # the button's own label says the count
            pointer_events="none",
        ),
    )
