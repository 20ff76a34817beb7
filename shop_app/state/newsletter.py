"""Sign-up boxes for the mailing list."""

from __future__ import annotations

import asyncio

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.messages import NewsletterMessage
from shop_app.services import newsletter
from shop_app.state import notify


class NewsletterState(rx.State):
    """Handles the footer's mailing-list box and the home newsletter box."""

    @rx.event
    async def subscribe(self, form_data: dict[str, str]):
        """Store the address; confirm and empty the box, or say what is wrong and keep it."""
        source = str(form_data.get("source", "footer"))
        email = str(form_data.get("email", ""))
        try:
            # In a worker thread: a welcome mail may go out by SMTP, which must not hold the loop.
            await asyncio.to_thread(_subscribe, email, source, self.router.session.client_ip or "")
        except newsletter.NewsletterError as error:
            return notify.error(str(error))
        return [notify.success(NewsletterMessage.SUBSCRIBED.value), rx.set_value(f"{source}-email", "")]


def _subscribe(email: str, source: str, client: str) -> None:
    with session_scope() as session:
        newsletter.subscribe(session, email=email, source=source, client=client)
