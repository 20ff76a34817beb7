"""Seeded artwork is stored as image rows with their WebP renditions and true dimensions."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from sqlmodel import Session, select

from shop_app.models import ProductImage
from shop_app.services.media import srcset
from shop_app.services.seeding import load_synthetic


def test_seeded_artwork_is_stored_with_renditions_and_dimensions(session: Session, media_dir: Path) -> None:
    load_synthetic(session, count=20, media_dir=media_dir, seed=3)
    session.commit()

    rows = session.exec(select(ProductImage)).all()
    assert len(rows) == 20
    for row in rows:
        assert (row.width, row.height) == (800, 800)
        for entry in srcset(row.image_url, row.width).split(", "):
            path, descriptor = entry.split(" ")
            with Image.open(media_dir / path.removeprefix("/media/")) as picture:
                assert f"{picture.width}w" == descriptor
