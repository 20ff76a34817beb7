"""The sitemap's product rows come from the database: active products only, with their last change."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from sqlmodel import Session

from shop_app.models import Product
from shop_app.services import seo


def test_active_product_ids_with_lastmod_skips_archived_products(session: Session) -> None:
    stamp = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
    products = [
        Product(name=f"Candle {n}", is_active=n != 1, updated_at=stamp + timedelta(days=n)) for n in range(4)
    ]
    session.add_all(products)
    session.commit()

    rows = list(seo.active_product_ids_with_lastmod(session))

    expected = [p for p in products if p.is_active]
    assert [product_id for product_id, _ in rows] == [p.id for p in expected]
    assert [seo.w3c_datetime(updated) for _, updated in rows] == [
        seo.w3c_datetime(p.updated_at) for p in expected
    ]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", seo.w3c_datetime(rows[0][1]))
