"""Website banners: the 21:9 hero (heading left, props right) and 4:3 cards (heading above props).

A banner is a gradient wall with warm bokeh, a shelf of unlabelled props and
a heading with an overline and an accent rule.
"""

from __future__ import annotations

import math
import random
from typing import NamedTuple

from PIL import Image, ImageDraw

from .canvas import (
    Canvas,
    Look,
    Place,
    contact_shadow,
    ellipse_box,
    paint_floor,
    soft_shapes,
    sprig,
    stroke,
    vertical_gradient,
)
from .palette import BLACK, CREAM, INK, RGB, WHITE, lum, mix, rgb, rgba
from .spec import DemoImageSpec
from .text import draw_tracked, fit_lines, font, font_size
from .vessels import ASPECT, DRAWERS

__all__ = ["paint_banner"]

_DEFAULT_PROPS = ("jar", "diffuser", "tin")
_PROP_VESSELS: tuple[RGB, ...] = (
    (241, 238, 233),  # matte white
    (161, 87, 28),  # amber glass
    (42, 42, 45),  # matte black
    (235, 186, 180),  # blush
    (221, 229, 234),  # frosted
)
_OVERLINE = "SMALL BATCH \u00b7 BRITISH COLUMBIA"


class _Banner(NamedTuple):
    spec: DemoImageSpec
    bg: RGB
    accent: RGB
    dark: bool
    wide: bool
    shelf_y: float
    shelf: RGB


def _background(spec: DemoImageSpec, w: int, h: int, rng: random.Random) -> tuple[Image.Image, _Banner]:
    """Gradient wall with warm bokeh, and a shelf along the bottom."""
    bg, accent = rgb(spec.colour), rgb(spec.accent)
    dark = lum(bg) < 0.5
    wide = w / h > 1.6
    top = mix(bg, BLACK, 0.18) if dark else mix(bg, WHITE, 0.25)
    img = vertical_gradient((w, h), top, mix(bg, accent, 0.18))
    dots = []
    for _ in range(16 if wide else 11):
        r = h * rng.uniform(0.025, 0.09)
        x = w * rng.uniform(0.0, 1.0)
        y = h * rng.uniform(0.04, 0.62)
        dots.append(("ellipse", ellipse_box(x, y, r), rng.uniform(0.10, 0.30)))
    glow = mix(accent, WHITE, 0.35) if dark else mix(bg, WHITE, 0.7)
    soft_shapes(img, dots, glow, blur=h * 0.012, region=(0, 0, w, h))
    shelf_y = h * (0.80 if wide else 0.82)
    shelf = mix(bg, BLACK, 0.30) if dark else mix(bg, (110, 85, 70), 0.25)
    edge = rgba(mix(accent, WHITE, 0.4), 0.45)
    paint_floor(img, shelf_y, shelf, darken=0.15, edge=edge, edge_width=stroke(h * 0.004, 2))
    return img, _Banner(spec, bg, accent, dark, wide, shelf_y, shelf)


def _props(cv: Canvas, b: _Banner, rng: random.Random) -> None:
    """The objects on the shelf: right half of a wide banner, centred on a card; the middle one taller."""
    w, h = cv.img.size
    props = b.spec.props or _DEFAULT_PROPS
    scene_x0, scene_x1 = (w * 0.50, w * 0.97) if b.wide else (w * 0.08, w * 0.92)
    heights = []
    for i in range(len(props)):
        middle = len(props) > 1 and i == len(props) // 2
        heights.append(h * (0.56 if middle else 0.46) if b.wide else h * (0.44 if middle else 0.36))
    widths = [ASPECT[k] * ph for k, ph in zip(props, heights, strict=True)]
    gap = h * 0.05
    scale = min(1.0, (scene_x1 - scene_x0) / (sum(widths) + gap * (len(props) - 1)))
    heights = [ph * scale for ph in heights]
    widths = [pw * scale for pw in widths]
    gap *= scale
    total = sum(widths) + gap * (len(props) - 1)
    x = (scene_x0 + scene_x1) / 2 - total / 2
    base = b.shelf_y + h * 0.03
    leaf = mix(b.accent, (80, 110, 70), 0.6)
    sprig(cv.draw, (x - h * 0.05, base), h * 0.36, angle=-math.pi / 2 + 0.45, colour=mix(leaf, b.shelf, 0.35))
    sprig(
        cv.draw,
        (x + total + h * 0.05, base),
        h * 0.30,
        angle=-math.pi / 2 - 0.5,
        colour=mix(leaf, b.shelf, 0.45),
    )
    for i, (kind, ph, pw) in enumerate(zip(props, heights, widths, strict=True)):
        vessel = _PROP_VESSELS[(i + rng.randrange(len(_PROP_VESSELS))) % len(_PROP_VESSELS)]
        cx = x + pw / 2
        contact_shadow(cv.img, cx, base, pw, strength=0.45)
        wax = mix(b.accent, _PROP_VESSELS[(i + 2) % len(_PROP_VESSELS)], 0.3)
        DRAWERS[kind](cv, Place(cx, base, ph), Look(vessel, wax, ""))
        x += pw + gap


def _heading(cv: Canvas, b: _Banner) -> None:
    """Overline, heading (the label, up to two lines) and an accent rule: left on wide, centred on cards.

    An empty label draws nothing: the site sets its own text over such banners.
    """
    if not b.spec.label:
        return
    draw = cv.draw
    w, h = cv.img.size
    ink = CREAM if b.dark else INK
    if b.wide:
        tw, cy, anchor_x = w * 0.40, h * 0.46, w * 0.06
    else:
        tw, cy, anchor_x = w * 0.80, h * 0.17, w / 2
    face, lines = fit_lines(
        b.spec.label, tw, start=round(h * (0.11 if b.wide else 0.095)), minimum=round(h * 0.04)
    )
    size = font_size(face)
    step = size * 1.12
    # Wide: the block is centred on cy; cards: the first line sits at cy so the overline stays clear.
    block_top = cy - step * (len(lines) - 1) / 2 if b.wide else cy
    over = font(round(h * 0.026))
    draw_tracked(
        draw,
        (anchor_x, block_top - size * 0.95),
        _OVERLINE,
        over,
        fill=rgba(mix(b.accent, ink, 0.25), 0.95),
        tracking=font_size(over) * 0.25,
        align="left" if b.wide else "center",
    )
    anchor = "lm" if b.wide else "mm"
    for i, line in enumerate(lines):
        draw.text((anchor_x, block_top + i * step), line, font=face, fill=(*ink, 255), anchor=anchor)
    rule_y = block_top + step * (len(lines) - 1) + size * 0.85
    rule_w = w * 0.08 if b.wide else w * 0.10
    rx0 = anchor_x if b.wide else anchor_x - rule_w / 2
    draw.line((rx0, rule_y, rx0 + rule_w, rule_y), fill=rgba(b.accent, 0.95), width=stroke(h * 0.006, 2))
    draw.ellipse(
        (rx0 + rule_w + h * 0.012, rule_y - h * 0.006, rx0 + rule_w + h * 0.024, rule_y + h * 0.006),
        fill=rgba(b.accent, 0.95),
    )


def paint_banner(spec: DemoImageSpec, width: int, height: int, rng: random.Random) -> Image.Image:
    """A banner for ``spec``: wide (21:9) or card (4:3) layout, chosen from the frame's shape."""
    img, banner = _background(spec, width, height, rng)
    cv = Canvas(img, ImageDraw.Draw(img, "RGBA"))
    _props(cv, banner, rng)
    _heading(cv, banner)
    return img
