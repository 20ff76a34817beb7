"""Site-wide view data shown in the header and footer."""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.services.store_settings import get_store_settings


class SiteState(rx.State):
    """Brand and contact details from the store settings."""

    brand_name: str = ""
    contact_email: str = ""
    phone: str = ""
    address: str = ""
    instagram: str = ""
    facebook: str = ""

    @rx.var
    def mailto(self) -> str:
        """A mailto: link to the shop, or "" without an address."""
        return f"mailto:{self.contact_email}" if self.contact_email else ""

    @rx.var
    def tel(self) -> str:
        """A tel: link to the shop's phone (digits and a leading +), or "" without a phone."""
        digits = "".join(c for c in self.phone if c.isdigit() or c == "+")
        return f"tel:{digits}" if digits else ""

    @rx.event
    def load(self) -> None:
        """Read the store settings once per page load."""
        with session_scope() as session:
            settings = get_store_settings(session)
            self.brand_name = settings.company_name
            self.contact_email = settings.email
            self.phone = settings.phone
            self.address = settings.address
            self.instagram = settings.instagram
            self.facebook = settings.facebook
