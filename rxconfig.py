"""Reflex configuration. Values come from the shop's Settings (environment / .env)."""

import os
from urllib.parse import urlsplit

import reflex as rx

from shop_app.frontend_build import FrontendTuning, RadixThemesTrimmed
from shop_app.settings import get_settings

_settings = get_settings()


def _allowed_origins() -> list[str]:
    """Origins allowed to open Reflex's event websocket and to make CORS requests: the shop's own.

    Reflex checks the websocket handshake's Origin header against this list (python-socketio),
    which stops other sites from driving a shopper's session (cross-site websocket hijacking);
    its default ``*`` allows every site. ``reflex run`` in development serves the pages from its
    own port (3000, or the next free one), so that origin is allowed too, in dev mode only.
    """
    site = urlsplit(_settings.site_url)
    origins = [f"{site.scheme}://{site.netloc}"]
    if os.environ.get("REFLEX_ENV_MODE", "dev") == "dev":
        dev_frontend = f"http://localhost:{os.environ.get('REFLEX_FRONTEND_PORT') or 3000}"
        origins += [dev_frontend] if dev_frontend not in origins else []
    return origins


config = rx.Config(
    app_name="shop_app",
    # No db_url: the shop owns its database (shop_app.db, migrations by `python -m shop_app
    # migrate`). With one, Reflex compared the models with the database at every start by its own
    # autogenerate (without alembic/env.py's rules), which mistakes SQLite's FTS5 name index for a
    # schema change and warns about the display price's expression index (revision 4b9a3f802bb3).
    deploy_url=_settings.site_url,
    telemetry_enabled=False,
    cors_allowed_origins=_allowed_origins(),
    show_built_with_reflex=False,
    # Brotli copies of the built scripts and styles are about 15 % smaller than gzip's;
    # browsers that do not ask for Brotli get the gzip copies.
    frontend_compression_formats=["brotli", "gzip"],
    # /sitemap.xml is served by shop_app.api.seo (static pages and every active product);
    # Reflex's own plugin lists static routes only and would be added implicitly otherwise.
    disable_plugins=[rx.plugins.SitemapPlugin],
    plugins=[
        FrontendTuning(),  # low-priority module preloads: the first paint needs HTML and CSS only
        RadixThemesTrimmed(  # only the color palettes the shop uses
            theme=rx.theme(appearance="light", accent_color="bronze", gray_color="sand", radius="medium"),
        ),
    ],
)
