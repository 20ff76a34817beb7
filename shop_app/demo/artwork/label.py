"""The cream front label of a vessel: ornament, name, rule and tagline (or plain rules on props)."""

from __future__ import annotations

from .canvas import Box, Canvas, Look, ellipse_box, hline, stroke, teardrop
from .palette import CREAM, INK, lum, mix, rgba
from .text import draw_centered_lines, draw_tracked, fit_lines, fit_tracked, font_size

__all__ = ["label"]


def label(cv: Canvas, box: Box, look: Look, tagline: str) -> None:
    """A cream label with a flame ornament, the text, a rule and a tagline (or just rules if no text)."""
    draw = cv.draw
    vessel, accent, text = look.vessel, look.accent, look.text
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if lum(vessel) > 0.72:
        fill = mix(accent, CREAM, 0.78)
        border = mix(accent, INK, 0.35)
    else:
        fill = CREAM
        border = mix(accent, INK, 0.15)
    radius = min(w, h) * 0.08
    draw.rounded_rectangle(box, radius=radius, fill=fill)
    inset = min(w, h) * 0.06
    draw.rounded_rectangle(
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
        radius=max(1.0, radius - inset),
        outline=rgba(border, 0.55),
        width=stroke(min(w, h) * 0.012),
    )
    cx = (x0 + x1) / 2
    if not text:
        # Banner props: no text, just a pair of rules and a dot.
        hline(draw, cx, w * 0.25, y0 + h * 0.42, fill=rgba(border, 0.8), width=stroke(h * 0.03))
        hline(draw, cx, w * 0.16, y0 + h * 0.58, fill=rgba(border, 0.6), width=stroke(h * 0.025))
        draw.ellipse(ellipse_box(cx, y0 + h * 0.25, h * 0.045), fill=rgba(accent, 0.9))
        return
    # Small flame ornament, the name, a rule and a tiny tagline.
    orn = h * 0.075
    draw.polygon(teardrop(cx, y0 + h * 0.2, orn * 0.42, orn), fill=rgba(border, 0.9))
    face, lines = fit_lines(
        text, w * 0.78, start=round(h * (0.22 if w > 1.6 * h else 0.17)), minimum=max(8, round(h * 0.07))
    )
    draw_centered_lines(draw, (cx, y0 + h * 0.5), lines, face, fill=(*INK, 255), leading=1.12)
    ry = y0 + h * 0.72 if len(lines) == 1 else y0 + h * 0.76
    hline(draw, cx, w * 0.14, ry, fill=rgba(border, 0.8), width=stroke(h * 0.012))
    if tagline:
        tag = tagline.upper()
        tface = fit_tracked(tag, w * 0.74, start=round(h * 0.062), minimum=7, tracking=0.22)
        draw_tracked(
            draw, (cx, y0 + h * 0.86), tag, tface, fill=rgba(INK, 0.72), tracking=font_size(tface) * 0.22
        )
