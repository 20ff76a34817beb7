"""HTTP routes served beside the Reflex app on the same origin (mounted via api_transformer).

``api/`` calls ``services/``, never ``state/``.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route

from shop_app import routes
from shop_app.api import auth, payments, square_webhooks
from shop_app.api.cart_cookie import CartCookie
from shop_app.api.catalog_csv import catalog_csv_routes
from shop_app.api.checkout_page import checkout_page
from shop_app.api.health import health
from shop_app.api.invoices import invoice_routes
from shop_app.api.media import MediaFiles
from shop_app.api.orders_csv import orders_csv_routes
from shop_app.api.security import SecurityHeaders
from shop_app.api.seo import (
    home_page,
    product_page,
    product_page_not_found,
    product_page_with_slash,
    robots,
    shop_page,
    sitemap,
)
from shop_app.api.site_images import hero
from shop_app.api.square_catalog import square_catalog_routes
from shop_app.api.square_sim import square_simulator_routes
from shop_app.api.static_delivery import StaticDelivery
from shop_app.api.uploads import UploadGate
from shop_app.settings import get_settings


def create_api() -> Starlette:
    """Build the Starlette app that Reflex mounts its own backend under."""
    settings = get_settings()
    settings.media_dir.mkdir(parents=True, exist_ok=True)
    return Starlette(
        routes=[
            Route("/api/health", health, methods=["GET"]),
            Route("/api/auth/session", auth.create_session_cookie, methods=["GET"]),
            Route("/api/auth/sign-out", auth.sign_out, methods=["POST"]),
            Route("/api/auth/verify", auth.verify_email, methods=["GET"]),
            Route("/api/square/payments", payments.create_payment, methods=["POST"]),
            *square_catalog_routes(),  # /api/square/catalog, inventory, sync (admin only)
            *catalog_csv_routes(),  # /api/admin/products.csv (admin only)
            *orders_csv_routes(),  # /api/admin/orders.csv?search=&status= (admin only)
            *invoice_routes(),  # /orders/{id}/invoice, /orders/{id}/packing-slip, /admin/orders/print
            Route(square_webhooks.PATH, square_webhooks.receive, methods=["POST"]),
            Route("/product/{id}", product_page, methods=["GET"]),
            Route("/product/{id}/", product_page_with_slash, methods=["GET"]),  # to the one address
            Route("/product/{rest:path}", product_page_not_found, methods=["GET"]),  # //1, 1//, %2F..
            Route(routes.HOME, home_page, methods=["GET"]),
            Route(routes.SHOP, shop_page, methods=["GET"]),
            Route(f"{routes.SHOP}/", shop_page, methods=["GET"]),  # /shop as api/static_delivery serves it
            Route(routes.CHECKOUT, checkout_page, methods=["GET"]),
            Route(f"{routes.CHECKOUT}/", checkout_page, methods=["GET"]),
            Route(routes.HERO_IMAGE, hero, methods=["GET"]),
            Route("/sitemap.xml", sitemap, methods=["GET"]),
            Route("/robots.txt", robots, methods=["GET"]),
            Mount("/media", app=MediaFiles(directory=settings.media_dir), name="media"),
            *square_simulator_routes(settings),  # /_square, local mode only
        ],
        # Reflex mounts its backend (and, with --single-port, the compiled pages) inside this app,
        # so the security headers reach every HTTP response of the shop (and pages are served
        # without a redirect, assets with long caching: api/static_delivery.py).
        # /_upload answers administrators only, within a size limit, before reading the body.
        middleware=[
            Middleware(SecurityHeaders, settings=settings),
            Middleware(UploadGate),
            Middleware(StaticDelivery),
            # A page without a cart cookie brings the browser its cart token (domain.cart_cookie).
            Middleware(CartCookie, secure=settings.site_url.startswith("https://")),
        ],
    )
