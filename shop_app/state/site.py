"""Site-wide view data shown in the header and footer."""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.countries import DEFAULT_SHIPPING_COUNTRIES, countries_phrase
from shop_app.services.store_settings import get_store_settings, shipped_to


class SiteState(rx.State):
    """Brand and contact details from the store settings."""

    brand_name: str = ""
    contact_email: str = ""
    phone: str = ""
    address: str = ""
    instagram: str = ""
    facebook: str = ""
    twitter: str = ""
    # Where the shop ships, in a sentence ("Canada and the United States"): the store settings'
    # countries, which checkout offers and accepts, so every text names the same countries.
    ships_to: str = countries_phrase(DEFAULT_SHIPPING_COUNTRIES)

    @rx.var
    def mailto(self) -> str:
        """A mailto: link to the shop, or "" without an address."""
        return f"mailto:{self.contact_email}" if self.contact_email else ""

    @rx.var
    def tel(self) -> str:
        """A tel: link to the shop's phone (digits and a leading +), or "" without a number."""
        digits = "".join(char for char in self.phone if char.isdigit() or char == "+")
        return f"tel:{digits}" if digits else ""

    @staticmethod
    def branded_title(title: str) -> rx.Var[str]:
        """A page's title with the shop's name: "Shop | Cedar & Ember Candle Co." (just the title
        until the store settings have arrived)."""
        return rx.cond(SiteState.brand_name != "", f"{title} | " + SiteState.brand_name, title)

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
            self.twitter = settings.twitter
            self.ships_to = countries_phrase(shipped_to(settings.shipping_countries))
