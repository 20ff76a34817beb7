"""Text with Pillow's bundled font: fitting a width, centred lines and letter-spaced caps.

No font file is read: :func:`font` uses ``ImageFont.load_default(size=...)``.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import ImageDraw, ImageFont

__all__ = [
    "Font",
    "draw_centered_lines",
    "draw_tracked",
    "fit_lines",
    "fit_tracked",
    "font",
    "font_size",
    "text_width",
]

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=256)
def font(size: int) -> Font:
    """The bundled font at ``size`` pixels (at least 6)."""
    return ImageFont.load_default(size=max(6, int(size)))


def font_size(face: Font) -> float:
    """The size of ``face`` in pixels (12 for Pillow's bitmap font, which has no size)."""
    return face.size if isinstance(face, ImageFont.FreeTypeFont) else 12


def text_width(face: Font, text: str) -> float:
    return float(face.getlength(text))


def fit_lines(
    text: str, max_w: float, start: int, minimum: int, max_lines: int = 2
) -> tuple[Font, list[str]]:
    """Largest font (<= start) at which ``text`` fits in ``max_lines`` lines."""
    words = text.split()
    size = start
    while True:
        face = font(size)
        if text_width(face, text) <= max_w or not words:
            return face, [text]
        if max_lines >= 2 and len(words) > 1:
            best: list[str] | None = None
            best_w = math.inf
            for cut in range(1, len(words)):
                lines = [" ".join(words[:cut]), " ".join(words[cut:])]
                w = max(text_width(face, line) for line in lines)
                if w < best_w:
                    best, best_w = lines, w
            if best is not None and best_w <= max_w:
                return face, best
        if size <= minimum:
            return face, [text]
        size = max(minimum, int(size * 0.92))


def draw_centered_lines(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    lines: list[str],
    face: Font,
    *,
    fill: tuple[int, ...],
    leading: float = 1.18,
) -> None:
    """Lines centred on ``centre``, one below the other."""
    cx, cy = centre
    size = font_size(face)
    step = size * leading
    top = cy - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        draw.text((cx, top + i * step), line, font=face, fill=fill, anchor="mm")


def tracked_width(face: Font, text: str, tracking: float) -> float:
    return sum(text_width(face, ch) for ch in text) + tracking * max(0, len(text) - 1)


def draw_tracked(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    text: str,
    face: Font,
    *,
    fill: tuple[int, ...],
    tracking: float,
    align: str = "center",
) -> None:
    """Letter-spaced text (small caps look); ``at`` is the centre or the left edge, vertically centred."""
    x, cy = at
    if align == "center":
        x -= tracked_width(face, text, tracking) / 2
    for ch in text:
        draw.text((x, cy), ch, font=face, fill=fill, anchor="lm")
        x += text_width(face, ch) + tracking


def fit_tracked(text: str, max_w: float, start: int, minimum: int, tracking: float) -> Font:
    """Largest font (<= start) at which letter-spaced ``text`` fits ``max_w``."""
    size = start
    while size > minimum and tracked_width(font(size), text, size * tracking) > max_w:
        size -= 1
    return font(size)
