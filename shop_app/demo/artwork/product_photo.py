"""The square product photo: a tinted wall, a table top, a soft halo, sprigs and the product."""

from __future__ import annotations

import math
import random

from PIL import Image, ImageDraw

from .canvas import (
    Canvas,
    Look,
    Place,
    contact_shadow,
    paint_floor,
    soft_shapes,
    sprig,
    stroke,
    vertical_gradient,
)
from .palette import CREAM, WHITE, mix, rgb, rgba
from .spec import DemoImageSpec
from .vessels import ASPECT, DRAWERS

__all__ = ["paint_product_photo"]


def paint_product_photo(spec: DemoImageSpec, width: int, height: int, rng: random.Random) -> Image.Image:
    """The product of ``spec`` on a table, sized to fill a ``width`` x ``height`` frame."""
    w, h = width, height
    vessel, accent = rgb(spec.colour), rgb(spec.accent)
    wall_top = mix(accent, CREAM, 0.86)
    wall_bottom = mix(accent, CREAM, 0.72)
    img = vertical_gradient((w, h), wall_top, wall_bottom)
    draw = ImageDraw.Draw(img, "RGBA")
    table_y = h * 0.74
    table = mix(mix(accent, CREAM, 0.62), (120, 96, 80), 0.16)
    paint_floor(img, table_y, table, darken=0.05, edge=rgba(WHITE, 0.35), edge_width=stroke(h * 0.003))
    # A soft halo behind the product, and a couple of sprigs in one corner.
    soft_shapes(
        img,
        [("ellipse", (w * 0.18, h * 0.10, w * 0.82, h * 0.74), 0.55)],
        mix(wall_top, WHITE, 0.6),
        blur=w * 0.05,
    )
    green = mix(accent, (88, 112, 76), 0.72)
    side = -1 if rng.random() < 0.5 else 1
    sx = w * (0.5 + side * 0.34)
    sy = table_y + h * 0.035
    sprig(
        draw,
        (sx, sy),
        h * 0.36,
        angle=-math.pi / 2 - side * (0.30 + 0.1 * rng.random()),
        colour=mix(green, wall_bottom, 0.42),
    )
    sprig(
        draw,
        (sx + side * w * 0.03, sy),
        h * 0.24,
        angle=-math.pi / 2 - side * (0.72 + 0.1 * rng.random()),
        colour=mix(green, wall_bottom, 0.28),
    )
    # The product, sized to fill the frame.
    aspect = ASPECT[spec.kind]
    n = min(h * 0.70, w * 0.60 / aspect)
    base = h * 0.86
    cx = w / 2
    contact_shadow(img, cx, base, n * aspect)
    DRAWERS[spec.kind](Canvas(img, draw), Place(cx, base, n), Look(vessel, accent, spec.label))
    return img
