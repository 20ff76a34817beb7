"""/newsletter/unsubscribe?token=…: confirm, then leave the mailing list.

Opening the link shows a button; only pressing it unsubscribes (link scanners open links, they do
not press buttons).
"""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.layout import public_layout
from shop_app.domain.messages import NewsletterMessage
from shop_app.state.newsletter_unsubscribe import UnsubscribeState as S


def _confirm() -> rx.Component:
    question = NewsletterMessage.CONFIRM_UNSUBSCRIBE.value.split("{email}")
    return rx.vstack(
        rx.text(question[0], rx.text.strong(S.email), question[1]),
        rx.text(
            "You will no longer receive news about new scents, restocks and small-batch releases. "
            "Order and account emails are not affected.",
            size="2",
            color_scheme="gray",
        ),
        rx.button(
            rx.cond(S.working, rx.spinner(size="2"), rx.fragment()),
            "Unsubscribe",
            size="3",
            color_scheme="red",
            disabled=S.working,
            on_click=S.confirm,
        ),
        spacing="4",
    )


def _done() -> rx.Component:
    return rx.vstack(
        rx.callout(
            NewsletterMessage.UNSUBSCRIBED.value, icon="circle_check", color_scheme="green", role="status"
        ),
        rx.text(
            "Changed your mind? You can join again at any time with the box at the bottom of every page.",
            size="2",
            color_scheme="gray",
        ),
        rx.link("Back to the shop", href=routes.SHOP),
        spacing="4",
    )


def _invalid() -> rx.Component:
    return rx.vstack(
        rx.text(NewsletterMessage.UNSUBSCRIBE_LINK_INVALID.value),
        rx.link("Contact us", href=routes.CONTACT),
        spacing="3",
    )


@public_layout
def unsubscribe() -> rx.Component:
    """The unsubscribe confirmation page."""
    return rx.center(
        rx.card(
            rx.vstack(
                rx.heading("Unsubscribe", size="6", as_="h1"),
                rx.cond(
                    ~S.checked,
                    rx.spinner(),
                    rx.cond(S.done, _done(), rx.cond(S.link_ok, _confirm(), _invalid())),
                ),
                spacing="4",
            ),
            width="min(32rem, 100%)",
        ),
        width="100%",
    )
