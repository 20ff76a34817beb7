"""Store settings (/admin/settings): load the row into the form, validate and save it.

The form's inputs are uncontrolled (one event per save, not per keystroke). The page shows the
form once the values are loaded (``values`` is empty before), and ``form_key`` changes only when
the stored values differ from those on show, so the inputs mount again with them without
wiping what the owner is typing. After a save the
seed's confirmation banner shows for 3 seconds (docs/spec/limits.md#back-office), hidden by a background task
that only hides the banner of its own save.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Final

import reflex as rx

from shop_app.db import session_scope, write_transaction
from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.shipping import zones_from_json
from shop_app.domain.shipping_form import zone_fields, zone_form, zone_rows
from shop_app.domain.store_settings import tax_form, validate_store_settings
from shop_app.domain.tax import table_from_json
from shop_app.models import StoreSettings
from shop_app.services.store_settings import get_store_settings, save_store_settings, stored_taxes
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state
from shop_app.state.notify import NotificationState
from shop_app.state.site import SiteState

log = logging.getLogger(__name__)

BANNER_SECONDS: Final = 3.0
"""How long the confirmation banner shows (docs/spec/limits.md#back-office: settings confirmation 3 s)."""


@dataclass
class ZoneRow:
    """A row of the Shipping Zones table: its fields' names, and what the countries' selects call
    it (its name; "New zone" for the empty row that adds one)."""

    value: str = ""
    label: str = ""
    name_field: str = ""
    flat_field: str = ""
    free_field: str = ""
    active_field: str = ""


NEW_ZONE: Final = "New zone"


def _zone_rows(names: list[str]) -> list[ZoneRow]:
    rows = []
    for index in range(zone_rows(names)):
        fields = zone_fields(index)
        label = names[index] if index < len(names) else NEW_ZONE
        rows.append(ZoneRow(fields.value, label, fields.name, fields.flat, fields.free_from, fields.active))
    return rows


def _form_values(row: StoreSettings, rates: dict[str, str], zones: dict[str, str]) -> dict[str, str]:
    """The form's texts: the row's columns, each tax row's rate (``tax_rate__BC__PST``), and the
    shipping zones' names and rates and each country's zone (``domain.shipping_form``)."""
    return {
        "company_name": row.company_name,
        "email": row.email,
        "phone": row.phone,
        "address": row.address,
        "instagram": row.instagram,
        "facebook": row.facebook,
        "twitter": row.twitter,
        "gst_hst_number": row.gst_hst_number,
        "currency_symbol": row.currency_symbol,
        **rates,
        **zones,
    }


@private_state
class StoreSettingsState(AdminGuardMixin, rx.State):
    """The settings form: stored values, field errors, the saved banner."""

    values: dict[str, str] = {}
    notify_order_confirmation: bool = True
    notify_low_stock: bool = True
    notify_new_reviews: bool = False
    zones: list[ZoneRow] = []  # the Shipping Zones rows (the stored zones, and one empty row)
    zone_active: list[str] = []  # their "Active" switches that are on
    tax_collected: list[str] = []  # the Taxes by Province rows' "Collect" switches that are on
    errors: dict[str, str] = {}
    form_key: int = 0
    saved: bool = False
    _saves: int = 0

    def _show(self, row: StoreSettings) -> None:
        rates, collected = tax_form(table_from_json(row.tax_table))
        zones = zones_from_json(row.shipping_zones)
        zone_texts, zone_active = zone_form(zones)
        values = _form_values(row, rates, zone_texts)
        switches = (row.notify_order_confirmation, row.notify_low_stock, row.notify_new_reviews)
        current = (self.notify_order_confirmation, self.notify_low_stock, self.notify_new_reviews)
        if (
            values != self.values
            or switches != current
            or list(zone_active) != self.zone_active
            or list(collected) != self.tax_collected
        ):
            # Mount the inputs again only when what they show changes: a remount drops typing.
            self.values = values
            self.notify_order_confirmation, self.notify_low_stock, self.notify_new_reviews = switches
            self.zones = _zone_rows([zone.name for zone in zones])
            self.zone_active = list(zone_active)
            self.tax_collected = list(collected)
            self.form_key += 1
        self.errors = {}

    @admin_event
    async def load(self) -> None:
        """Admins get the stored settings in the form; nothing is read for anyone else."""
        with session_scope() as session:
            self._show(get_store_settings(session))
        self.saved = False

    @admin_event
    async def save(self, form: dict):
        """Validate every field, store the row, show the banner; the site reads it from now on."""
        with session_scope() as session:
            taxes = stored_taxes(session)  # the table the form edits (whether shipping is taxed)
        check = validate_store_settings(form, taxes)
        if check.values is None:
            self.errors = check.errors
            return notify.error(StoreSettingsMessage.FIX_FIELDS.value)
        try:
            with write_transaction() as session:
                row = save_store_settings(session, check.values)
        except Exception:
            log.exception("saving the store settings failed")
            return notify.error(StoreSettingsMessage.SAVE_FAILED.value)
        self._show(row)
        self._saves += 1
        self.saved = True
        # The banner confirms; an earlier "correct the fields" notification must not linger.
        # This tab's header and footer follow at once; other tabs on their next page load.
        return [NotificationState.dismiss, SiteState.load, StoreSettingsState.hide_banner(self._saves)]

    @admin_event(background=True)
    async def hide_banner(self, save: int) -> None:
        """Hide the banner after 3 s unless a later save showed it again."""
        await asyncio.sleep(BANNER_SECONDS)
        async with self:
            if self._saves == save:
                self.saved = False
