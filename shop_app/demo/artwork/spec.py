"""What to draw: the artwork spec, the image kinds and the standard sizes."""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Literal, get_args

__all__ = [
    "CARD_IMAGE_SIZE",
    "HERO_IMAGE_SIZE",
    "KINDS",
    "PRODUCT_IMAGE_SIZE",
    "DemoImageSpec",
    "ImageKind",
    "scene_seed",
]

ImageKind = Literal["jar", "tin", "bottle", "pump", "diffuser", "spray", "melt", "banner"]
KINDS: tuple[str, ...] = get_args(ImageKind)

#: Square product photos.
PRODUCT_IMAGE_SIZE: tuple[int, int] = (800, 800)
#: Home page hero banner (21:9).
HERO_IMAGE_SIZE: tuple[int, int] = (2100, 900)
#: Category cards, mission and about images (4:3).
CARD_IMAGE_SIZE: tuple[int, int] = (1200, 900)

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True, slots=True)
class DemoImageSpec:
    """What to draw.

    kind:    the object (``banner`` for website images).
    colour:  hex colour of the vessel (for banners: the background).
    accent:  hex colour of the wax, liquid, label trim or banner highlights.
    label:   short text printed on the label, or the banner heading.
    props:   banners only, optional: the objects shown on the banner's shelf
             (kinds such as ``("jar", "diffuser")``); empty gives a default trio.
    """

    kind: ImageKind
    colour: str
    accent: str
    label: str
    props: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown image kind {self.kind!r}")
        for name in ("colour", "accent"):
            value = getattr(self, name)
            if not isinstance(value, str) or not _HEX.match(value):
                raise ValueError(f"{name} must be a #rrggbb hex colour, got {value!r}")
        if not isinstance(self.props, tuple):
            raise ValueError("props must be a tuple")
        for prop in self.props:
            if prop not in KINDS or prop == "banner":
                raise ValueError(f"unknown banner prop {prop!r}")


def scene_seed(spec: DemoImageSpec, size: tuple[int, int]) -> int:
    """The random seed of a scene: the same spec and size always give the same picture."""
    key = f"{spec.kind}|{spec.colour}|{spec.accent}|{spec.label}|{spec.props}|{size}"
    return zlib.crc32(key.encode("utf-8"))
