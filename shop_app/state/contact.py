"""The contact form ('Get in Touch'): per-field errors, the sending state, success and clearing."""

from __future__ import annotations

import asyncio
import logging
import time

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.contact import LIMITS, ContactForm, contact_form_errors
from shop_app.domain.messages import ContactText
from shop_app.services import contact
from shop_app.state import notify

log = logging.getLogger(__name__)

# docs/spec/limits.md#back-office: the sending state shows for 1.5 s (longer if the work takes longer)
SENDING_S = 1.5
FIELD_IDS = {name: f"contact-{name}" for name in LIMITS}


class ContactState(rx.State):
    """The form's errors and outcome; the typed values stay in the browser's inputs."""

    name_error: str = ""
    email_error: str = ""
    subject_error: str = ""
    message_error: str = ""
    error: str = ""  # not about one field: too many messages, or the sending failed
    sending: bool = False
    thanked_name: str = ""  # the success note's "Thank you, {name}!" (empty: none)

    def _show_errors(self, errors: dict[str, str]) -> None:
        self.name_error = errors.get("name", "")
        self.email_error = errors.get("email", "")
        self.subject_error = errors.get("subject", "")
        self.message_error = errors.get("message", "")

    @rx.event
    async def submit(self, data: dict):
        """Validate; on errors keep the input and focus the first wrong field. Otherwise send,
        show "Sending..." for at least 1.5 s, then thank the visitor and clear the form."""
        form = ContactForm.from_mapping(data)
        errors = contact_form_errors(form)
        self._show_errors(errors)
        self.error, self.thanked_name = "", ""
        if errors:
            first = next(name for name in FIELD_IDS if name in errors)
            yield [rx.set_focus(FIELD_IDS[first]), notify.error(ContactText.CHECK_FIELDS.value)]
            return
        self.sending = True
        yield
        started = time.monotonic()
        problem, field_errors = "", {}
        try:
            # In a worker thread: the mails may go out by SMTP, which must not hold the event loop.
            await asyncio.to_thread(_send, form, self.router.session.client_ip or "")
        except contact.ContactError as refused:
            problem, field_errors = str(refused), refused.field_errors
        except Exception:
            log.exception("contact message failed")
            problem = ContactText.SEND_FAILED.value
        await asyncio.sleep(max(0.0, SENDING_S - (time.monotonic() - started)))
        self.sending = False
        if problem:
            self._show_errors(field_errors)
            self.error = "" if field_errors else problem
            yield notify.error(problem)
            return
        self.thanked_name = form.cleaned().name
        clear = [rx.set_value(field_id, "") for field_id in FIELD_IDS.values()]
        yield [*clear, notify.success(ContactText.SENT.value)]


def _send(form: ContactForm, client: str) -> None:
    with session_scope() as session:
        contact.send_message(session, form=form, client=client)
