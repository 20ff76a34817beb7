"""Builds the Reflex app (with the shop's logging, error handler and event log), mounts the HTTP
API, registers the pages and the two lifespan tasks: the one that keeps Square in step with the
shop's products (``api.square_outbox.keep_square_in_step``: in local mode it fills the fresh
simulator first) and the one that delivers the mail outbox (``api.mail_outbox.deliver_mail``);
and makes the embedded state manager look for expired states only when due
(``state.disk_states``). Nothing else."""

from __future__ import annotations

import reflex as rx

from shop_app import logs
from shop_app.api import create_api
from shop_app.api.mail_outbox import deliver_mail
from shop_app.api.square_outbox import keep_square_in_step
from shop_app.pages import NOT_FOUND, PAGES
from shop_app.settings import get_settings
from shop_app.state import disk_states
from shop_app.state.diagnostics import (
    ShopMiddleware,
    install_log_filters,
    on_backend_error,
    on_frontend_error,
)
from shop_app.state.site import SiteState

logs.configure(level=get_settings().log_level, log_format=get_settings().log_format)
install_log_filters()
disk_states.install()  # the embedded state manager scans its folder only when a state can expire

app = rx.App(
    api_transformer=create_api(),
    stylesheets=["/shop.css"],
    head_components=[rx.script(src="/shop.js", defer=True)],
    toaster=None,  # notifications are state-driven (state.notify): no eval under the CSP
    backend_exception_handler=on_backend_error,
    frontend_exception_handler=on_frontend_error,
)
app.add_middleware(ShopMiddleware())
app.register_lifespan_task(keep_square_in_step)  # product changes to Square (local: fill it first)
app.register_lifespan_task(deliver_mail)  # the mail outbox to SMTP (MAIL_BACKEND=smtp)

for page in (*PAGES, NOT_FOUND):
    # The storefront's pages carry the shop's name in their title (the store settings' brand).
    branded = isinstance(page.title, str) and SiteState.load in page.on_load
    app.add_page(
        page.component,
        route=page.route,
        title=SiteState.branded_title(page.title) if branded else page.title,
        description=page.description,
        on_load=page.on_load,
        meta=[{"name": "robots", "content": page.robots}] if page.robots else [],
    )
