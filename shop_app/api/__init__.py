"""HTTP routes served beside the Reflex app on the same origin (mounted via api_transformer).

``api/`` calls ``services/``, never ``state/``.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import Mount, Route

from shop_app.api.health import health
from shop_app.api.media import MediaFiles
from shop_app.api.seo import product_page, sitemap
from shop_app.settings import get_settings


def create_api() -> Starlette:
    """Build the Starlette app that Reflex mounts its own backend under."""
    settings = get_settings()
    settings.media_dir.mkdir(parents=True, exist_ok=True)
    return Starlette(
        routes=[
            Route("/api/health", health, methods=["GET"]),
            Route("/product/{id}", product_page, methods=["GET"]),
            Route("/sitemap.xml", sitemap, methods=["GET"]),
            Mount("/media", app=MediaFiles(directory=settings.media_dir), name="media"),
        ]
    )
