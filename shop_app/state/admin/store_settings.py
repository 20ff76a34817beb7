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
from typing import Final

import reflex as rx

from shop_app.db import session_scope, write_transaction
from shop_app.domain.admin_messages import StoreSettingsMessage
from shop_app.domain.store_settings import tax_form, validate_store_settings
from shop_app.domain.tax import table_from_json
from shop_app.models import StoreSettings
from shop_app.services.store_settings import get_store_settings, save_store_settings, shipped_to, stored_taxes
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state
from shop_app.state.notify import NotificationState
from shop_app.state.site import SiteState

log = logging.getLogger(__name__)

BANNER_SECONDS: Final = 3.0
"""How long the confirmation banner shows (docs/spec/limits.md#back-office: settings confirmation 3 s)."""


def _form_values(row: StoreSettings, rates: dict[str, str]) -> dict[str, str]:
    """The form's texts: the row's columns, and each tax row's rate (``tax_rate__BC__PST``)."""
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
    }


@private_state
class StoreSettingsState(AdminGuardMixin, rx.State):
    """The settings form: stored values, field errors, the saved banner."""

    values: dict[str, str] = {}
    notify_order_confirmation: bool = True
    notify_low_stock: bool = True
    notify_new_reviews: bool = False
    shipping_countries: list[str] = []  # ticked in the Shipping section
    tax_collected: list[str] = []  # the Taxes by Province rows' "Collect" switches that are on
    errors: dict[str, str] = {}
    form_key: int = 0
    saved: bool = False
    _saves: int = 0

    def _show(self, row: StoreSettings) -> None:
        rates, collected = tax_form(table_from_json(row.tax_table))
        values = _form_values(row, rates)
        switches = (row.notify_order_confirmation, row.notify_low_stock, row.notify_new_reviews)
        current = (self.notify_order_confirmation, self.notify_low_stock, self.notify_new_reviews)
        countries = list(shipped_to(row.shipping_countries))
        if (
            values != self.values
            or switches != current
            or countries != self.shipping_countries
            or list(collected) != self.tax_collected
        ):
            # Mount the inputs again only when what they show changes: a remount drops typing.
            self.values = values
            self.notify_order_confirmation, self.notify_low_stock, self.notify_new_reviews = switches
            self.shipping_countries = countries
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
