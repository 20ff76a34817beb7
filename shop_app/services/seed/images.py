"""Deterministic demo artwork for products and website banners, drawn with Pillow.

Nothing is downloaded and no font file is read: text uses Pillow's bundled
font (``ImageFont.load_default(size=...)``).  The same :class:`DemoImageSpec`
and size always give the same pixels, and :func:`save_webp` the same bytes.

Drawing happens at twice the target resolution and is then reduced, which
gives smooth, anti-aliased edges at a low cost (well under 0.5 s per image).
"""

from __future__ import annotations

import math
import pathlib
import random
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple, get_args

from PIL import Image, ImageDraw, ImageFilter, ImageFont

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

ImageKind = Literal["jar", "tin", "bottle", "pump", "diffuser", "spray", "melt", "banner"]
KINDS: tuple[str, ...] = get_args(ImageKind)

#: Square product photos.
PRODUCT_IMAGE_SIZE: tuple[int, int] = (800, 800)
#: Home page hero banner (21:9).
HERO_IMAGE_SIZE: tuple[int, int] = (2100, 900)
#: Category cards, mission and about images (4:3).
CARD_IMAGE_SIZE: tuple[int, int] = (1200, 900)

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_SS = 2  # supersampling factor

RGB = tuple[int, int, int]


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


# --------------------------------------------------------------------------- colours


def _rgb(value: str) -> RGB:
    return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _lum(c: RGB) -> float:
    return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255.0


def _rgba(c: RGB, alpha: float) -> tuple[int, int, int, int]:
    return (c[0], c[1], c[2], round(255 * alpha))


_WHITE: RGB = (255, 255, 255)
_BLACK: RGB = (0, 0, 0)
_CREAM: RGB = (250, 246, 239)
_INK: RGB = (58, 49, 44)
_WICK: RGB = (52, 42, 36)
_REED: RGB = (176, 138, 96)
_GOLD: RGB = (201, 162, 98)


# --------------------------------------------------------------------------- fonts


@lru_cache(maxsize=256)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=max(6, int(size)))


def _text_w(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, text: str) -> float:
    return float(font.getlength(text))


def _fit_lines(
    text: str, max_w: float, start: int, minimum: int, max_lines: int = 2
) -> tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, list[str]]:
    """Largest font (<= start) at which ``text`` fits in ``max_lines`` lines."""
    words = text.split()
    size = start
    while True:
        font = _font(size)
        if _text_w(font, text) <= max_w or not words:
            return font, [text]
        if max_lines >= 2 and len(words) > 1:
            best: list[str] | None = None
            best_w = math.inf
            for cut in range(1, len(words)):
                lines = [" ".join(words[:cut]), " ".join(words[cut:])]
                w = max(_text_w(font, line) for line in lines)
                if w < best_w:
                    best, best_w = lines, w
            if best is not None and best_w <= max_w:
                return font, best
        if size <= minimum:
            return font, [text]
        size = max(minimum, int(size * 0.92))


def _draw_centered_lines(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    lines: list[str],
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    *,
    fill: tuple[int, ...],
    leading: float = 1.18,
) -> None:
    cx, cy = centre
    size = getattr(font, "size", 12)
    step = size * leading
    top = cy - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        draw.text((cx, top + i * step), line, font=font, fill=fill, anchor="mm")


def _tracked_width(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, text: str, tracking: float) -> float:
    return sum(_text_w(font, ch) for ch in text) + tracking * max(0, len(text) - 1)


def _draw_tracked(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    *,
    fill: tuple[int, ...],
    tracking: float,
    align: str = "center",
) -> None:
    """Letter-spaced text (small caps look); ``at`` is the centre or the left edge, vertically centred."""
    x, cy = at
    if align == "center":
        x -= _tracked_width(font, text, tracking) / 2
    for ch in text:
        draw.text((x, cy), ch, font=font, fill=fill, anchor="lm")
        x += _text_w(font, ch) + tracking


def _fit_tracked(
    text: str, max_w: float, start: int, minimum: int, tracking: float
) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    size = start
    while size > minimum and _tracked_width(_font(size), text, size * tracking) > max_w:
        size -= 1
    return _font(size)


# --------------------------------------------------------------------------- primitives


def _vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    w, h = size
    column = Image.new("RGB", (1, 256))
    column.putdata([_mix(top, bottom, i / 255) for i in range(256)])
    return column.resize((w, h), Image.Resampling.BILINEAR)


def _soft_shapes(
    img: Image.Image,
    shapes: list[tuple[str, tuple[float, float, float, float], float]],
    colour: RGB,
    blur: float,
    region: tuple[int, int, int, int] | None = None,
) -> None:
    """Paint blurred ellipses/rectangles (kind, box, opacity) in ``colour``.

    The mask is drawn at 1/4 resolution and blurred there, which keeps glows
    and shadows cheap even on the large supersampled canvas.
    """
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
    X0, Y0 = max(0, int(x0)), max(0, int(y0))
    X1, Y1 = min(img.width, math.ceil(x1)), min(img.height, math.ceil(y1))
    if X1 <= X0 or Y1 <= Y0:
        return
    f = 4
    mw, mh = max(1, (X1 - X0) // f), max(1, (Y1 - Y0) // f)
    mask = Image.new("L", (mw, mh), 0)
    md = ImageDraw.Draw(mask)
    for kind, (a, b, c, d), opacity in shapes:
        box = ((a - X0) / f, (b - Y0) / f, (c - X0) / f, (d - Y0) / f)
        if kind == "ellipse":
            md.ellipse(box, fill=round(255 * opacity))
        else:
            md.rectangle(box, fill=round(255 * opacity))
    mask = mask.filter(ImageFilter.GaussianBlur(max(0.5, blur / f)))
    mask = mask.resize((X1 - X0, Y1 - Y0), Image.Resampling.BILINEAR)
    img.paste(colour, (X0, Y0, X1, Y1), mask)


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


def _paint_body(
    img: Image.Image,
    box: tuple[float, float, float, float],
    colour: RGB,
    shape: Callable[[ImageDraw.ImageDraw, float, float], None],
    *,
    gloss: float = 0.5,
    opacity: float = 1.0,
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


def _teardrop(
    cx: float, cy: float, half_w: float, half_h: float, steps: int = 48
) -> list[tuple[float, float]]:
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = cx + half_w * math.sin(t) * math.sin(t / 2) ** 1.35
        y = cy - half_h * math.cos(t)
        pts.append((x, y))
    return pts


def _flame(img: Image.Image, draw: ImageDraw.ImageDraw, cx: float, bottom: float, height: float) -> None:
    """A candle flame whose rounded bottom sits at ``bottom``."""
    half_h = height / 2
    cy = bottom - half_h
    half_w = height * 0.36
    _soft_shapes(
        img,
        [
            ("ellipse", (cx - height * 1.3, cy - height * 1.25, cx + height * 1.3, cy + height * 1.25), 0.35),
            (
                "ellipse",
                (cx - height * 0.55, cy - height * 0.65, cx + height * 0.55, cy + height * 0.7),
                0.55,
            ),
        ],
        (255, 214, 140),
        blur=height * 0.35,
    )
    draw.polygon(_teardrop(cx, cy, half_w, half_h), fill=(245, 150, 55))
    draw.polygon(_teardrop(cx, cy + half_h * 0.18, half_w * 0.72, half_h * 0.80), fill=(252, 196, 90))
    draw.polygon(_teardrop(cx, cy + half_h * 0.42, half_w * 0.42, half_h * 0.50), fill=(255, 244, 205))


def _sprig(
    draw: ImageDraw.ImageDraw, root: tuple[float, float], length: float, *, angle: float, colour: RGB
) -> None:
    """A simple botanical stem with paired leaves (decoration), in one opaque colour."""
    x, y = root
    dx, dy = math.cos(angle), math.sin(angle)
    draw.line((x, y, x + dx * length, y + dy * length), fill=colour, width=max(1, round(length * 0.016)))

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


# --------------------------------------------------------------------------- labels


class _Canvas(NamedTuple):
    img: Image.Image
    draw: ImageDraw.ImageDraw


class _Place(NamedTuple):
    """Where an object stands: centre x, bottom y and total height (pixels)."""

    cx: float
    base: float
    n: float


class _Look(NamedTuple):
    vessel: RGB
    accent: RGB
    text: str


def _label(cv: _Canvas, box: tuple[float, float, float, float], look: _Look, tagline: str) -> None:
    """A cream label with a flame ornament, the text, a rule and a tagline (or just rules if no text)."""
    draw = cv.draw
    vessel, accent, text = look.vessel, look.accent, look.text
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    light_vessel = _lum(vessel) > 0.72
    if light_vessel:
        fill = _mix(accent, _CREAM, 0.78)
        border = _mix(accent, _INK, 0.35)
    else:
        fill = _CREAM
        border = _mix(accent, _INK, 0.15)
    radius = min(w, h) * 0.08
    draw.rounded_rectangle(box, radius=radius, fill=fill)
    inset = min(w, h) * 0.06
    draw.rounded_rectangle(
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
        radius=max(1.0, radius - inset),
        outline=_rgba(border, 0.55),
        width=max(1, round(min(w, h) * 0.012)),
    )
    cx = (x0 + x1) / 2
    ink = _INK
    if text:
        # Small flame ornament, the name, a rule and a tiny tagline.
        orn = h * 0.075
        oy = y0 + h * 0.2
        draw.polygon(_teardrop(cx, oy, orn * 0.42, orn), fill=_rgba(border, 0.9))
        font, lines = _fit_lines(
            text, w * 0.78, start=round(h * (0.22 if w > 1.6 * h else 0.17)), minimum=max(8, round(h * 0.07))
        )
        _draw_centered_lines(draw, (cx, y0 + h * 0.5), lines, font, fill=(*ink, 255), leading=1.12)
        ry = y0 + h * 0.72 if len(lines) == 1 else y0 + h * 0.76
        draw.line(
            (cx - w * 0.14, ry, cx + w * 0.14, ry), fill=_rgba(border, 0.8), width=max(1, round(h * 0.012))
        )
        if tagline:
            tag = tagline.upper()
            tfont = _fit_tracked(tag, w * 0.74, start=round(h * 0.062), minimum=7, tracking=0.22)
            _draw_tracked(
                draw, (cx, y0 + h * 0.86), tag, tfont, fill=_rgba(ink, 0.72), tracking=tfont.size * 0.22
            )
    else:
        # Banner props: no text, just a pair of rules and a dot.
        draw.line(
            (cx - w * 0.25, y0 + h * 0.42, cx + w * 0.25, y0 + h * 0.42),
            fill=_rgba(border, 0.8),
            width=max(1, round(h * 0.03)),
        )
        draw.line(
            (cx - w * 0.16, y0 + h * 0.58, cx + w * 0.16, y0 + h * 0.58),
            fill=_rgba(border, 0.6),
            width=max(1, round(h * 0.025)),
        )
        r = h * 0.045
        draw.ellipse((cx - r, y0 + h * 0.25 - r, cx + r, y0 + h * 0.25 + r), fill=_rgba(accent, 0.9))


# --------------------------------------------------------------------------- objects
# Every object is drawn standing on ``base`` (y of its bottom), centred on ``cx``,
# with a total height of about ``n`` pixels (flame and reeds included).  Each kind
# has a width/height ratio in _ASPECT, used to fit it into a frame.

_ASPECT = {
    "jar": 0.62,
    "tin": 1.05,
    "bottle": 0.36,
    "pump": 0.42,
    "diffuser": 0.62,
    "spray": 0.40,
    "melt": 0.95,
}

_TAGLINE = {
    "jar": "Hand-poured in BC",
    "tin": "Hand-poured in BC",
    "bottle": "Handmade in BC",
    "pump": "Handmade in BC",
    "diffuser": "Handmade in BC",
    "spray": "Handmade in BC",
    "melt": "Handmade in BC",
}


def _draw_jar(cv: _Canvas, at: _Place, look: _Look) -> None:
    img, draw = cv.img, cv.draw
    cx, base, n = at.cx, at.base, at.n
    vessel, accent = look.vessel, look.accent
    hv = n * 0.80
    w = n * 0.60
    ell = w * 0.16
    top = base - hv
    x0, x1 = cx - w / 2, cx + w / 2

    def body(d, bw, bh):
        d.rectangle((0, ell / 2, bw, bh - ell / 2), fill=255)
        d.ellipse((0, bh - ell, bw, bh), fill=255)
        d.ellipse((0, 0, bw, ell), fill=255)

    gloss = 0.25 if _lum(vessel) > 0.75 else 0.6
    _paint_body(img, (x0, top, x1, base), vessel, body, gloss=gloss)
    # Rim: the inside of the glass, then the wax a little below it.
    inner = _mix(vessel, _BLACK, 0.28)
    draw.ellipse((x0, top, x1, top + ell), fill=inner)
    rim = w * 0.045
    wax = _mix(accent, _CREAM, 0.55)
    draw.ellipse((x0 + rim, top + ell * 0.18, x1 - rim, top + ell * 1.02), fill=wax)
    draw.ellipse(
        (x0 + rim * 1.8, top + ell * 0.34, x1 - rim * 1.8, top + ell * 0.98), fill=_mix(wax, _WHITE, 0.25)
    )
    draw.arc(
        (x0, top, x1, top + ell),
        180,
        360,
        fill=_rgba(_mix(vessel, _WHITE, 0.5), 0.9),
        width=max(1, round(w * 0.012)),
    )
    # Wick and flame.
    wick_top = top + ell * 0.6 - n * 0.055
    draw.line((cx, top + ell * 0.62, cx + w * 0.006, wick_top), fill=_WICK, width=max(2, round(w * 0.018)))
    _flame(img, draw, cx + w * 0.006, wick_top + n * 0.012, n * 0.15)
    # Label.
    lw, lh = w * 0.66, hv * 0.46
    ly = top + hv * 0.32
    _label(cv, (cx - lw / 2, ly, cx + lw / 2, ly + lh), look, _TAGLINE["jar"])


def _draw_tin(cv: _Canvas, at: _Place, look: _Look) -> None:
    img, draw = cv.img, cv.draw
    cx, base, n = at.cx, at.base, at.n
    vessel, accent = look.vessel, look.accent
    w = n * 1.0
    hv = n * 0.50
    ell = w * 0.16
    top = base - hv
    x0, x1 = cx - w / 2, cx + w / 2

    def body(d, bw, bh):
        d.rectangle((0, ell / 2, bw, bh - ell / 2), fill=255)
        d.ellipse((0, bh - ell, bw, bh), fill=255)
        d.ellipse((0, 0, bw, ell), fill=255)

    _paint_body(img, (x0, top, x1, base), vessel, body, gloss=0.9)
    # Rolled rim line near the top and the bottom seam.
    seam = _rgba(_mix(vessel, _BLACK, 0.25), 0.6)
    draw.arc(
        (x0, top + hv * 0.1, x1, top + hv * 0.1 + ell), 0, 180, fill=seam, width=max(1, round(w * 0.008))
    )
    draw.arc(
        (x0, base - ell - hv * 0.08, x1, base - hv * 0.08), 0, 180, fill=seam, width=max(1, round(w * 0.008))
    )
    inner = _mix(vessel, _BLACK, 0.3)
    draw.ellipse((x0, top, x1, top + ell), fill=inner)
    rim = w * 0.03
    wax = _mix(accent, _CREAM, 0.55)
    draw.ellipse((x0 + rim, top + ell * 0.16, x1 - rim, top + ell * 1.0), fill=wax)
    draw.ellipse(
        (x0 + rim * 2, top + ell * 0.32, x1 - rim * 2, top + ell * 0.96), fill=_mix(wax, _WHITE, 0.25)
    )
    wick_top = top + ell * 0.6 - n * 0.07
    draw.line((cx, top + ell * 0.62, cx, wick_top), fill=_WICK, width=max(2, round(w * 0.012)))
    _flame(img, draw, cx, wick_top + n * 0.015, n * 0.19)
    lw, lh = w * 0.62, hv * 0.56
    ly = top + hv * 0.30
    _label(cv, (cx - lw / 2, ly, cx + lw / 2, ly + lh), look, _TAGLINE["tin"])


def _bottle_shape(shoulder: float, radius: float):
    def shape(d, bw, bh):
        r = bw * radius
        s = bh * shoulder
        d.rounded_rectangle((0, s * 0.5, bw, bh), radius=r, fill=255)
        d.ellipse((0, 0, bw, s * 1.6), fill=255)

    return shape


def _draw_bottle(cv: _Canvas, at: _Place, look: _Look) -> None:
    """A tall flip-top lotion bottle."""
    img, draw = cv.img, cv.draw
    cx, base, n = at.cx, at.base, at.n
    vessel, accent = look.vessel, look.accent
    w = n * 0.34
    cap_h = n * 0.20
    body_h = n - cap_h
    top = base - body_h
    _paint_body(img, (cx - w / 2, top, cx + w / 2, base), vessel, _bottle_shape(0.08, 0.16), gloss=0.45)
    cap = _mix(accent, _INK, 0.45) if _lum(vessel) > 0.6 else _mix(vessel, _BLACK, 0.35)
    cw = w * 0.62

    def cap_shape(d, bw, bh):
        d.rounded_rectangle((0, 0, bw, bh), radius=bw * 0.14, fill=255)

    _paint_body(
        img, (cx - cw / 2, top - cap_h + n * 0.01, cx + cw / 2, top + n * 0.03), cap, cap_shape, gloss=0.5
    )
    draw.line(
        (cx - cw / 2, top - cap_h * 0.55, cx + cw / 2, top - cap_h * 0.55),
        fill=_rgba(_mix(cap, _BLACK, 0.35), 0.7),
        width=max(1, round(w * 0.02)),
    )
    lw, lh = w * 0.80, body_h * 0.52
    ly = top + body_h * 0.24
    _label(cv, (cx - lw / 2, ly, cx + lw / 2, ly + lh), look, _TAGLINE["bottle"])


def _draw_pump(cv: _Canvas, at: _Place, look: _Look) -> None:
    """A pump bottle of hand and body lotion."""
    img, draw = cv.img, cv.draw
    cx, base, n = at.cx, at.base, at.n
    vessel = look.vessel
    w = n * 0.40
    body_h = n * 0.70
    top = base - body_h
    _paint_body(img, (cx - w / 2, top, cx + w / 2, base), vessel, _bottle_shape(0.10, 0.14), gloss=0.45)
    metal = _mix(vessel, _BLACK, 0.55) if _lum(vessel) > 0.45 else _mix(vessel, _WHITE, 0.55)
    # Collar, stem, actuator head and nozzle.
    col_w, col_h = w * 0.36, n * 0.06
    col_top = top - col_h + n * 0.012

    def rect(d, bw, bh):
        d.rounded_rectangle((0, 0, bw, bh), radius=min(bw, bh) * 0.2, fill=255)

    _paint_body(img, (cx - col_w / 2, col_top, cx + col_w / 2, top + n * 0.015), metal, rect, gloss=0.6)
    stem_w = w * 0.09
    stem_top = col_top - n * 0.11
    _paint_body(img, (cx - stem_w / 2, stem_top, cx + stem_w / 2, col_top + 2), metal, rect, gloss=0.6)
    head_w, head_h = w * 0.34, n * 0.07
    head_top = stem_top - head_h
    _paint_body(img, (cx - head_w / 2, head_top, cx + head_w / 2, stem_top + 2), metal, rect, gloss=0.6)
    noz_len = w * 0.42
    draw.rounded_rectangle(
        (cx + head_w * 0.3, head_top + head_h * 0.12, cx + head_w / 2 + noz_len, head_top + head_h * 0.5),
        radius=head_h * 0.15,
        fill=_mix(metal, _BLACK, 0.08),
    )
    lw, lh = w * 0.78, body_h * 0.50
    ly = top + body_h * 0.26
    _label(cv, (cx - lw / 2, ly, cx + lw / 2, ly + lh), look, _TAGLINE["pump"])


def _draw_diffuser(cv: _Canvas, at: _Place, look: _Look) -> None:
    """A glass reed diffuser: liquid inside, reeds fanning out of the neck."""
    img, draw = cv.img, cv.draw
    cx, base, n = at.cx, at.base, at.n
    vessel, accent = look.vessel, look.accent
    w = n * 0.44
    body_h = n * 0.46
    top = base - body_h
    neck_w = w * 0.28
    neck_h = n * 0.05
    neck_top = top - neck_h + n * 0.01
    # Reeds first, so the bottle's neck covers their ends.
    reeds = 7
    reed_w = max(2, round(n * 0.011))
    for i in range(reeds):
        u = (i - (reeds - 1) / 2) / ((reeds - 1) / 2)
        length = n * (0.56 - 0.05 * abs(u) + 0.03 * math.cos(i * 1.7))
        angle = -math.pi / 2 + u * 0.34
        sx = cx + u * neck_w * 0.25
        ex = sx + math.cos(angle) * length
        ey = neck_top + math.sin(angle) * length
        shade = _mix(_REED, _BLACK, 0.12 * ((i * 3) % 4) / 3)
        draw.line((sx, neck_top + neck_h, ex, ey), fill=shade, width=reed_w)
        draw.ellipse(
            (ex - reed_w * 0.6, ey - reed_w * 0.6, ex + reed_w * 0.6, ey + reed_w * 0.6),
            fill=_mix(shade, _BLACK, 0.2),
        )
    # Glass, then liquid seen through it.
    glass_shape = _bottle_shape(0.16, 0.20)
    _paint_body(img, (cx - w / 2, top, cx + w / 2, base), vessel, glass_shape, gloss=0.8, opacity=0.92)
    liquid_top = top + body_h * 0.42

    def liquid(d, bw, bh):
        inset = bw * 0.05
        d.rounded_rectangle((inset, 0, bw - inset, bh - inset), radius=bw * 0.16, fill=255)

    _paint_body(
        img,
        (cx - w / 2, liquid_top, cx + w / 2, base),
        _mix(accent, vessel, 0.25),
        liquid,
        gloss=0.3,
        opacity=0.55,
    )
    draw.line(
        (cx - w / 2 + w * 0.06, liquid_top + 1, cx + w / 2 - w * 0.06, liquid_top + 1),
        fill=_rgba(_mix(accent, _WHITE, 0.5), 0.8),
        width=max(1, round(n * 0.005)),
    )
    collar = _mix(_GOLD, _INK, 0.1) if _lum(vessel) > 0.5 else _mix(vessel, _BLACK, 0.4)

    def rect(d, bw, bh):
        d.rounded_rectangle((0, 0, bw, bh), radius=min(bw, bh) * 0.25, fill=255)

    _paint_body(
        img, (cx - neck_w / 2, neck_top, cx + neck_w / 2, top + body_h * 0.08), collar, rect, gloss=0.9
    )
    lw, lh = w * 0.70, body_h * 0.50
    ly = top + body_h * 0.30
    _label(cv, (cx - lw / 2, ly, cx + lw / 2, ly + lh), look, _TAGLINE["diffuser"])


def _draw_spray(cv: _Canvas, at: _Place, look: _Look) -> None:
    """A room spray: round-shouldered bottle with a fine-mist sprayer."""
    img, draw = cv.img, cv.draw
    cx, base, n = at.cx, at.base, at.n
    vessel = look.vessel
    w = n * 0.38
    body_h = n * 0.74
    top = base - body_h
    _paint_body(img, (cx - w / 2, top, cx + w / 2, base), vessel, _bottle_shape(0.14, 0.18), gloss=0.75)
    dark = _mix(vessel, _BLACK, 0.6) if _lum(vessel) > 0.25 else _mix(vessel, _WHITE, 0.4)

    def rect(d, bw, bh):
        d.rounded_rectangle((0, 0, bw, bh), radius=min(bw, bh) * 0.22, fill=255)

    col_w = w * 0.44
    col_top = top - n * 0.06
    _paint_body(img, (cx - col_w / 2, col_top, cx + col_w / 2, top + n * 0.03), dark, rect, gloss=0.5)
    head_w = w * 0.34
    head_top = col_top - n * 0.13
    _paint_body(img, (cx - head_w / 2, head_top, cx + head_w / 2, col_top + 2), dark, rect, gloss=0.6)
    r = head_w * 0.1
    ny = head_top + n * 0.04
    draw.ellipse((cx - r, ny - r, cx + r, ny + r), fill=_mix(dark, _BLACK, 0.5))
    lw, lh = w * 0.80, body_h * 0.48
    ly = top + body_h * 0.30
    _label(cv, (cx - lw / 2, ly, cx + lw / 2, ly + lh), look, _TAGLINE["spray"])


def _cube(draw, x, y, s, colour):
    """An isometric-ish wax cube whose front face has its top-left corner at (x, y)."""
    d = s * 0.28
    top = _mix(colour, _WHITE, 0.35)
    side = _mix(colour, _BLACK, 0.14)
    r = s * 0.06
    draw.polygon([(x, y), (x + d, y - d * 0.6), (x + s + d, y - d * 0.6), (x + s, y)], fill=top)
    draw.polygon(
        [(x + s, y), (x + s + d, y - d * 0.6), (x + s + d, y + s - d * 0.6), (x + s, y + s)], fill=side
    )
    draw.rounded_rectangle((x, y, x + s, y + s), radius=r, fill=colour)
    draw.line(
        (x + s * 0.12, y + s * 0.1, x + s * 0.12, y + s * 0.9),
        fill=_rgba(_WHITE, 0.25),
        width=max(1, round(s * 0.05)),
    )


def _draw_melt(cv: _Canvas, at: _Place, look: _Look) -> None:
    """A clamshell of wax melt cubes (two rows seen from the front) with a kraft label."""
    draw = cv.draw
    cx, base, n = at.cx, at.base, at.n
    vessel, accent = look.vessel, look.accent
    wax = _mix(accent, _CREAM, 0.22)
    w = n * 0.92
    tray_h = n * 0.62
    top = base - tray_h
    x0, x1 = cx - w / 2, cx + w / 2
    # Clear plastic tray: a pale rim and a faint body.
    tray = _mix(vessel, _WHITE, 0.75)
    draw.rounded_rectangle((x0, top, x1, base), radius=w * 0.06, fill=_rgba(tray, 0.92))
    draw.rounded_rectangle(
        (x0, top, x1, base), radius=w * 0.06, outline=_rgba(_WHITE, 0.8), width=max(1, round(w * 0.01))
    )
    # Three cubes per row, the back row peeking over the front row.
    s = w * 0.27
    gap = (w - 3 * s) / 4
    for row, (dy, tone) in enumerate(((-s * 0.55, 0.06), (0.0, 0.0))):
        y = top + gap * 0.9 + s * 0.25 + dy + s * 0.55
        for i in range(3):
            x = x0 + gap + i * (s + gap) - s * 0.06
            _cube(draw, x, y, s * 0.92, _mix(wax, _BLACK, tone + 0.025 * ((i + row) % 2)))
    # Kraft band label across the front.
    lw, lh = w * 1.04, tray_h * 0.46
    ly = base - lh - tray_h * 0.06
    _label(cv, (cx - lw / 2, ly, cx + lw / 2, ly + lh), look, _TAGLINE["melt"])


_DRAW = {
    "jar": _draw_jar,
    "tin": _draw_tin,
    "bottle": _draw_bottle,
    "pump": _draw_pump,
    "diffuser": _draw_diffuser,
    "spray": _draw_spray,
    "melt": _draw_melt,
}


def _contact_shadow(img: Image.Image, cx: float, base: float, width: float, strength: float = 0.30) -> None:
    _soft_shapes(
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


# --------------------------------------------------------------------------- scenes


def _seed(spec: DemoImageSpec, size: tuple[int, int]) -> int:
    key = f"{spec.kind}|{spec.colour}|{spec.accent}|{spec.label}|{spec.props}|{size}"
    return zlib.crc32(key.encode("utf-8"))


def _render_product(spec: DemoImageSpec, W: int, H: int) -> Image.Image:
    vessel, accent = _rgb(spec.colour), _rgb(spec.accent)
    rng = random.Random(_seed(spec, (W, H)))
    wall_top = _mix(accent, _CREAM, 0.86)
    wall_bottom = _mix(accent, _CREAM, 0.72)
    img = _vertical_gradient((W, H), wall_top, wall_bottom)
    draw = ImageDraw.Draw(img, "RGBA")
    # Table top.
    table_y = H * 0.74
    table = _mix(_mix(accent, _CREAM, 0.62), (120, 96, 80), 0.16)
    img.paste(_vertical_gradient((W, H - int(table_y)), table, _mix(table, _BLACK, 0.05)), (0, int(table_y)))
    draw.line((0, table_y, W, table_y), fill=_rgba(_WHITE, 0.35), width=max(1, round(H * 0.003)))
    # A soft halo behind the product, and a couple of sprigs in the corners.
    _soft_shapes(
        img,
        [("ellipse", (W * 0.18, H * 0.10, W * 0.82, H * 0.74), 0.55)],
        _mix(wall_top, _WHITE, 0.6),
        blur=W * 0.05,
    )
    green = _mix(accent, (88, 112, 76), 0.72)
    side = -1 if rng.random() < 0.5 else 1
    sx = W * (0.5 + side * 0.34)
    sy = table_y + H * 0.035
    _sprig(
        draw,
        (sx, sy),
        H * 0.36,
        angle=-math.pi / 2 - side * (0.30 + 0.1 * rng.random()),
        colour=_mix(green, wall_bottom, 0.42),
    )
    _sprig(
        draw,
        (sx + side * W * 0.03, sy),
        H * 0.24,
        angle=-math.pi / 2 - side * (0.72 + 0.1 * rng.random()),
        colour=_mix(green, wall_bottom, 0.28),
    )
    # The product, sized to fill the frame.
    aspect = _ASPECT[spec.kind]
    n = min(H * 0.70, W * 0.60 / aspect)
    base = H * 0.86
    cx = W / 2
    _contact_shadow(img, cx, base, n * aspect)
    _DRAW[spec.kind](_Canvas(img, draw), _Place(cx, base, n), _Look(vessel, accent, spec.label))
    return img


_BANNER_PROPS = ("jar", "diffuser", "tin")
_PROP_VESSELS: tuple[RGB, ...] = (
    (241, 238, 233),  # matte white
    (161, 87, 28),  # amber glass
    (42, 42, 45),  # matte black
    (235, 186, 180),  # blush
    (221, 229, 234),  # frosted
)


class _Banner(NamedTuple):
    spec: DemoImageSpec
    bg: RGB
    accent: RGB
    dark: bool
    wide: bool
    shelf_y: float
    shelf: RGB


def _banner_background(
    spec: DemoImageSpec, W: int, H: int, rng: random.Random
) -> tuple[Image.Image, _Banner]:
    """Gradient wall with warm bokeh, and a shelf along the bottom."""
    bg, accent = _rgb(spec.colour), _rgb(spec.accent)
    dark = _lum(bg) < 0.5
    wide = W / H > 1.6
    top = _mix(bg, _BLACK, 0.18) if dark else _mix(bg, _WHITE, 0.25)
    img = _vertical_gradient((W, H), top, _mix(bg, accent, 0.18))
    dots = []
    for _ in range(16 if wide else 11):
        r = H * rng.uniform(0.025, 0.09)
        x = W * rng.uniform(0.0, 1.0)
        y = H * rng.uniform(0.04, 0.62)
        dots.append(("ellipse", (x - r, y - r, x + r, y + r), rng.uniform(0.10, 0.30)))
    glow = _mix(accent, _WHITE, 0.35) if dark else _mix(bg, _WHITE, 0.7)
    _soft_shapes(img, dots, glow, blur=H * 0.012, region=(0, 0, W, H))
    shelf_y = H * (0.80 if wide else 0.82)
    shelf = _mix(bg, _BLACK, 0.30) if dark else _mix(bg, (110, 85, 70), 0.25)
    img.paste(_vertical_gradient((W, H - int(shelf_y)), shelf, _mix(shelf, _BLACK, 0.15)), (0, int(shelf_y)))
    ImageDraw.Draw(img, "RGBA").line(
        (0, shelf_y, W, shelf_y), fill=_rgba(_mix(accent, _WHITE, 0.4), 0.45), width=max(2, round(H * 0.004))
    )
    return img, _Banner(spec, bg, accent, dark, wide, shelf_y, shelf)


def _banner_props(cv: _Canvas, b: _Banner, rng: random.Random) -> None:
    """The objects on the shelf: right half of a wide banner, centred on a card; the middle one taller."""
    W, H = cv.img.size
    props = b.spec.props or _BANNER_PROPS
    scene_x0, scene_x1 = (W * 0.50, W * 0.97) if b.wide else (W * 0.08, W * 0.92)
    heights = []
    for i in range(len(props)):
        middle = len(props) > 1 and i == len(props) // 2
        heights.append(H * (0.56 if middle else 0.46) if b.wide else H * (0.44 if middle else 0.36))
    widths = [_ASPECT[k] * h for k, h in zip(props, heights, strict=True)]
    gap = H * 0.05
    scale = min(1.0, (scene_x1 - scene_x0) / (sum(widths) + gap * (len(props) - 1)))
    heights = [h * scale for h in heights]
    widths = [w * scale for w in widths]
    gap *= scale
    total = sum(widths) + gap * (len(props) - 1)
    x = (scene_x0 + scene_x1) / 2 - total / 2
    base = b.shelf_y + H * 0.03
    leaf = _mix(b.accent, (80, 110, 70), 0.6)
    _sprig(
        cv.draw, (x - H * 0.05, base), H * 0.36, angle=-math.pi / 2 + 0.45, colour=_mix(leaf, b.shelf, 0.35)
    )
    _sprig(
        cv.draw,
        (x + total + H * 0.05, base),
        H * 0.30,
        angle=-math.pi / 2 - 0.5,
        colour=_mix(leaf, b.shelf, 0.45),
    )
    for i, (kind, h, w) in enumerate(zip(props, heights, widths, strict=True)):
        vessel = _PROP_VESSELS[(i + rng.randrange(len(_PROP_VESSELS))) % len(_PROP_VESSELS)]
        cx = x + w / 2
        _contact_shadow(cv.img, cx, base, w, strength=0.45)
        wax = _mix(b.accent, _PROP_VESSELS[(i + 2) % len(_PROP_VESSELS)], 0.3)
        _DRAW[kind](cv, _Place(cx, base, h), _Look(vessel, wax, ""))
        x += w + gap


def _banner_heading(cv: _Canvas, b: _Banner) -> None:
    """Overline, heading (the label, up to two lines) and an accent rule: left on wide, centred on cards."""
    draw = cv.draw
    W, H = cv.img.size
    ink = _CREAM if b.dark else _INK
    if b.wide:
        tw, cy, anchor_x = W * 0.40, H * 0.46, W * 0.06
    else:
        tw, cy, anchor_x = W * 0.80, H * 0.17, W / 2
    font, lines = _fit_lines(
        b.spec.label, tw, start=round(H * (0.11 if b.wide else 0.095)), minimum=round(H * 0.04)
    )
    size = getattr(font, "size", 12)
    step = size * 1.12
    # Wide: the block is centred on cy; cards: the first line sits at cy so the overline stays clear.
    block_top = cy - step * (len(lines) - 1) / 2 if b.wide else cy
    over = _font(round(H * 0.026))
    _draw_tracked(
        draw,
        (anchor_x, block_top - size * 0.95),
        "SMALL BATCH \u00b7 BRITISH COLUMBIA",
        over,
        fill=_rgba(_mix(b.accent, ink, 0.25), 0.95),
        tracking=over.size * 0.25,
        align="left" if b.wide else "center",
    )
    anchor = "lm" if b.wide else "mm"
    for i, line in enumerate(lines):
        draw.text((anchor_x, block_top + i * step), line, font=font, fill=(*ink, 255), anchor=anchor)
    rule_y = block_top + step * (len(lines) - 1) + size * 0.85
    rule_w = W * 0.08 if b.wide else W * 0.10
    rx0 = anchor_x if b.wide else anchor_x - rule_w / 2
    draw.line((rx0, rule_y, rx0 + rule_w, rule_y), fill=_rgba(b.accent, 0.95), width=max(2, round(H * 0.006)))
    draw.ellipse(
        (rx0 + rule_w + H * 0.012, rule_y - H * 0.006, rx0 + rule_w + H * 0.024, rule_y + H * 0.006),
        fill=_rgba(b.accent, 0.95),
    )


def _render_banner(spec: DemoImageSpec, W: int, H: int) -> Image.Image:
    rng = random.Random(_seed(spec, (W, H)))
    img, banner = _banner_background(spec, W, H, rng)
    cv = _Canvas(img, ImageDraw.Draw(img, "RGBA"))
    _banner_props(cv, banner, rng)
    _banner_heading(cv, banner)
    return img


# --------------------------------------------------------------------------- public API


def render(spec: DemoImageSpec, size: tuple[int, int]) -> Image.Image:
    """Draw ``spec`` as an RGB image of exactly ``size`` (width, height) pixels.

    Products are designed for squares (800x800); banners adapt to wide (21:9,
    heading on the left, props on the right) or card (4:3) frames.
    """
    w, h = int(size[0]), int(size[1])
    if w <= 0 or h <= 0:
        raise ValueError(f"size must be positive, got {size!r}")
    W, H = w * _SS, h * _SS
    big = _render_banner(spec, W, H) if spec.kind == "banner" else _render_product(spec, W, H)
    return big.reduce(_SS)


def save_webp(image: Image.Image, path: pathlib.Path, quality: int = 82) -> None:
    """Write ``image`` as a WebP file (parent folders are created)."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGB")
    image.save(path, format="WEBP", quality=int(quality), method=4)
