"""The site's slot images (hero, category cards, mission, about): what each slot is and which
stored image fills it (docs/spec/admin-site.md#website-images, #website-images-rules).

A slot without a stored image shows its default: the hero image file at the site root for the
hero, the placeholder for the others (docs/spec/admin-site.md#website-images-rules), with the seed's default
alt text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from sqlmodel import Session, select

from shop_app.models import WebsiteImage
from shop_app.services.media import rendition_file

DEFAULT_HERO = "/hero-default.webp"  # assets/hero-default.webp


@dataclass(frozen=True, slots=True)
class Slot:
    """One place on the site an administrator can put an image."""

    image_type: str
    title: str
    description: str  # where the image shows
    hint: str  # shown while the slot has no image of its own
    default_alt: str  # docs/spec/admin-site.md#website-images-rules


SLOTS: tuple[Slot, ...] = (
    Slot(
        "hero",
        "Homepage Hero",
        "The large banner at the top of the home page, behind the shop's headline.",
        "Wide landscape image, at least 1200px wide",
        "Homepage hero image",
    ),
    Slot(
        "category_candles",
        "Candles Category",
        "The Candles card under Shop By Category on the home page.",
        "Landscape image, about 4:3",
        "Candles category",
    ),
    Slot(
        "category_bodycare",
        "Body Care Category",
        "The Body Care card under Shop By Category on the home page.",
        "Landscape image, about 4:3",
        "Body care category",
    ),
    Slot(
        "category_fragrance",
        "Home Fragrance Category",
        "The Home Fragrance card under Shop By Category on the home page.",
        "Landscape image, about 4:3",
        "Room fragrance category",
    ),
    Slot(
        "mission",
        "Our Mission",
        "Beside the Our Mission text on the home page.",
        "Landscape image, about 4:3",
        "Our mission",
    ),
    Slot(
        "about",
        "About Us",
        "The founder image on the About page.",
        "Portrait or square image of the founder",
        "About us",
    ),
)

IMAGE_TYPES: tuple[str, ...] = tuple(slot.image_type for slot in SLOTS)
SLOTS_BY_TYPE: Mapping[str, Slot] = MappingProxyType({slot.image_type: slot for slot in SLOTS})


def default_alt(image_type: str) -> str:
    """The seed's alt text of a slot ("" for an unknown type)."""
    slot = SLOTS_BY_TYPE.get(image_type)
    return slot.default_alt if slot else ""


def site_images(session: Session) -> dict[str, WebsiteImage]:
    """Active website images by type."""
    rows = session.exec(select(WebsiteImage).where(WebsiteImage.is_active)).all()
    return {row.image_type: row for row in rows}


def hero_file(session: Session, media_dir: Path, width: int | None = None) -> Path | None:
    """The stored hero image's file for ``width`` pixels (see ``media.rendition_file``).

    None when the hero slot has no image of its own: the site then shows the default hero.
    """
    row = site_images(session).get("hero")
    if row is None:
        return None
    return rendition_file(row.image_url, media_dir, stored_width=row.width, width=width)
