"""The contact form's rules: clean-up, per-field validation and length limits (docs/spec/content.md#contact).

The seed only requires name, e-mail (e-mail type), subject and message. The limits are the
columns' (name 200, subject 255, e-mail 254) and ours for the message (5,000 characters, a long
letter). Every problem is reported on its own field, so the visitor sees all of them at once and
keeps what they typed.

Cleaning is the shop's one sanitiser (``domain.free_text``): surrounding whitespace goes, the one-line
fields lose their line breaks, and control and bidirectional formatting characters are dropped.
HTML is not touched here: it is stored as typed and escaped wherever it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Final

from shop_app.domain import free_text
from shop_app.domain.messages import AuthMessage, CheckoutMessage, ContactText
from shop_app.domain.validation import MAX_EMAIL_LENGTH, is_valid_email

MAX_NAME_LENGTH: Final = 200
MAX_SUBJECT_LENGTH: Final = 255
MAX_MESSAGE_LENGTH: Final = 5000

LIMITS: Final[Mapping[str, int]] = {
    "name": MAX_NAME_LENGTH,
    "email": MAX_EMAIL_LENGTH,
    "subject": MAX_SUBJECT_LENGTH,
    "message": MAX_MESSAGE_LENGTH,
}
LABELS: Final[Mapping[str, str]] = {
    "name": "Name",
    "email": "Email",
    "subject": "Subject",
    "message": "Message",
}
_REQUIRED: Final[Mapping[str, ContactText]] = {
    "name": ContactText.NAME_REQUIRED,
    "email": ContactText.EMAIL_REQUIRED,
    "subject": ContactText.SUBJECT_REQUIRED,
    "message": ContactText.MESSAGE_REQUIRED,
}


@dataclass(frozen=True, slots=True)
class ContactForm:
    """What the visitor typed into the contact form."""

    name: str = ""
    email: str = ""
    subject: str = ""
    message: str = ""

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> ContactForm:
        """Read the form's fields from submitted data (missing ones are empty)."""
        return cls(**{f.name: str(data.get(f.name) or "") for f in fields(cls)})

    def cleaned(self) -> ContactForm:
        """The values as stored: trimmed, one-line fields on one line, no control characters."""
        return ContactForm(
            name=free_text.one_line(self.name),
            email=free_text.one_line(self.email),
            subject=free_text.one_line(self.subject),
            message=free_text.multiline(self.message),
        )


def contact_form_errors(form: ContactForm) -> dict[str, str]:
    """The problem of each failing field of the (cleaned) form, keyed by field name; {} if none.

    Per field: required first, then the length limit, then (e-mail) the format.

    Examples:
        >>> contact_form_errors(ContactForm("Ana", "ana@example.ca", "Hello", "Hi!"))
        {}
        >>> contact_form_errors(ContactForm("Ana", "ana@", "", "Hi!"))
        {'email': 'Please enter a valid email address', 'subject': 'Please enter a subject'}
    """
    clean = form.cleaned()
    errors: dict[str, str] = {}
    for name, limit in LIMITS.items():
        value = getattr(clean, name)
        if not value:
            errors[name] = _REQUIRED[name].value
        elif len(value) > limit:
            errors[name] = CheckoutMessage.FIELD_TOO_LONG.format(field=LABELS[name], limit=f"{limit:,}")
        elif name == "email" and not is_valid_email(value):
            errors[name] = AuthMessage.INVALID_EMAIL.value
    return errors
