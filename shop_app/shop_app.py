"""Builds the Reflex app, mounts the HTTP API and registers the pages. Nothing else."""

from __future__ import annotations

import reflex as rx

from shop_app.api import create_api
from shop_app.pages import NOT_FOUND, PAGES

NOTIFICATION_MS = 4000  # seed 000 §9: one notification at a time, 4 s, bottom centre

app = rx.App(
    api_transformer=create_api(),
    stylesheets=["/shop.css"],
    head_components=[rx.script(src="/shop.js", defer=True)],
    toaster=rx.toast.provider(
        position="bottom-center",
        duration=NOTIFICATION_MS,
        visible_toasts=1,
        close_button=True,
    ),
)

for page in PAGES:
    app.add_page(
        page.component,
        route=page.route,
        title=page.title,
        description=page.description,
        on_load=page.on_load,
    )
app.add_page(NOT_FOUND.component, route=NOT_FOUND.route, title=NOT_FOUND.title, on_load=NOT_FOUND.on_load)
