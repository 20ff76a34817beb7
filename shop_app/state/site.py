"""Site-wide view data shown in the header and footer."""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.services.store_settings import get_store_settings


class SiteState(rx.State):
    """Brand and contact details from the store settings."""

    brand_name: str = ""
    contact_email: str = ""

    @rx.event
    def load(self) -> None:
        """Read the store settings once per page load."""
        with session_scope() as session:
            settings = get_store_settings(session)
            self.brand_name = settings.company_name
            self.contact_email = settings.email
