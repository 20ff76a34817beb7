"""The contact form's rules: per-field messages, length limits, and clean-up that keeps the text."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.contact import (
    MAX_MESSAGE_LENGTH,
    MAX_NAME_LENGTH,
    MAX_SUBJECT_LENGTH,
    ContactForm,
    contact_form_errors,
)
from shop_app.domain.messages import AuthMessage, ContactText
from shop_app.domain.text import masked_email

GOOD = ContactForm(name="Ana Lopez", email="ana@example.ca", subject="Wedding favours", message="Hello!")


def test_a_complete_form_has_no_errors() -> None:
    assert contact_form_errors(GOOD) == {}


def test_every_empty_field_gets_its_own_message() -> None:
    assert contact_form_errors(ContactForm()) == {
        "name": "Please enter your name",
        "email": "Please enter your email address",
        "subject": "Please enter a subject",
        "message": "Please enter your message",
    }


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("name", ContactText.NAME_REQUIRED),
        ("email", ContactText.EMAIL_REQUIRED),
        ("subject", ContactText.SUBJECT_REQUIRED),
        ("message", ContactText.MESSAGE_REQUIRED),
    ],
)
def test_whitespace_only_counts_as_empty(field: str, message: str) -> None:
    form = ContactForm(**{**_values(GOOD), field: " \n\t "})

    assert contact_form_errors(form) == {field: message}


@pytest.mark.parametrize("email", ["ana", "ana@", "ana@example", "ana @example.ca", "a@b@example.ca"])
def test_the_email_must_look_like_an_address(email: str) -> None:
    assert contact_form_errors(ContactForm(**{**_values(GOOD), "email": email})) == {
        "email": AuthMessage.INVALID_EMAIL
    }
    assert AuthMessage.INVALID_EMAIL == "Please enter a valid email address"


@pytest.mark.parametrize(
    ("field", "limit", "message"),
    [
        ("name", MAX_NAME_LENGTH, "Name can be at most 200 characters long"),
        ("subject", MAX_SUBJECT_LENGTH, "Subject can be at most 255 characters long"),
        ("message", MAX_MESSAGE_LENGTH, "Message can be at most 5,000 characters long"),
    ],
)
def test_length_limits_allow_the_limit_and_name_the_field_above_it(
    field: str, limit: int, message: str
) -> None:
    at_limit = ContactForm(**{**_values(GOOD), field: "x" * limit})
    over = ContactForm(**{**_values(GOOD), field: "x" * (limit + 1)})

    assert contact_form_errors(at_limit) == {}
    assert contact_form_errors(over) == {field: message}


def test_an_over_long_email_is_refused() -> None:
    email = "a" * 64 + "@" + "b" * 190 + ".ca"  # 257 characters

    assert contact_form_errors(ContactForm(**{**_values(GOOD), "email": email})) == {
        "email": "Email can be at most 254 characters long"
    }


def test_limits_count_what_is_stored_not_the_surrounding_whitespace() -> None:
    form = ContactForm(**{**_values(GOOD), "name": "  " + "x" * MAX_NAME_LENGTH + "  \n"})

    assert contact_form_errors(form) == {}


def test_all_problems_are_reported_at_once() -> None:
    form = ContactForm(name="", email="nope", subject="s" * 300, message="")

    assert set(contact_form_errors(form)) == {"name", "email", "subject", "message"}


def test_cleaning_keeps_the_text_and_html_but_not_control_characters() -> None:
    hostile = ContactForm(
        name=" <b>Ana</b>\r\nLopez ",
        email=" ana@example.ca ",
        subject="Hi\x00 <script>alert(1)</script>",
        message="\r\n<img src=x onerror=alert(1)>\r\nLine two\x07\n\ttabbed\n",
    )

    clean = hostile.cleaned()

    assert clean == ContactForm(
        name="<b>Ana</b> Lopez",
        email="ana@example.ca",
        subject="Hi <script>alert(1)</script>",
        message="<img src=x onerror=alert(1)>\nLine two\n\ttabbed",
    )


def test_from_mapping_reads_missing_and_none_as_empty() -> None:
    assert ContactForm.from_mapping({"name": "Ana", "email": None, "extra": "x"}) == ContactForm(name="Ana")


@given(st.text(), st.text(), st.text(), st.text())
def test_cleaned_values_hold_no_control_characters_but_the_messages_line_breaks(
    name: str, email: str, subject: str, message: str
) -> None:
    clean = ContactForm(name, email, subject, message).cleaned()

    for value in (clean.name, clean.email, clean.subject):
        assert value == value.strip()
        assert not any(unicodedata.category(c) == "Cc" for c in value)
    assert not any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in clean.message)
    assert "\x00" not in clean.message
    assert set(contact_form_errors(ContactForm(name, email, subject, message))) <= {
        "name",
        "email",
        "subject",
        "message",
    }


@pytest.mark.parametrize(
    ("address", "masked"),
    [
        ("ana.lopez@example.ca", "a•••@example.ca"),
        ("x@y.co", "x•••@y.co"),
        (" Ana@Example.ca ", "A•••@Example.ca"),
        ("", "•••"),
        ("@example.ca", "•••"),
    ],
)
def test_masked_email(address: str, masked: str) -> None:
    assert masked_email(address) == masked


def _values(form: ContactForm) -> dict[str, str]:
    return {"name": form.name, "email": form.email, "subject": form.subject, "message": form.message}
