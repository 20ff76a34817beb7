"""The notification at the bottom centre of every page (see ``state.notify``)."""

from __future__ import annotations

import reflex as rx

from shop_app.state.notify import DURATION_MS
from shop_app.state.notify import NotificationState as N


def notification() -> rx.Component:
    """One notification with a close button and a 4-second countdown bar."""
    return rx.box(
        rx.cond(
            N.message != "",
            rx.box(
                rx.hstack(
                    rx.match(
                        N.kind,
                        ("success", rx.icon("circle-check", size=18)),
                        ("error", rx.icon("circle-alert", size=18)),
                        ("warning", rx.icon("triangle-alert", size=18)),
                        rx.icon("info", size=18),
                    ),
                    rx.text(N.message, size="2", flex="1"),
                    rx.icon_button(
                        rx.icon("x", size=14),
                        variant="ghost",
                        color_scheme="gray",
                        size="1",
                        aria_label="Close notification",
                        on_click=N.dismiss,
                    ),
                    align="center",
                    spacing="3",
                ),
                rx.box(class_name="notification__countdown"),
                key=N.seq,
                class_name="notification notification--" + N.kind,
                role=rx.cond(N.kind == "error", "alert", "status"),
                style={"--notification-ms": f"{DURATION_MS}ms"},
            ),
        ),
        class_name="notification-region",
        aria_live="polite",
    )
