"""Shared knowledge of the demo catalogue, and shared moves, for the browser tests."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import Locator, Page

from shop_app.demo.demo_catalog import PRODUCTS, DemoProduct
from shop_app.domain.grouping import parse_product_name

UPLOAD_PATH = "/_upload"  # Reflex's upload endpoint


def demo_id(product: DemoProduct) -> int:
    """The database id of a demo product: the e2e database is fresh and loads them in order."""
    return PRODUCTS.index(product) + 1


def product_named(name: str) -> DemoProduct:
    """The demo product with this exact name."""
    return next(p for p in PRODUCTS if p.name == name)


def with_sibling_scent() -> tuple[DemoProduct, DemoProduct]:
    """Two in-stock demo products in the same vessel with different scents."""
    for first in PRODUCTS:
        base = parse_product_name(first.name).base_name
        for second in PRODUCTS:
            if (
                second is not first
                and parse_product_name(second.name).base_name == base
                and first.stock_quantity > 5
                and second.stock_quantity > 5
            ):
                return first, second
    raise LookupError("the demo catalogue has no vessel with two scents in stock")


def low_stock() -> DemoProduct:
    """A demo product with only a few left."""
    return next(p for p in PRODUCTS if 1 <= p.stock_quantity <= 3)


def active_product_names(database_url: str, *, featured_only: bool = False) -> list[str]:
    """Names of the products the shop lists now, newest first (the individual listing's order).

    The admin journeys add products to the shared e2e database, so storefront tests that count
    the whole catalogue ask the database instead of assuming the demo catalogue alone.
    """
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                sa.text(
                    "SELECT name FROM products WHERE is_active AND is_listed "
                    "AND (is_featured OR NOT :featured_only) "
                    "ORDER BY created_at DESC, id DESC"
                ),
                {"featured_only": featured_only},
            )
            return [name for (name,) in rows]
    finally:
        engine.dispose()


def upload(page: Page, zone: Locator, *files: Path) -> None:
    """Give files to an upload zone's file input and wait until the server has answered.

    Reflex ignores a second upload to a zone while the first request is still open. The zone sends
    one even when the browser refused every file (react-dropzone calls ``on_drop`` with the files it
    accepted, none), and a refusal shows (a toast over the websocket) before that request ends; so
    a test that drops again at once must wait for the request, as a person's pause would.
    """
    with page.expect_request_finished(lambda request: UPLOAD_PATH in request.url):
        zone.set_input_files([str(file) for file in files])
