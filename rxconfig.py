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
    # /sitemap.xml is served by shop_app.api.seo (static pages and every active product);
    # Reflex's own plugin lists static routes only and would be added implicitly otherwise.
    disable_plugins=[rx.plugins.SitemapPlugin],
    plugins=[
        rx.plugins.RadixThemesPlugin(
            theme=rx.theme(appearance="light", accent_color="bronze", gray_color="sand", radius="medium"),
        ),
    ],
)
