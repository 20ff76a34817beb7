"""The site's slot images (hero, category cards, mission, about)."""

from __future__ import annotations

from sqlmodel import Session, select

from shop_app.models import WebsiteImage

IMAGE_TYPES = ("hero", "category_candles", "category_bodycare", "category_fragrance", "mission", "about")


def site_images(session: Session) -> dict[str, WebsiteImage]:
    """Active website images by type."""
    rows = session.exec(select(WebsiteImage).where(WebsiteImage.is_active)).all()
    return {row.image_type: row for row in rows}
