"""The store settings form: what the owner may type, and how it becomes the stored row.

The seed (docs/spec/admin-site.md#store-settings) lists the fields and says nothing about validation; the shop
persists them (docs/spec/README.md#gaps) and the brand name, contact details and tax rate drive the site, so
bad values would show on every page or change what customers pay. The rules here keep them sane:

- company name and currency symbol are required; the e-mail must look like an address (orders,
  low-stock alerts and the footer's "Email us" use it);
- every text fits its column (the limits mirror ``models.content.StoreSettings``);
- a social link is a full ``http(s)://`` link or a handle (``@yourshop``), which becomes the
  network's profile link. Anything else (``javascript:`` …) is refused: the footer renders it
  as an ``href``;
- the tax rate is a percentage from 0 to 100 with at most 2 decimals, so it is an exact whole
  number of basis points (12.25 % = 1225) and no float ever touches money;
- the countries the shop ships to are ticked among the checkout's list
  (:data:`~shop_app.domain.countries.COUNTRIES`, one checkbox each, named by
  :func:`ship_to_field`); at least one. Checkout offers and accepts only those, and the FAQ and
  shipping texts name them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.countries import COUNTRIES
from shop_app.domain.messages import AuthMessage
from shop_app.domain.money import BASIS_POINTS_PER_WHOLE
from shop_app.domain.validation import is_valid_email

MAX_LENGTHS: Final[dict[str, int]] = {
    "company_name": 255,
    "email": 254,
    "phone": 40,
    "address": 500,
    "instagram": 255,
    "facebook": 255,
    "twitter": 255,
    "currency_symbol": 8,
}
"""Longest accepted text per field (the column sizes)."""

SOCIAL_PROFILE_BASES: Final[dict[str, str]] = {
    "instagram": "https://instagram.com/",
    "facebook": "https://facebook.com/",
    "twitter": "https://x.com/",
}
"""Where a bare handle points, per network."""

NOTIFICATION_FIELDS: Final = ("notify_order_confirmation", "notify_low_stock", "notify_new_reviews")

_HANDLE = re.compile(r"@?(?P<handle>[A-Za-z0-9._-]{1,100})", re.ASCII)
_PERCENT = re.compile(r"(?P<whole>[0-9]{1,3})(?:\.(?P<frac>[0-9]{1,2}))?", re.ASCII)
_ON = frozenset({"on", "true", "1", "yes"})


@dataclass(frozen=True, slots=True)
class StoreSettingsValues:
    """Validated settings, ready to store (names are the row's columns)."""

    company_name: str
    email: str
    phone: str
    address: str
    instagram: str
    facebook: str
    twitter: str
    notify_order_confirmation: bool
    notify_low_stock: bool
    notify_new_reviews: bool
    tax_rate_bps: int
    currency_symbol: str
    shipping_countries: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SettingsCheck:
    """The result of checking the form: values when valid, else one message per bad field."""

    values: StoreSettingsValues | None
    errors: dict[str, str] = field(default_factory=dict)


def parse_tax_rate(text: str) -> int | None:
    """Return a percentage typed by the owner as basis points, or ``None`` if it is not valid.

    Examples:
        >>> parse_tax_rate("12"), parse_tax_rate(" 12.25 % "), parse_tax_rate("100")
        (1200, 1225, 10000)
        >>> parse_tax_rate("100.01"), parse_tax_rate("12.345"), parse_tax_rate("-1"), parse_tax_rate("")
        (None, None, None, None)

    Args:
        text: Digits with at most 2 decimals after a dot; surrounding spaces and a trailing ``%``
            are ignored.

    Returns:
        The rate in basis points (0 to 10 000), or ``None``.
    """
    match = _PERCENT.fullmatch(text.strip().removesuffix("%").strip())
    if match is None:
        return None
    bps = int(match["whole"]) * 100 + int((match["frac"] or "0").ljust(2, "0"))
    return bps if bps <= BASIS_POINTS_PER_WHOLE else None


def percent_text(bps: int) -> str:
    """Return basis points as a percentage without needless zeros.

    Examples:
        >>> percent_text(1200), percent_text(1250), percent_text(1225), percent_text(0)
        ('12', '12.5', '12.25', '0')
    """
    whole, frac = divmod(bps, 100)
    return f"{whole}.{frac:02d}".rstrip("0").rstrip(".") if frac else str(whole)


def social_link(network: str, text: str) -> str | None:
    """Return the profile link for what the owner typed, ``""`` for nothing, ``None`` if invalid.

    Examples:
        >>> social_link("instagram", "@cedar.ember"), social_link("twitter", "cedar_ember")
        ('https://instagram.com/cedar.ember', 'https://x.com/cedar_ember')
        >>> social_link("facebook", "https://facebook.com/cedar"), social_link("facebook", "")
        ('https://facebook.com/cedar', '')
        >>> social_link("facebook", "javascript:alert(1)") is None
        True
    """
    text = text.strip()
    if not text:
        return ""
    if text.lower().startswith(("https://", "http://")):
        parts = urlsplit(text)
        has_space = any(char.isspace() for char in text)
        return text if parts.hostname and "." in parts.hostname and not has_space else None
    handle = _HANDLE.fullmatch(text)
    return f"{SOCIAL_PROFILE_BASES[network]}{handle['handle']}" if handle else None


def ship_to_field(country: str) -> str:
    """The form field (a checkbox) that says the shop ships to ``country``.

    Examples:
        >>> ship_to_field("United States"), ship_to_field("Trinidad and Tobago")
        ('ship_to_united_states', 'ship_to_trinidad_and_tobago')
    """
    return "ship_to_" + re.sub(r"[^a-z0-9]+", "_", country.lower()).strip("_")


def _text(form: Mapping[str, object], name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


def _switch(form: Mapping[str, object], name: str) -> bool:
    value = form.get(name)
    return value is True or (isinstance(value, str) and value.strip().lower() in _ON)


def validate_store_settings(form: Mapping[str, object]) -> SettingsCheck:
    """Check the submitted form (text values; a switch is on when it sent ``"on"``).

    Returns every field's problem at once, so the owner can fix them all in one go.
    """
    texts = {name: _text(form, name) for name in MAX_LENGTHS}
    errors: dict[str, str] = {}
    for network in SOCIAL_PROFILE_BASES:
        link = social_link(network, texts[network])
        if link is None:
            errors[network] = StoreSettingsMessage.SOCIAL_INVALID.value
        else:
            texts[network] = link
    for name, limit in MAX_LENGTHS.items():
        if name not in errors and len(texts[name]) > limit:
            errors[name] = StoreSettingsMessage.TOO_LONG.format(n=limit)
    if not texts["company_name"]:
        errors["company_name"] = StoreSettingsMessage.COMPANY_NAME_REQUIRED.value
    if "email" not in errors and not is_valid_email(texts["email"]):
        errors["email"] = AuthMessage.INVALID_EMAIL.value
    if not texts["currency_symbol"]:
        errors["currency_symbol"] = StoreSettingsMessage.CURRENCY_REQUIRED.value
    tax_rate_bps = parse_tax_rate(_text(form, "tax_rate"))
    if tax_rate_bps is None:
        errors["tax_rate"] = StoreSettingsMessage.TAX_RATE_INVALID.value
    countries = tuple(country for country in COUNTRIES if _switch(form, ship_to_field(country)))
    if not countries:
        errors["shipping_countries"] = StoreSettingsMessage.SHIPPING_COUNTRIES_REQUIRED.value
    if errors or tax_rate_bps is None:
        return SettingsCheck(values=None, errors=errors)
    return SettingsCheck(
        values=StoreSettingsValues(
            company_name=texts["company_name"],
            email=texts["email"],
            phone=texts["phone"],
            address=texts["address"],
            instagram=texts["instagram"],
            facebook=texts["facebook"],
            twitter=texts["twitter"],
            notify_order_confirmation=_switch(form, "notify_order_confirmation"),
            notify_low_stock=_switch(form, "notify_low_stock"),
            notify_new_reviews=_switch(form, "notify_new_reviews"),
            tax_rate_bps=tax_rate_bps,
            currency_symbol=texts["currency_symbol"],
            shipping_countries=countries,
        )
    )
