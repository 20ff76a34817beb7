"""Site-wide view data shown in the header and footer."""

from __future__ import annotations

import re

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain import shipping
from shop_app.domain.countries import countries_phrase
from shop_app.services.store_settings import get_store_settings


class SiteState(rx.State):
    """Brand and contact details from the store settings."""

    brand_name: str = ""
    contact_email: str = ""
    phone: str = ""
    address: str = ""
    instagram: str = ""
    facebook: str = ""
    twitter: str = ""
    # Where the shop ships, in a sentence ("Canada and the United States"): the countries of the
    # store settings' active shipping zones, which checkout offers and accepts, so every text
    # names the same countries; and what shipping costs there (domain.shipping.shipping_terms).
    ships_to: str = countries_phrase(shipping.ship_countries(shipping.DEFAULT_ZONES))
    shipping_terms: str = shipping.shipping_terms(shipping.DEFAULT_ZONES)

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

    @staticmethod
    def filled(template: str) -> list[str | rx.Var[str]]:
        """A text's parts with ``{ships_to}`` and ``{shipping_terms}`` as these vars (the shipping
        texts of the FAQ, the terms and the product page follow the store settings).

        Examples:
            >>> len(SiteState.filled("We ship to {ships_to}. {shipping_terms}"))  # text, var, text, var
            4
        """
        places = {"{ships_to}": SiteState.ships_to, "{shipping_terms}": SiteState.shipping_terms}
        parts: list[str | rx.Var[str]] = []
        for piece in re.split(r"(\{ships_to\}|\{shipping_terms\})", template):
            if piece:
                parts.append(places.get(piece, piece))
        return parts

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
            zones = shipping.zones_from_json(settings.shipping_zones)
            self.ships_to = countries_phrase(shipping.ship_countries(zones))
            self.shipping_terms = shipping.shipping_terms(zones)
