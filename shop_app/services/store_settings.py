"""The shop's settings row (brand name, contact details, taxes by province, shipping, where the shop ships).

The seed's settings screen saved nothing (docs/spec/admin-site.md#store-settings); here the owner's changes
are stored in the single ``store_settings`` row and read by the header, footer, mails, SEO pages and checkout,
so a save changes the site on the next page load.
"""

from __future__ import annotations

from dataclasses import asdict

from sqlmodel import Session

from shop_app.domain.shipping import ShippingZones, zones_from_json
from shop_app.domain.store_settings import StoreSettingsValues
from shop_app.domain.tax import TaxTable, table_from_json
from shop_app.models import StoreSettings
from shop_app.models.base import utcnow

SETTINGS_ID = 1


def get_store_settings(session: Session) -> StoreSettings:
    """The settings row; an unsaved default when the shop has not been set up yet."""
    return session.get(StoreSettings, SETTINGS_ID) or StoreSettings(id=SETTINGS_ID)


def stored_taxes(session: Session) -> TaxTable:
    """The shop's taxes by province: the row's table over Canada's default (docs/tax.md)."""
    return table_from_json(get_store_settings(session).tax_table)


def stored_zones(session: Session) -> ShippingZones:
    """The shop's shipping zones: the row's, or the default (``domain.shipping``)."""
    return zones_from_json(get_store_settings(session).shipping_zones)


def save_store_settings(session: Session, values: StoreSettingsValues) -> StoreSettings:
    """Store validated settings in the single row (created on the first save).

    The tax table and the shipping zones are stored as the form describes them
    (``domain.tax.table_to_json``, ``domain.shipping.zones_to_json``).
    """
    row = session.get(StoreSettings, SETTINGS_ID, with_for_update=True)
    if row is None:
        row = StoreSettings(id=SETTINGS_ID)
        session.add(row)
    for name, value in asdict(values).items():
        setattr(row, name, value)
    row.updated_at = utcnow()
    session.flush()
    return row
