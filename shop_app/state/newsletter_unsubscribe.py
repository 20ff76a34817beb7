"""/newsletter/unsubscribe?token=…: the page behind the link in every mail to a subscriber.

Opening the page only looks the link up; the button unsubscribes. Mail scanners that open every
link of a mail therefore cannot take anybody off the list.
"""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.messages import NewsletterMessage
from shop_app.domain.text import masked_email
from shop_app.services import newsletter
from shop_app.state import notify


class UnsubscribeState(rx.State):
    """Whether the link is ours, whose it is (masked), and whether it has been used."""

    checked: bool = False
    link_ok: bool = False
    email: str = ""  # masked: the visitor recognises it, a bystander does not learn it
    done: bool = False
    working: bool = False

    def _token(self) -> str:
        return str(self.router.url.query_parameters.get("token", ""))

    @rx.event
    def load(self) -> None:
        """Look the link up, changing nothing."""
        with session_scope() as session:
            subscriber = newsletter.subscriber_for_token(session, self._token())
            self.link_ok = subscriber is not None
            self.email = masked_email(subscriber.email) if subscriber else ""
        self.checked, self.done, self.working = True, False, False

    @rx.event
    def confirm(self):
        """Unsubscribe the link's address (again is fine)."""
        self.working = True
        yield
        with session_scope() as session:
            found = newsletter.unsubscribe(session, self._token()) is not None
        self.working, self.link_ok, self.done = False, found, found
        if not found:
            yield notify.error(NewsletterMessage.UNSUBSCRIBE_LINK_INVALID.value)
            return
        yield notify.success(NewsletterMessage.UNSUBSCRIBED.value)
