"""Deterministic demo artwork for products and website banners, drawn with Pillow.

Nothing is downloaded and no font file is read: text uses Pillow's bundled
font (``ImageFont.load_default(size=...)``).  The same :class:`DemoImageSpec`
and size always give the same pixels, and :func:`save_webp` the same bytes.

Drawing happens at twice the target resolution and is then reduced, which
gives smooth, anti-aliased edges at a low cost (well under 0.5 s per image).

Modules: :mod:`.spec` (what to draw), :mod:`.palette` and :mod:`.text` (colours
and type), :mod:`.canvas` (backgrounds, light and shared shapes), :mod:`.label`,
:mod:`.vessels` (the products), :mod:`.product_photo` and :mod:`.banners` (scenes).
"""

from __future__ import annotations

import pathlib
import random

from PIL import Image

from .banners import paint_banner
from .product_photo import paint_product_photo
from .spec import (
    CARD_IMAGE_SIZE,
    HERO_IMAGE_SIZE,
    KINDS,
    PRODUCT_IMAGE_SIZE,
    DemoImageSpec,
    ImageKind,
    scene_seed,
)

__all__ = [
    "CARD_IMAGE_SIZE",
    "HERO_IMAGE_SIZE",
    "KINDS",
    "PRODUCT_IMAGE_SIZE",
    "DemoImageSpec",
    "ImageKind",
    "render",
    "save_webp",
]

_SS = 2  # supersampling factor


def render(spec: DemoImageSpec, size: tuple[int, int]) -> Image.Image:
    """Draw ``spec`` as an RGB image of exactly ``size`` (width, height) pixels.

    Products are designed for squares (800x800); banners adapt to wide (21:9,
    heading on the left, props on the right) or card (4:3) frames.
    """
    w, h = int(size[0]), int(size[1])
    if w <= 0 or h <= 0:
        raise ValueError(f"size must be positive, got {size!r}")
    big_w, big_h = w * _SS, h * _SS
    rng = random.Random(scene_seed(spec, (big_w, big_h)))
    paint = paint_banner if spec.kind == "banner" else paint_product_photo
    return paint(spec, big_w, big_h, rng).reduce(_SS)


def save_webp(image: Image.Image, path: pathlib.Path, quality: int = 82) -> None:
    """Write ``image`` as a WebP file (parent folders are created)."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGB")
    image.save(path, format="WEBP", quality=int(quality), method=4)
