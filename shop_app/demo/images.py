"""Compatibility name for :mod:`shop_app.demo.artwork`, where the demo artwork lives now.

``from shop_app.demo import images`` keeps working: ``images.DemoImageSpec``,
``images.render``, ``images.save_webp`` and the size constants are the artwork package's.
"""

from __future__ import annotations

from .artwork import (
    CARD_IMAGE_SIZE,
    HERO_IMAGE_SIZE,
    KINDS,
    PRODUCT_IMAGE_SIZE,
    DemoImageSpec,
    ImageKind,
    render,
    save_webp,
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
