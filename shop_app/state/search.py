"""The header search: turns a query into a visit to the shop."""

from __future__ import annotations

import reflex as rx

from shop_app import routes


class HeaderSearchState(rx.State):
    """Submits the header's search box."""

    @rx.event
    def submit(self, form_data: dict[str, str]):
        """Go to /shop?search=… for a non-empty trimmed query; an empty one does nothing."""
        query = str(form_data.get("query", "")).strip()
        if query:
            return rx.redirect(routes.shop_url(search=query))
        return None
