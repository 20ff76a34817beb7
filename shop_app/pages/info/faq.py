"""/faq: the 'How to Order' guide and the questions customers ask, in an accordion (docs/spec/content.md#faq).

The accordion is Radix's: each question is a button in a heading, reached with Tab and opened or
closed with Enter or Space; several can be open at once.
"""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.info_page import accent_circle, info_heading, info_section
from shop_app.components.layout import public_layout
from shop_app.components.notice import notice
from shop_app.state.site import SiteState

HOW_TO_ORDER = (
    ("Browse", "Explore our candles, body care and home fragrance, and pick the scents that feel like you."),
    ("Add to cart", "Choose your scent and quantity, then add it to your cart. Your cart waits for you."),
    ("Checkout", "Enter your shipping details and pay securely by card. We email you a confirmation."),
    ("Enjoy", "We pour, pack and ship your order with care. Light it, relax, and enjoy the glow."),
)


def _answer(*paragraphs: str | rx.Component) -> rx.Component:
    return rx.vstack(
        *[rx.text(p) if isinstance(p, str) else p for p in paragraphs],
        spacing="3",
        padding_bottom="0.5rem",
    )


def _topics() -> list[tuple[str, str, rx.Component]]:
    """(value, question, answer) of each accordion topic."""
    return [
        (
            "shipping",
            "Where do you ship, and what does it cost?",
            _answer(
                rx.text("We ship to ", SiteState.ships_to, "."),  # the store settings' zones
                rx.text(SiteState.shipping_terms),
                "Orders are poured to order in small batches and leave our studio within 1 to 3 "
                "business days; you get an email as soon as yours is on its way.",
            ),
        ),
        (
            "ingredients",
            "What are your candles made of?",
            _answer(
                "Our candles are hand-poured from 100% natural soy wax, grown and processed in North "
                "America. Soy burns cleaner and cooler than paraffin, so your candle lasts longer.",
                "We use lead-free cotton wicks and phthalate-free fragrance oils, and we never add dyes "
                "that affect how the candle burns.",
            ),
        ),
        (
            "candle-care",
            "How do I care for my candle?",
            _answer(
                "On the first burn, let the wax melt all the way to the edge (about 2 to 3 hours). "
                "This stops tunnelling and keeps every burn even.",
                "Trim the wick to a quarter inch before each burn, burn for no more than 4 hours at a "
                "time, and keep the candle away from drafts, children and pets.",
                "Stop burning when half an inch of wax is left. Then clean the vessel with warm soapy "
                "water and give it a second life.",
            ),
        ),
        (
            "custom-orders",
            "Do you make custom or bulk orders?",
            _answer(
                "Yes! We love making candles for weddings, showers, corporate gifts and shops. Choose a "
                "vessel, colour and scent, or order our candles in bulk or wholesale.",
                rx.text(
                    "Tell us what you have in mind on our ",
                    rx.link("custom orders page", href=routes.CUSTOM_ORDERS),
                    ", or design your own blend with the ",
                    rx.link("custom candle builder", href=routes.CUSTOM_CREATOR),
                    ".",
                ),
            ),
        ),
        (
            "donation",
            "Which charity does my purchase support?",
            _answer(
                "Part of every sale goes to a cancer foundation that funds research and supports "
                "patients and their families here in British Columbia.",
                "Cancer has touched our own family, and giving back is why we started pouring. Every "
                "order, big or small, lights a little more than a room.",
            ),
        ),
        (
            "returns",
            "Can I return or exchange an order?",
            _answer(
                "Each candle is poured to order, so we cannot take back a candle that has been lit. "
                "If anything arrives damaged or is not what you ordered, contact us within 14 days "
                "with your order number and a photo, and we will replace it or refund you.",
                rx.text("Write to us from our ", rx.link("contact page", href=routes.CONTACT), "."),
            ),
        ),
    ]


def _step(number: int, title: str, text: str) -> rx.Component:
    return rx.card(
        rx.vstack(
            accent_circle(
                rx.text(str(number), weight="bold", size="4", as_="span", text_align="center", width="100%"),
                aria_hidden="true",
            ),
            rx.heading(rx.el.span(f"Step {number}: ", class_name="sr-only"), title, size="4", as_="h3"),
            rx.text(text, size="2", color_scheme="gray"),
            spacing="3",
        ),
        height="100%",
    )


def _how_to_order() -> rx.Component:
    return info_section(
        "How to Order",
        rx.grid(
            *[_step(n, title, text) for n, (title, text) in enumerate(HOW_TO_ORDER, start=1)],
            columns=rx.breakpoints(initial="1", sm="2", md="4"),
            spacing="4",
            width="100%",
        ),
    )


def _accordion() -> rx.Component:
    return info_section(
        "Your Questions, Answered",
        rx.accordion.root(
            *[
                rx.accordion.item(header=question, content=answer, value=value, id=value)
                for value, question, answer in _topics()
            ],
            type="multiple",
            collapsible=True,
            variant="ghost",
            width="100%",
        ),
    )


@public_layout
def faq() -> rx.Component:
    """The FAQ page."""
    return rx.vstack(
        info_heading(
            "Frequently Asked Questions",
            "Everything you need to know about ordering, shipping and caring for your candles.",
        ),
        _how_to_order(),
        _accordion(),
        notice(
            "Still have a question? ",
            rx.link("Get in touch", href=routes.CONTACT),
            " and we will be happy to help.",
            icon="message_circle",
            width="100%",
        ),
        spacing="8",
        width="100%",
    )
