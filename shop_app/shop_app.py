"""Builds the Reflex app, mounts the HTTP API and registers the pages. Nothing else."""

from __future__ import annotations

import reflex as rx

from shop_app.api import create_api
from shop_app.pages import NOT_FOUND, PAGES

app = rx.App(
    api_transformer=create_api(),
    stylesheets=["/shop.css"],
    head_components=[rx.script(src="/shop.js", defer=True)],
    toaster=None,  # notifications are state-driven (state.notify): no eval under the CSP
)

for page in (*PAGES, NOT_FOUND):
    app.add_page(
        page.component,
        route=page.route,
        title=page.title,
        description=page.description,
        on_load=page.on_load,
        meta=[{"name": "robots", "content": page.robots}] if page.robots else [],
    )
