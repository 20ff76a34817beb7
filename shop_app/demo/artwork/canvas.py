"""Shared drawing: backgrounds, soft light and shadow, lit bodies, shapes, flames and sprigs.

Everything is drawn on a supersampled RGB image through an ``RGBA`` draw, so
translucent fills blend with what is underneath.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFilter

from .palette import BLACK, RGB, RGBA, mix

__all__ = [
    "Box",
    "Canvas",
    "Look",
    "Place",
    "Shape",
    "bottle_shape",
    "centred_box",
    "contact_shadow",
    "cylinder_shape",
    "ellipse_box",
    "flame",
    "hline",
    "paint_body",
    "paint_floor",
    "rounded_rect_shape",
    "soft_shapes",
    "sprig",
    "stroke",
    "teardrop",
    "vertical_gradient",
]

Box = tuple[float, float, float, float]
#: Draws a white (255) silhouette on an ``L`` mask of the given width and height.
Shape = Callable[[ImageDraw.ImageDraw, int, int], None]


class Canvas(NamedTuple):
    img: Image.Image
    draw: ImageDraw.ImageDraw


class Place(NamedTuple):
    """Where an object stands: centre x, bottom y and total height (pixels)."""

    cx: float
    base: float
    n: float


class Look(NamedTuple):
    """An object's colours and the text on its label (empty for banner props)."""

    vessel: RGB
    accent: RGB
    text: str


# --------------------------------------------------------------------------- geometry


def stroke(width: float, minimum: int = 1) -> int:
    """A line width in whole pixels, never thinner than ``minimum``."""
    return max(minimum, round(width))


def ellipse_box(cx: float, cy: float, rx: float, ry: float | None = None) -> Box:
    """The bounding box of an ellipse (a circle when ``ry`` is omitted) centred on (cx, cy)."""
    ry = rx if ry is None else ry
    return (cx - rx, cy - ry, cx + rx, cy + ry)


def centred_box(cx: float, width: float, top: float, bottom: float) -> Box:
    """A box ``width`` wide centred on ``cx``, from ``top`` down to ``bottom``."""
    return (cx - width / 2, top, cx + width / 2, bottom)


def hline(
    draw: ImageDraw.ImageDraw, cx: float, half: float, y: float, *, fill: tuple[int, ...], width: int
) -> None:
    """A horizontal line of length ``2 * half`` centred on ``cx``."""
    draw.line((cx - half, y, cx + half, y), fill=fill, width=width)


def teardrop(
    cx: float, cy: float, half_w: float, half_h: float, steps: int = 48
) -> list[tuple[float, float]]:
    """A flame-shaped outline, point up, centred on (cx, cy)."""
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = cx + half_w * math.sin(t) * math.sin(t / 2) ** 1.35
        y = cy - half_h * math.cos(t)
        pts.append((x, y))
    return pts


# --------------------------------------------------------------------------- backgrounds and light


def vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    w, h = size
    column = Image.new("RGB", (1, 256))
    column.putdata([mix(top, bottom, i / 255) for i in range(256)])
    return column.resize((w, h), Image.Resampling.BILINEAR)


def paint_floor(
    img: Image.Image, y: float, colour: RGB, *, darken: float, edge: RGBA, edge_width: int
) -> None:
    """A table top or shelf from ``y`` down: a gradient darkening by ``darken`` and a lit front edge."""
    w, h = img.size
    img.paste(vertical_gradient((w, h - int(y)), colour, mix(colour, BLACK, darken)), (0, int(y)))
    ImageDraw.Draw(img, "RGBA").line((0, y, w, y), fill=edge, width=edge_width)


def soft_shapes(
    img: Image.Image,
    shapes: Iterable[tuple[str, Box, float]],
    colour: RGB,
    blur: float,
    region: tuple[int, int, int, int] | None = None,
) -> None:
    """Paint blurred ellipses/rectangles (kind, box, opacity) in ``colour``.

    The mask is drawn at 1/4 resolution and blurred there, which keeps glows
    and shadows cheap even on the large supersampled canvas.
    """
    shapes = list(shapes)
    if not shapes:
        return
    pad = blur * 3
    if region is None:
        x0 = min(b[0] for _, b, _ in shapes) - pad
        y0 = min(b[1] for _, b, _ in shapes) - pad
        x1 = max(b[2] for _, b, _ in shapes) + pad
        y1 = max(b[3] for _, b, _ in shapes) + pad
    else:
        x0, y0, x1, y1 = region
    left, top = max(0, int(x0)), max(0, int(y0))
    right, bottom = min(img.width, math.ceil(x1)), min(img.height, math.ceil(y1))
    if right <= left or bottom <= top:
        return
    f = 4
    mask = Image.new("L", (max(1, (right - left) // f), max(1, (bottom - top) // f)), 0)
    md = ImageDraw.Draw(mask)
    for kind, (a, b, c, d), opacity in shapes:
        box = ((a - left) / f, (b - top) / f, (c - left) / f, (d - top) / f)
        if kind == "ellipse":
            md.ellipse(box, fill=round(255 * opacity))
        else:
            md.rectangle(box, fill=round(255 * opacity))
    mask = mask.filter(ImageFilter.GaussianBlur(max(0.5, blur / f)))
    mask = mask.resize((right - left, bottom - top), Image.Resampling.BILINEAR)
    img.paste(colour, (left, top, right, bottom), mask)


def contact_shadow(img: Image.Image, cx: float, base: float, width: float, strength: float = 0.30) -> None:
    """The soft shadow under an object of ``width`` standing on ``base``."""
    soft_shapes(
        img,
        [
            (
                "ellipse",
                (cx - width * 0.62, base - width * 0.07, cx + width * 0.62, base + width * 0.09),
                strength,
            ),
            (
                "ellipse",
                (cx - width * 0.48, base - width * 0.03, cx + width * 0.48, base + width * 0.04),
                strength,
            ),
        ],
        (40, 30, 24),
        blur=width * 0.06,
    )


# --------------------------------------------------------------------------- lit bodies


def _cylinder_row(width: int, colour: RGB, gloss: float) -> Image.Image:
    """One row of a lit cylinder: soft shading with a specular stripe."""
    row = []
    for x in range(width):
        u = (x + 0.5) / width
        shade = 1.0 - 0.22 * ((u - 0.42) / 0.58) ** 2
        if u > 0.78:
            shade -= 0.10 * (u - 0.78) / 0.22
        base = (colour[0] * shade, colour[1] * shade, colour[2] * shade)
        spec = gloss * 0.55 * math.exp(-(((u - 0.22) / 0.045) ** 2))
        spec += gloss * 0.18 * math.exp(-(((u - 0.30) / 0.10) ** 2))
        rim = 0.10 * math.exp(-(((u - 0.93) / 0.025) ** 2))
        t = min(1.0, spec + rim)
        row.append(
            (
                round(base[0] + (255 - base[0]) * t),
                round(base[1] + (255 - base[1]) * t),
                round(base[2] + (255 - base[2]) * t),
            )
        )
    img = Image.new("RGB", (width, 1))
    img.putdata(row)
    return img


def paint_body(
    img: Image.Image, box: Box, colour: RGB, shape: Shape, *, gloss: float = 0.5, opacity: float = 1.0
) -> None:
    """Fill a shape (drawn by ``shape(draw, w, h)`` in local coordinates) with cylinder shading."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    mask = Image.new("L", (w, h), 0)
    shape(ImageDraw.Draw(mask), w, h)
    if opacity < 1.0:
        mask = mask.point(lambda v: round(v * opacity))
    shaded = _cylinder_row(w, colour, gloss).resize((w, h), Image.Resampling.NEAREST)
    img.paste(shaded, (x0, y0), mask)


def cylinder_shape(ell: float) -> Shape:
    """An upright cylinder seen slightly from above: elliptical top and bottom ``ell`` pixels tall."""

    def shape(d: ImageDraw.ImageDraw, bw: int, bh: int) -> None:
        d.rectangle((0, ell / 2, bw, bh - ell / 2), fill=255)
        d.ellipse((0, bh - ell, bw, bh), fill=255)
        d.ellipse((0, 0, bw, ell), fill=255)

    return shape


def bottle_shape(shoulder: float, radius: float) -> Shape:
    """A bottle with rounded corners (``radius`` of the width) and a round shoulder (of the height)."""

    def shape(d: ImageDraw.ImageDraw, bw: int, bh: int) -> None:
        r = bw * radius
        s = bh * shoulder
        d.rounded_rectangle((0, s * 0.5, bw, bh), radius=r, fill=255)
        d.ellipse((0, 0, bw, s * 1.6), fill=255)

    return shape


def rounded_rect_shape(fraction: float, *, of_width: bool = False) -> Shape:
    """A rounded rectangle; the corner radius is ``fraction`` of the shorter side (or of the width)."""

    def shape(d: ImageDraw.ImageDraw, bw: int, bh: int) -> None:
        d.rounded_rectangle((0, 0, bw, bh), radius=(bw if of_width else min(bw, bh)) * fraction, fill=255)

    return shape


# --------------------------------------------------------------------------- decoration


def flame(img: Image.Image, draw: ImageDraw.ImageDraw, cx: float, bottom: float, height: float) -> None:
    """A glowing candle flame whose rounded bottom sits at ``bottom``."""
    half_h = height / 2
    cy = bottom - half_h
    half_w = height * 0.36
    soft_shapes(
        img,
        [
            ("ellipse", ellipse_box(cx, cy, height * 1.3, height * 1.25), 0.35),
            (
                "ellipse",
                (cx - height * 0.55, cy - height * 0.65, cx + height * 0.55, cy + height * 0.7),
                0.55,
            ),
        ],
        (255, 214, 140),
        blur=height * 0.35,
    )
    draw.polygon(teardrop(cx, cy, half_w, half_h), fill=(245, 150, 55))
    draw.polygon(teardrop(cx, cy + half_h * 0.18, half_w * 0.72, half_h * 0.80), fill=(252, 196, 90))
    draw.polygon(teardrop(cx, cy + half_h * 0.42, half_w * 0.42, half_h * 0.50), fill=(255, 244, 205))


def sprig(
    draw: ImageDraw.ImageDraw, root: tuple[float, float], length: float, *, angle: float, colour: RGB
) -> None:
    """A simple botanical stem with paired leaves (decoration), in one opaque colour."""
    x, y = root
    dx, dy = math.cos(angle), math.sin(angle)
    draw.line((x, y, x + dx * length, y + dy * length), fill=colour, width=stroke(length * 0.016))

    def leaf(px: float, py: float, a: float, size: float) -> None:
        lx, ly = px + math.cos(a) * size, py + math.sin(a) * size
        nx, ny = -math.sin(a) * size * 0.30, math.cos(a) * size * 0.30
        mx, my = px + (lx - px) * 0.45, py + (ly - py) * 0.45
        draw.polygon([(px, py), (mx + nx, my + ny), (lx, ly), (mx - nx, my - ny)], fill=colour)

    leaves = 5
    for i in range(leaves):
        t = 0.22 + 0.74 * i / leaves
        px, py = x + dx * length * t, y + dy * length * t
        size = length * (0.21 - 0.025 * i)
        for side in (-1, 1):
            leaf(px, py, angle + side * 0.72, size)
    leaf(x + dx * length * 0.97, y + dy * length * 0.97, angle, length * 0.12)
