"""Form validation of the storefront (docs/spec/account.md#validation) and the admin password rule
(docs/architecture.md#sessions).

Each ``validate_*`` function returns the **first** failing message in the seed's order, or
``None`` when the input is acceptable. Text fields are trimmed before the "required" checks, so
whitespace-only counts as empty; passwords are checked as typed (never trimmed), but a
whitespace-only password also counts as missing.

After the seed's checks, passwords longer than 72 bytes in UTF-8 are refused: bcrypt ignores
everything after byte 72, so two different long passwords could match. Services should also
call :func:`is_password_too_long` at sign-in and treat such a password as wrong credentials.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from shop_app.domain.addresses import address_problem, phone_problem
from shop_app.domain.countries import DEFAULT_SHIPPING_COUNTRIES, canonical_country, countries_phrase
from shop_app.domain.messages import AddressMessage, AuthMessage, CheckoutMessage, OrderMessage

MIN_PASSWORD_LENGTH: Final = 6
ADMIN_MIN_PASSWORD_LENGTH: Final = 12
MAX_PASSWORD_BYTES: Final = 72
MAX_ID: Final = 2**31 - 1
"""The largest id (and whole number) the database columns hold: a larger one names nothing."""
MAX_EMAIL_LENGTH: Final = 254
MAX_EMAIL_LOCAL_LENGTH: Final = 64

REQUIRED_CHECKOUT_FIELDS: Final[tuple[str, ...]] = (
    "first_name",
    "last_name",
    "email",
    "address",
    "city",
    "state",
    "zip_code",
    "country",
)
"""Checkout form keys that must be filled (seed: firstName ... country, in snake_case)."""


def parse_whole_number(text: object, *, maximum: int = MAX_ID) -> int | None:
    """A whole number typed or read from a URL: ASCII digits only, 0 to ``maximum``; else None.

    ``str.isdigit`` alone accepts "²" or "٣" (which ``int`` refuses or reads) and any length; a
    number from the browser goes through here before it reaches ``int`` or the database.

    Examples:
        >>> parse_whole_number(" 42 "), parse_whole_number("²"), parse_whole_number("9" * 30)
        (42, None, None)
    """
    value = text.strip() if isinstance(text, str) else str(text) if isinstance(text, int) else ""
    if not value or not value.isascii() or not value.isdigit() or len(value) > len(str(maximum)):
        return None
    number = int(value)
    return number if number <= maximum else None


def parse_id(text: object) -> int | None:
    """A database id from a URL or a form: 1 to :data:`MAX_ID`, else None."""
    number = parse_whole_number(text)
    return number if number else None


def _blank(text: str | None) -> bool:
    return text is None or not text.strip()


def is_password_too_long(password: str) -> bool:
    """Return whether the password exceeds bcrypt's 72 bytes once encoded as UTF-8."""
    return len(password.encode("utf-8")) > MAX_PASSWORD_BYTES


def normalize_email(text: str) -> str:
    """Return the e-mail as an account identity: trimmed and lower-cased."""
    return text.strip().lower()


def is_valid_email(text: str) -> bool:
    """Return whether the text looks like an e-mail address (pragmatic, not RFC 5322).

    The address must have exactly one ``@``, a non-empty local part of at most 64 characters,
    a domain with at least one dot and no empty label (``a..b``, ``.com``), no whitespace and at
    most 254 characters in all. Surrounding whitespace is *not* ignored: trim first.

    Examples:
        >>> is_valid_email("ana@example.ca"), is_valid_email("ana@localhost")
        (True, False)

    Args:
        text: The address to check.

    Returns:
        ``True`` if it passes.
    """
    if not text or len(text) > MAX_EMAIL_LENGTH or any(char.isspace() for char in text):
        return False
    if text.count("@") != 1:
        return False
    local, domain = text.split("@")
    if not local or len(local) > MAX_EMAIL_LOCAL_LENGTH:
        return False
    labels = domain.split(".")
    return "." in domain and all(labels)


def _password_problem(
    password: str, confirm_password: str, *, min_length: int = MIN_PASSWORD_LENGTH
) -> str | None:
    """Match, then minimum length (seed order); the byte limit is checked separately."""
    if password != confirm_password:
        return AuthMessage.PASSWORDS_DO_NOT_MATCH.value
    if len(password) < min_length:
        return AuthMessage.PASSWORD_TOO_SHORT.value
    return None


def validate_login(email: str, password: str, *, on_page: bool = False) -> str | None:
    """Validate the sign-in form: both fields required.

    Args:
        email: The e-mail as typed.
        password: The password as typed.
        on_page: ``True`` on the /auth page, ``False`` in the sign-in dialog.

    Returns:
        "Please fill in all required fields" (dialog) or "Please fill in all fields" (page)
        when a field is empty, else ``None``.
    """
    if _blank(email) or _blank(password):
        return (AuthMessage.ALL_FIELDS if on_page else AuthMessage.REQUIRED_FIELDS).value
    return None


def validate_registration_dialog(
    *,
    first_name: str,
    last_name: str,
    email: str,
    password: str,
    confirm_password: str,
    agree_to_terms: bool,
) -> str | None:
    """Validate the dialog's Create Account form, in the seed's order.

    Order: first name, last name, e-mail and password required; terms agreed; passwords match;
    password at least 6 characters; e-mail format; then the 72-byte limit. The confirmation is
    not in the required list; an empty one fails the match check. The phone is optional.

    Returns:
        The first failing message, or ``None``.
    """
    if any(_blank(value) for value in (first_name, last_name, email, password)):
        return AuthMessage.REQUIRED_FIELDS.value
    if not agree_to_terms:
        return AuthMessage.AGREE_TO_TERMS.value
    return _sign_up_problem(email, password, confirm_password)


def validate_registration_page(
    *, first_name: str, last_name: str, email: str, password: str, confirm_password: str
) -> str | None:
    """Validate the /auth page's Sign Up form, in the seed's order.

    Order: all five fields required ("Please fill in all fields"); passwords match; password
    at least 6 characters; e-mail format; then the 72-byte limit.

    Returns:
        The first failing message, or ``None``.
    """
    fields = (first_name, last_name, email, password, confirm_password)
    if any(_blank(value) for value in fields):
        return AuthMessage.ALL_FIELDS.value
    return _sign_up_problem(email, password, confirm_password)


def _sign_up_problem(email: str, password: str, confirm_password: str) -> str | None:
    """The checks both Sign Up forms make after their own: passwords, e-mail format, 72-byte limit."""
    problem = _password_problem(password, confirm_password)
    if problem is not None:
        return problem
    if not is_valid_email(email.strip()):
        return AuthMessage.INVALID_EMAIL.value
    if is_password_too_long(password):
        return AuthMessage.PASSWORD_TOO_LONG.value
    return None


def validate_admin_password(password: str) -> str | None:
    """Validate a new administrator password: 12 characters or more, 72 bytes or fewer.

    Returns:
        "Password must be at least 12 characters long", the 72-byte message, or ``None``.
    """
    if len(password) < ADMIN_MIN_PASSWORD_LENGTH:
        return AuthMessage.ADMIN_PASSWORD_TOO_SHORT.value
    if is_password_too_long(password):
        return AuthMessage.PASSWORD_TOO_LONG.value
    return None


def validate_checkout(
    fields: Mapping[str, str], *, ships_to: Sequence[str] = DEFAULT_SHIPPING_COUNTRIES
) -> str | None:
    """Validate the checkout form.

    Order: every key of :data:`REQUIRED_CHECKOUT_FIELDS` filled (a missing key counts as
    empty); e-mail format (the seed's two checks); country one of
    :data:`~shop_app.domain.countries.COUNTRIES`, then one the shop ships to (``ships_to``, the
    store settings' list); the province/state and postal/ZIP code for that country
    (:func:`~shop_app.domain.addresses.address_problem`); the phone, when given.
    ``special_instructions`` and ``address_line2`` are optional.

    Args:
        fields: Form values keyed in snake_case (``first_name``, ``zip_code`` ...).
        ships_to: The countries the shop ships to.

    Returns:
        The first failing message, or ``None``.
    """
    problem = checkout_problem(fields, ships_to=ships_to)
    return None if problem is None else problem.message


@dataclass(frozen=True, slots=True)
class FieldProblem:
    """A form's first problem and the field it is about (the form marks and focuses it)."""

    field: str
    message: str


REGION_MESSAGES: Final = frozenset(
    {AddressMessage.PROVINCE_INVALID.value, AddressMessage.STATE_INVALID.value}
)
"""The address problems about the province/state; the others are about the postal/ZIP code."""


def checkout_problem(
    fields: Mapping[str, str], *, ships_to: Sequence[str] = DEFAULT_SHIPPING_COUNTRIES
) -> FieldProblem | None:
    """:func:`validate_checkout`'s first problem with the field it is about (the first blank
    required field for "Please fill in all required fields"), or ``None``."""
    blank = next((key for key in REQUIRED_CHECKOUT_FIELDS if _blank(fields.get(key))), None)
    if blank is not None:
        return FieldProblem(blank, CheckoutMessage.REQUIRED_FIELDS.value)
    if not is_valid_email(fields["email"].strip()):
        return FieldProblem("email", CheckoutMessage.INVALID_EMAIL.value)
    country = canonical_country(fields["country"])
    if country is None:
        return FieldProblem("country", CheckoutMessage.UNKNOWN_COUNTRY.value)
    if country not in ships_to:
        message = AddressMessage.COUNTRY_NOT_SHIPPED.format(countries=countries_phrase(ships_to))
        return FieldProblem("country", message)
    problem = address_problem(country, fields["state"].strip(), fields["zip_code"].strip())
    if problem is not None:
        return FieldProblem("state" if problem in REGION_MESSAGES else "zip_code", problem)
    problem = phone_problem(fields.get("phone") or "")
    return None if problem is None else FieldProblem("phone", problem)


def validate_newsletter_email(email: str) -> str | None:
    """Validate a newsletter or mailing-list sign-up: the e-mail is only required (seed)."""
    return AuthMessage.REQUIRED_FIELDS.value if _blank(email) else None


def insufficient_stock_message(product: str, available: int, requested: int) -> str:
    """Return the order error for a line that asks for more than the stock (docs/spec/orders.md#stock-check).

    Examples:
        >>> insufficient_stock_message("Soy Candle", 2, 3)
        'Insufficient stock for "Soy Candle". Available: 2, Requested: 3'
    """
    return OrderMessage.INSUFFICIENT_STOCK.format(product=product, available=available, requested=requested)
