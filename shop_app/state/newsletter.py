"""Sign-up boxes for the mailing list."""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.messages import NewsletterMessage
from shop_app.services import newsletter
from shop_app.state import notify


class NewsletterState(rx.State):
    """Handles the footer's mailing-list box and the home newsletter box."""

    @rx.event
    def subscribe(self, form_data: dict[str, str]):
        """Store the address; confirm and empty the box, or say what is wrong and keep it."""
        source = str(form_data.get("source", "footer"))
        try:
            with session_scope() as session:
                newsletter.subscribe(session, email=str(form_data.get("email", "")), source=source)
        except newsletter.NewsletterError as error:
            return notify.error(str(error))
        return [notify.success(NewsletterMessage.SUBSCRIBED.value), rx.set_value(f"{source}-email", "")]
