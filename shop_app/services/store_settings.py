"""The shop's settings row (brand name, contact details, tax and shipping)."""

from __future__ import annotations

from sqlmodel import Session

from shop_app.models import StoreSettings

SETTINGS_ID = 1


def get_store_settings(session: Session) -> StoreSettings:
    """The settings row; an unsaved default when the shop has not been set up yet."""
    return session.get(StoreSettings, SETTINGS_ID) or StoreSettings(id=SETTINGS_ID)
