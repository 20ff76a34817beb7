"""The products: candle jars and tins, lotion bottles and pumps, diffusers, sprays and wax melts.

Every object is drawn standing on ``base`` (y of its bottom), centred on ``cx``,
with a total height of about ``n`` pixels (flame and reeds included).  Each kind
has a width/height ratio in :data:`ASPECT`, used to fit it into a frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from .canvas import (
    Box,
    Canvas,
    Look,
    Place,
    Shape,
    bottle_shape,
    centred_box,
    cylinder_shape,
    ellipse_box,
    flame,
    hline,
    paint_body,
    rounded_rect_shape,
    stroke,
)
from .label import label
from .palette import BLACK, CREAM, GOLD, INK, REED, RGB, WHITE, WICK, lum, mix, rgba

__all__ = ["ASPECT", "DRAWERS", "Drawer"]

Drawer = Callable[[Canvas, Place, Look], None]

#: Width / height of each kind, used to fit it into a frame.
ASPECT: dict[str, float] = {
    "jar": 0.62,
    "tin": 1.05,
    "bottle": 0.36,
    "pump": 0.42,
    "diffuser": 0.62,
    "spray": 0.40,
    "melt": 0.95,
}

_CANDLE_TAGLINE = "Hand-poured in BC"
_TAGLINE = "Handmade in BC"


# --------------------------------------------------------------------------- shared parts


def _upright(
    img: Image.Image, at: Place, size: tuple[float, float], colour: RGB, shape: Shape, **light: float
) -> float:
    """Paint a lit body ``size`` = (width, height) standing on ``at.base``; return its top y."""
    width, height = size
    top = at.base - height
    paint_body(img, centred_box(at.cx, width, top, at.base), colour, shape, **light)
    return top


def _fittings(
    img: Image.Image,
    cx: float,
    colour: RGB,
    shape: Shape,
    parts: tuple[tuple[float, float, float, float], ...],
) -> None:
    """Stacked caps, collars and stems: (width, top, bottom, gloss) each, all centred on ``cx``."""
    for width, top, bottom, gloss in parts:
        paint_body(img, centred_box(cx, width, top, bottom), colour, shape, gloss=gloss)


def _label_box(cx: float, top: float, size: tuple[float, float]) -> Box:
    """Where the front label goes: ``size`` = (width, height), centred on ``cx``, top edge at ``top``."""
    width, height = size
    return (cx - width / 2, top, cx + width / 2, top + height)


def _wax_pool(
    draw: ImageDraw.ImageDraw,
    span: tuple[float, float],
    top: float,
    ell: float,
    look: Look,
    *,
    inner: float,
    rim: float,
    wax: tuple[float, float],
    shine: tuple[float, float, float],
) -> None:
    """The open top of a candle: the inner wall, the wax below the rim and its lighter centre.

    ``wax`` and the last two of ``shine`` are the top and bottom of those ellipses as fractions
    of ``ell``; ``shine[0]`` is its inset as a multiple of ``rim``.
    """
    x0, x1 = span
    draw.ellipse((x0, top, x1, top + ell), fill=mix(look.vessel, BLACK, inner))
    colour = mix(look.accent, CREAM, 0.55)
    draw.ellipse((x0 + rim, top + ell * wax[0], x1 - rim, top + ell * wax[1]), fill=colour)
    inset = rim * shine[0]
    draw.ellipse(
        (x0 + inset, top + ell * shine[1], x1 - inset, top + ell * shine[2]), fill=mix(colour, WHITE, 0.25)
    )


def _wick_and_flame(
    cv: Canvas, at: Place, top: float, ell: float, w: float, *, wick: tuple[float, ...]
) -> None:
    """A wick rising from the wax and its flame; ``wick`` = (rise, lean, width, flame lift, flame height)."""
    rise, lean, width, lift, height = wick
    cx, n = at.cx, at.n
    wick_top = top + ell * 0.6 - n * rise
    tip = cx + w * lean
    cv.draw.line((cx, top + ell * 0.62, tip, wick_top), fill=WICK, width=stroke(w * width, 2))
    flame(cv.img, cv.draw, tip, wick_top + n * lift, n * height)


# --------------------------------------------------------------------------- candles


def _draw_jar(cv: Canvas, at: Place, look: Look) -> None:
    """A glass or ceramic tumbler candle, lit."""
    cx, n = at.cx, at.n
    hv, w = n * 0.80, n * 0.60
    ell = w * 0.16
    gloss = 0.25 if lum(look.vessel) > 0.75 else 0.6
    top = _upright(cv.img, at, (w, hv), look.vessel, cylinder_shape(ell), gloss=gloss)
    x0, x1 = cx - w / 2, cx + w / 2
    rim = w * 0.045
    _wax_pool(
        cv.draw, (x0, x1), top, ell, look, inner=0.28, rim=rim, wax=(0.18, 1.02), shine=(1.8, 0.34, 0.98)
    )
    cv.draw.arc(
        (x0, top, x1, top + ell),
        180,
        360,
        fill=rgba(mix(look.vessel, WHITE, 0.5), 0.9),
        width=stroke(w * 0.012),
    )
    _wick_and_flame(cv, at, top, ell, w, wick=(0.055, 0.006, 0.018, 0.012, 0.15))
    label(cv, _label_box(cx, top + hv * 0.32, (w * 0.66, hv * 0.46)), look, _CANDLE_TAGLINE)


def _draw_tin(cv: Canvas, at: Place, look: Look) -> None:
    """A wide travel tin candle with rolled seams, lit."""
    cx, base, n = at.cx, at.base, at.n
    w, hv = n * 1.0, n * 0.50
    ell = w * 0.16
    top = _upright(cv.img, at, (w, hv), look.vessel, cylinder_shape(ell), gloss=0.9)
    x0, x1 = cx - w / 2, cx + w / 2
    # Rolled rim line near the top and the bottom seam.
    seam = rgba(mix(look.vessel, BLACK, 0.25), 0.6)
    for y0, y1 in ((top + hv * 0.1, top + hv * 0.1 + ell), (base - ell - hv * 0.08, base - hv * 0.08)):
        cv.draw.arc((x0, y0, x1, y1), 0, 180, fill=seam, width=stroke(w * 0.008))
    _wax_pool(
        cv.draw, (x0, x1), top, ell, look, inner=0.3, rim=w * 0.03, wax=(0.16, 1.0), shine=(2, 0.32, 0.96)
    )
    _wick_and_flame(cv, at, top, ell, w, wick=(0.07, 0.0, 0.012, 0.015, 0.19))
    label(cv, _label_box(cx, top + hv * 0.30, (w * 0.62, hv * 0.56)), look, _CANDLE_TAGLINE)


# --------------------------------------------------------------------------- body care


def _draw_bottle(cv: Canvas, at: Place, look: Look) -> None:
    """A tall flip-top lotion bottle."""
    cx, n = at.cx, at.n
    vessel = look.vessel
    w, cap_h = n * 0.34, n * 0.20
    body_h = n - cap_h
    top = _upright(cv.img, at, (w, body_h), vessel, bottle_shape(0.08, 0.16), gloss=0.45)
    cap = mix(look.accent, INK, 0.45) if lum(vessel) > 0.6 else mix(vessel, BLACK, 0.35)
    cw = w * 0.62
    cap_part = (cw, top - cap_h + n * 0.01, top + n * 0.03, 0.5)
    _fittings(cv.img, cx, cap, rounded_rect_shape(0.14, of_width=True), (cap_part,))
    hline(
        cv.draw, cx, cw / 2, top - cap_h * 0.55, fill=rgba(mix(cap, BLACK, 0.35), 0.7), width=stroke(w * 0.02)
    )
    label(cv, _label_box(cx, top + body_h * 0.24, (w * 0.80, body_h * 0.52)), look, _TAGLINE)


def _draw_pump(cv: Canvas, at: Place, look: Look) -> None:
    """A pump bottle of hand and body lotion."""
    cx, n = at.cx, at.n
    vessel = look.vessel
    w, body_h = n * 0.40, n * 0.70
    top = _upright(cv.img, at, (w, body_h), vessel, bottle_shape(0.10, 0.14), gloss=0.45)
    metal = mix(vessel, BLACK, 0.55) if lum(vessel) > 0.45 else mix(vessel, WHITE, 0.55)
    # Collar, stem, actuator head and nozzle.
    col_top = top - n * 0.06 + n * 0.012
    stem_top = col_top - n * 0.11
    head_w, head_h = w * 0.34, n * 0.07
    head_top = stem_top - head_h
    parts = (
        (w * 0.36, col_top, top + n * 0.015, 0.6),
        (w * 0.09, stem_top, col_top + 2, 0.6),
        (head_w, head_top, stem_top + 2, 0.6),
    )
    _fittings(cv.img, cx, metal, rounded_rect_shape(0.2), parts)
    cv.draw.rounded_rectangle(
        (cx + head_w * 0.3, head_top + head_h * 0.12, cx + head_w / 2 + w * 0.42, head_top + head_h * 0.5),
        radius=head_h * 0.15,
        fill=mix(metal, BLACK, 0.08),
    )
    label(cv, _label_box(cx, top + body_h * 0.26, (w * 0.78, body_h * 0.50)), look, _TAGLINE)


# --------------------------------------------------------------------------- home fragrance


def _reeds(draw: ImageDraw.ImageDraw, cx: float, neck: tuple[float, float, float], n: float) -> None:
    """Seven rattan reeds fanning out of a neck ``neck`` = (top, height, width)."""
    neck_top, neck_h, neck_w = neck
    reeds = 7
    reed_w = stroke(n * 0.011, 2)
    for i in range(reeds):
        u = (i - (reeds - 1) / 2) / ((reeds - 1) / 2)
        length = n * (0.56 - 0.05 * abs(u) + 0.03 * math.cos(i * 1.7))
        angle = -math.pi / 2 + u * 0.34
        sx = cx + u * neck_w * 0.25
        ex = sx + math.cos(angle) * length
        ey = neck_top + math.sin(angle) * length
        shade = mix(REED, BLACK, 0.12 * ((i * 3) % 4) / 3)
        draw.line((sx, neck_top + neck_h, ex, ey), fill=shade, width=reed_w)
        draw.ellipse(ellipse_box(ex, ey, reed_w * 0.6), fill=mix(shade, BLACK, 0.2))


def _liquid_shape(d: ImageDraw.ImageDraw, bw: int, bh: int) -> None:
    inset = bw * 0.05
    d.rounded_rectangle((inset, 0, bw - inset, bh - inset), radius=bw * 0.16, fill=255)


def _draw_diffuser(cv: Canvas, at: Place, look: Look) -> None:
    """A glass reed diffuser: liquid inside, reeds fanning out of the neck."""
    img, draw = cv.img, cv.draw
    cx, base, n = at.cx, at.base, at.n
    vessel, accent = look.vessel, look.accent
    w, body_h = n * 0.44, n * 0.46
    top = base - body_h
    neck_w = w * 0.28
    neck_top = top - n * 0.05 + n * 0.01
    # Reeds first, so the bottle's neck covers their ends.
    _reeds(draw, cx, (neck_top, n * 0.05, neck_w), n)
    # Glass, then liquid seen through it.
    _upright(img, at, (w, body_h), vessel, bottle_shape(0.16, 0.20), gloss=0.8, opacity=0.92)
    liquid_top = top + body_h * 0.42
    liquid = mix(accent, vessel, 0.25)
    paint_body(img, centred_box(cx, w, liquid_top, base), liquid, _liquid_shape, gloss=0.3, opacity=0.55)
    draw.line(
        (cx - w / 2 + w * 0.06, liquid_top + 1, cx + w / 2 - w * 0.06, liquid_top + 1),
        fill=rgba(mix(accent, WHITE, 0.5), 0.8),
        width=stroke(n * 0.005),
    )
    collar = mix(GOLD, INK, 0.1) if lum(vessel) > 0.5 else mix(vessel, BLACK, 0.4)
    _fittings(img, cx, collar, rounded_rect_shape(0.25), ((neck_w, neck_top, top + body_h * 0.08, 0.9),))
    label(cv, _label_box(cx, top + body_h * 0.30, (w * 0.70, body_h * 0.50)), look, _TAGLINE)


def _draw_spray(cv: Canvas, at: Place, look: Look) -> None:
    """A room spray: round-shouldered bottle with a fine-mist sprayer."""
    cx, n = at.cx, at.n
    vessel = look.vessel
    w, body_h = n * 0.38, n * 0.74
    top = _upright(cv.img, at, (w, body_h), vessel, bottle_shape(0.14, 0.18), gloss=0.75)
    dark = mix(vessel, BLACK, 0.6) if lum(vessel) > 0.25 else mix(vessel, WHITE, 0.4)
    col_top = top - n * 0.06
    head_w = w * 0.34
    head_top = col_top - n * 0.13
    parts = ((w * 0.44, col_top, top + n * 0.03, 0.5), (head_w, head_top, col_top + 2, 0.6))
    _fittings(cv.img, cx, dark, rounded_rect_shape(0.22), parts)
    cv.draw.ellipse(ellipse_box(cx, head_top + n * 0.04, head_w * 0.1), fill=mix(dark, BLACK, 0.5))
    label(cv, _label_box(cx, top + body_h * 0.30, (w * 0.80, body_h * 0.48)), look, _TAGLINE)


def _cube(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, colour: RGB) -> None:
    """An isometric-ish wax cube whose front face has its top-left corner at (x, y)."""
    d = s * 0.28
    draw.polygon(
        [(x, y), (x + d, y - d * 0.6), (x + s + d, y - d * 0.6), (x + s, y)], fill=mix(colour, WHITE, 0.35)
    )
    draw.polygon(
        [(x + s, y), (x + s + d, y - d * 0.6), (x + s + d, y + s - d * 0.6), (x + s, y + s)],
        fill=mix(colour, BLACK, 0.14),
    )
    draw.rounded_rectangle((x, y, x + s, y + s), radius=s * 0.06, fill=colour)
    draw.line(
        (x + s * 0.12, y + s * 0.1, x + s * 0.12, y + s * 0.9), fill=rgba(WHITE, 0.25), width=stroke(s * 0.05)
    )


def _draw_melt(cv: Canvas, at: Place, look: Look) -> None:
    """A clamshell of wax melt cubes (two rows seen from the front) with a kraft label."""
    draw = cv.draw
    cx, base, n = at.cx, at.base, at.n
    wax = mix(look.accent, CREAM, 0.22)
    w, tray_h = n * 0.92, n * 0.62
    top = base - tray_h
    x0, x1 = cx - w / 2, cx + w / 2
    # Clear plastic tray: a pale rim and a faint body.
    draw.rounded_rectangle(
        (x0, top, x1, base), radius=w * 0.06, fill=rgba(mix(look.vessel, WHITE, 0.75), 0.92)
    )
    draw.rounded_rectangle(
        (x0, top, x1, base), radius=w * 0.06, outline=rgba(WHITE, 0.8), width=stroke(w * 0.01)
    )
    # Three cubes per row, the back row peeking over the front row.
    s = w * 0.27
    gap = (w - 3 * s) / 4
    for row, (dy, tone) in enumerate(((-s * 0.55, 0.06), (0.0, 0.0))):
        y = top + gap * 0.9 + s * 0.25 + dy + s * 0.55
        for i in range(3):
            x = x0 + gap + i * (s + gap) - s * 0.06
            _cube(draw, x, y, s * 0.92, mix(wax, BLACK, tone + 0.025 * ((i + row) % 2)))
    # Kraft band label across the front.
    lh = tray_h * 0.46
    label(cv, _label_box(cx, base - lh - tray_h * 0.06, (w * 1.04, lh)), look, _TAGLINE)


#: How to draw each product kind.
DRAWERS: dict[str, Drawer] = {
    "jar": _draw_jar,
    "tin": _draw_tin,
    "bottle": _draw_bottle,
    "pump": _draw_pump,
    "diffuser": _draw_diffuser,
    "spray": _draw_spray,
    "melt": _draw_melt,
}
