"""Reflex configuration. Values come from the shop's Settings (environment / .env)."""

import reflex as rx

from shop_app.settings import get_settings

_settings = get_settings()

config = rx.Config(
    app_name="shop_app",
    db_url=_settings.database_url,
    deploy_url=_settings.site_url,
    telemetry_enabled=False,
    show_built_with_reflex=False,
    plugins=[
        rx.plugins.SitemapPlugin(),
        rx.plugins.RadixThemesPlugin(
            theme=rx.theme(appearance="light", accent_color="bronze", gray_color="sand", radius="medium"),
        ),
    ],
)
