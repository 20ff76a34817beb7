"""/terms and /privacy: the shop's terms of service and privacy policy."""

from __future__ import annotations

import reflex as rx

from shop_app.components.layout import public_layout
from shop_app.state.site import SiteState

TERMS = (
    (
        "Orders",
        "An order is confirmed when your payment is accepted and you receive our confirmation email. "
        "Prices are in Canadian dollars and include the tax shown at checkout.",
    ),
    (
        "Shipping",
        "We ship to {ships_to}. Orders are processed within 1 to 3 business days. {shipping_terms}",
    ),
    (
        "Returns",
        "If something arrives damaged, contact us within 14 days with a photo and we will replace it "
        "or refund you. For hygiene reasons opened body care products cannot be returned.",
    ),
    (
        "Candle safety",
        "Never leave a burning candle unattended. Trim the wick to a quarter inch before each "
        "burn and burn for 2 to 3 hours at a time, away from drafts, children and pets.",
    ),
)
PRIVACY = (
    (
        "What we collect",
        "Your name, email, shipping address and phone when you order or create an account, "
        "and the contents of your cart and favourites. Card details are entered in our payment provider's "
        "secure form and never reach our servers.",
    ),
    (
        "Why",
        "To fulfil and ship your orders, send order and account emails, and, if you subscribe, our "
        "newsletter. We do not sell your information.",
    ),
    ("Cookies", "We use a cookie to keep your cart and one to keep you signed in. No advertising trackers."),
    (
        "Your choices",
        "You can update your profile at any time, unsubscribe from any newsletter email, and ask "
        "us to delete your account by writing to us.",
    ),
)


def _body(text: str) -> rx.Component:
    """A section's text; ``{ships_to}`` and ``{shipping_terms}`` follow the store settings."""
    return rx.text(*SiteState.filled(text))


def _sections(title: str, sections: tuple[tuple[str, str], ...]) -> rx.Component:
    return rx.vstack(
        rx.heading(title, size="8", as_="h1"),
        *[
            rx.vstack(rx.heading(heading, size="4", as_="h2"), _body(body), spacing="1")
            for heading, body in sections
        ],
        rx.text("Questions? Write to ", SiteState.contact_email, ".", color_scheme="gray"),
        spacing="5",
        max_width="48rem",
    )


@public_layout
def terms() -> rx.Component:
    """Terms of Service."""
    return _sections("Terms of Service", TERMS)


@public_layout
def privacy() -> rx.Component:
    """Privacy Policy."""
    return _sections("Privacy Policy", PRIVACY)
