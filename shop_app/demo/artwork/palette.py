"""Colours: hex parsing, mixing, luminance and the fixed tones shared by every scene."""

from __future__ import annotations

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

__all__ = [
    "BLACK",
    "CREAM",
    "GOLD",
    "INK",
    "REED",
    "RGB",
    "RGBA",
    "WHITE",
    "WICK",
    "lum",
    "mix",
    "rgb",
    "rgba",
]


def rgb(value: str) -> RGB:
    """``"#a1571c"`` -> ``(161, 87, 28)``."""
    return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend ``a`` towards ``b`` by ``t`` (0 gives ``a``, 1 gives ``b``)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def lum(c: RGB) -> float:
    """Relative luminance, 0 (black) to 1 (white)."""
    return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255.0


def rgba(c: RGB, alpha: float) -> RGBA:
    """``c`` with an opacity between 0 and 1."""
    return (c[0], c[1], c[2], round(255 * alpha))


WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
CREAM: RGB = (250, 246, 239)
INK: RGB = (58, 49, 44)
WICK: RGB = (52, 42, 36)
REED: RGB = (176, 138, 96)
GOLD: RGB = (201, 162, 98)
