"""The store settings form: what the owner may type, and how it becomes the stored row.

The seed (docs/spec/admin-site.md#store-settings) lists the fields and says nothing about validation; the shop
persists them (docs/spec/README.md#gaps) and the brand name, contact details and taxes drive the site, so
bad values would show on every page or change what customers pay. The rules here keep them sane:

- company name and currency symbol are required; the e-mail must look like an address (orders,
  low-stock alerts and the footer's "Email us" use it);
- every text fits its column (the limits mirror ``models.content.StoreSettings``);
- a social link is a full ``http(s)://`` link or a handle (``@yourshop``), which becomes the
  network's profile link. Anything else (``javascript:`` …) is refused: the footer renders it
  as an ``href``;
- the GST/HST registration number is optional, made of letters, digits (one at least), spaces
  and hyphens (``123456789 RT0001``): lenient, but nothing that could not be one;
- the taxes by province (issue 19, docs/tax.md) are one row per tax of
  :data:`~shop_app.domain.tax.CANADA_TAXES`, each a rate and a "Collect" switch (named by
  :func:`tax_rate_field` and :func:`tax_collect_field`). A rate is a percentage from 0 to 100
  with at most 4 decimals, so it is an exact whole number of parts per million (9.975 % =
  99,750) and no float ever touches money. Whether shipping is taxed is not on the form: each
  tax keeps the table's own flag;
- the shipping zones (issue 19): each a name, a flat rate, a free-shipping threshold and an
  "Active" switch, and each country of the checkout's list in one zone or none
  (:mod:`shop_app.domain.shipping_form`); at least one active zone holds a country. Checkout
  offers and accepts only those countries, and the FAQ and shipping texts follow the zones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urlsplit

from shop_app.domain.addresses import PROVINCES
from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.form_input import switch, text
from shop_app.domain.messages import AuthMessage
from shop_app.domain.shipping import zones_to_json
from shop_app.domain.shipping_form import parse_zones
from shop_app.domain.tax import CANADA_TAXES, MAX_RATE_PPM, TaxRate, TaxTable, rate_text, table_to_json
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
    "gst_hst_number": 30,
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
_PERCENT = re.compile(r"(?P<whole>[0-9]{1,3})(?:\.(?P<frac>[0-9]{1,4}))?", re.ASCII)
_TAX_NUMBER = re.compile(r"[A-Za-z0-9 -]*[0-9][A-Za-z0-9 -]*", re.ASCII)  # with a digit at least


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
    tax_table: dict[str, list[dict[str, Any]]]  # domain.tax.table_to_json of every province's taxes
    gst_hst_number: str
    currency_symbol: str
    shipping_zones: list[dict[str, Any]]  # domain.shipping.zones_to_json of the form's zones


@dataclass(frozen=True, slots=True)
class SettingsCheck:
    """The result of checking the form: values when valid, else one message per bad field."""

    values: StoreSettingsValues | None
    errors: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TaxRow:
    """One row of the form's "Taxes by Province" table: a tax of a province or territory."""

    region: str  # the province's code, "BC"
    province: str  # its name, "British Columbia"
    code: str  # the tax's code, "PST"

    @property
    def rate_field(self) -> str:
        """The rate's text input (:func:`tax_rate_field`)."""
        return tax_rate_field(self.region, self.code)

    @property
    def collect_field(self) -> str:
        """The "Collect" switch (:func:`tax_collect_field`)."""
        return tax_collect_field(self.region, self.code)


def tax_rate_field(region: str, code: str) -> str:
    """The form field (text, a percentage) holding the rate of tax ``code`` in ``region``.

    Examples:
        >>> tax_rate_field("QC", "QST")
        'tax_rate__QC__QST'
    """
    return f"tax_rate__{region}__{code}"


def tax_collect_field(region: str, code: str) -> str:
    """The form field (a switch) that says the shop collects tax ``code`` in ``region``.

    Examples:
        >>> tax_collect_field("MB", "RST")
        'tax_collect__MB__RST'
    """
    return f"tax_collect__{region}__{code}"


TAX_ROWS: Final[tuple[TaxRow, ...]] = tuple(
    TaxRow(region, PROVINCES[region], tax.code) for region, taxes in CANADA_TAXES.items() for tax in taxes
)
"""The form's tax rows: every tax of :data:`~shop_app.domain.tax.CANADA_TAXES`, in its order."""


def parse_rate_ppm(text: str) -> int | None:
    """Return a percentage typed by the owner as parts per million, or ``None`` if it is not valid.

    Examples:
        >>> parse_rate_ppm("7"), parse_rate_ppm(" 9.975 % "), parse_rate_ppm("0.0001"), parse_rate_ppm("100")
        (70000, 99750, 1, 1000000)
        >>> parse_rate_ppm("100.0001"), parse_rate_ppm("9.97501"), parse_rate_ppm("-1"), parse_rate_ppm("")
        (None, None, None, None)

    Args:
        text: Digits with at most 4 decimals after a dot; surrounding spaces and a trailing ``%``
            are ignored.

    Returns:
        The rate in parts per million (0 to 1,000,000), or ``None``.
    """
    match = _PERCENT.fullmatch(text.strip().removesuffix("%").strip())
    if match is None:
        return None
    ppm = int(match["whole"]) * 10_000 + int((match["frac"] or "0").ljust(4, "0"))
    return ppm if ppm <= MAX_RATE_PPM else None


def tax_form(table: TaxTable) -> tuple[dict[str, str], tuple[str, ...]]:
    """The form's view of a tax table: each row's rate as text by field, and the "Collect"
    switches that are on.

    A row whose tax the table does not list for its province shows Canada's default.

    Examples:
        >>> rates, collected = tax_form(CANADA_TAXES)
        >>> rates["tax_rate__QC__QST"], collected[:3]
        ('9.975', ('tax_collect__AB__GST', 'tax_collect__BC__GST', 'tax_collect__BC__PST'))
        >>> "tax_collect__QC__QST" in collected
        False
    """
    rates: dict[str, str] = {}
    collected: list[str] = []
    for row in TAX_ROWS:
        tax = _tax(table, row)
        rates[row.rate_field] = rate_text(tax.rate_ppm)
        if tax.collected:
            collected.append(row.collect_field)
    return rates, tuple(collected)


def _tax(table: TaxTable, row: TaxRow) -> TaxRate:
    """The row's tax in ``table``, else in Canada's default table (where every row's tax is)."""
    taxes = (*table.get(row.region, ()), *CANADA_TAXES[row.region])
    return next(tax for tax in taxes if tax.code == row.code)


def _taxes(form: Mapping[str, object], base: TaxTable, errors: dict[str, str]) -> TaxTable:
    """The table the form describes (a bad rate is added to ``errors`` and left out); shipping is
    taxed as ``base`` says."""
    table: dict[str, tuple[TaxRate, ...]] = {}
    for row in TAX_ROWS:
        rate_ppm = parse_rate_ppm(text(form, row.rate_field))
        if rate_ppm is None:
            errors[row.rate_field] = StoreSettingsMessage.RATE_INVALID.value
            continue
        on_shipping = _tax(base, row).on_shipping
        tax = TaxRate(row.code, rate_ppm, on_shipping, collected=switch(form, row.collect_field))
        table[row.region] = (*table.get(row.region, ()), tax)
    return table


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


def validate_store_settings(form: Mapping[str, object], taxes: TaxTable = CANADA_TAXES) -> SettingsCheck:
    """Check the submitted form (text values; a switch is on when it sent ``"on"``).

    Returns every field's problem at once, so the owner can fix them all in one go.

    Args:
        form: The submitted fields.
        taxes: The stored tax table, which the form edits: whether shipping is taxed is kept
            from it (the form has no such field). The saved table is exactly the form's rows.
    """
    texts = {name: text(form, name) for name in MAX_LENGTHS}
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
    number = texts["gst_hst_number"]
    if "gst_hst_number" not in errors and number and not _TAX_NUMBER.fullmatch(number):
        errors["gst_hst_number"] = StoreSettingsMessage.GST_HST_NUMBER_INVALID.value
    table = _taxes(form, taxes, errors)
    zones = parse_zones(form, errors)
    if errors:
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
            notify_order_confirmation=switch(form, "notify_order_confirmation"),
            notify_low_stock=switch(form, "notify_low_stock"),
            notify_new_reviews=switch(form, "notify_new_reviews"),
            tax_table=table_to_json(table),
            gst_hst_number=texts["gst_hst_number"],
            currency_symbol=texts["currency_symbol"],
            shipping_zones=zones_to_json(zones),
        )
    )
