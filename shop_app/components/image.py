"""Images that never show a broken icon: on a load error they switch to a fallback picture."""

from __future__ import annotations

import reflex as rx

from shop_app.state.views import PLACEHOLDER_IMAGE


def _fallback_handler(fallback: str) -> rx.Var:
    # Runs in the browser only; swaps once so a missing fallback cannot loop.
    return rx.Var(
        _js_expr=(
            "((event) => { const img = event.currentTarget; if (img.dataset.fallback) return; "
            f"img.dataset.fallback = '1'; img.removeAttribute('srcset'); img.src = {fallback!r}; }})"
        )
    )


def safe_image(
    src: rx.Var[str] | str,
    alt: rx.Var[str] | str,
    *,
    fallback: str = PLACEHOLDER_IMAGE,
    srcset: rx.Var[str] | str = "",
    sizes: str = "",
    intrinsic: tuple[int, int] | None = None,
    fetch_priority: str = "",
    **style,
) -> rx.Component:
    """An ``<img>`` that silently falls back to ``fallback`` when ``src`` fails to load.

    ``intrinsic`` sets the width and height attributes (the browser reserves the space before the
    image arrives); ``srcset``/``sizes`` let it pick the smallest good rendition.
    """
    attrs: dict[str, object] = {"onError": _fallback_handler(fallback)}
    if intrinsic is not None:
        attrs["width"], attrs["height"] = str(intrinsic[0]), str(intrinsic[1])
    if fetch_priority:
        attrs["fetchPriority"] = fetch_priority
    if isinstance(srcset, rx.Var) or srcset:
        attrs["srcSet"] = srcset
        attrs["sizes"] = sizes or "100vw"
    return rx.image(src=src, alt=alt, custom_attrs=attrs, **style)


def square_image(
    src: rx.Var[str] | str, alt: rx.Var[str] | str, *, srcset: rx.Var[str] | str, sizes: str, **style
) -> rx.Component:
    """A product picture: full width, square, cropped to fill, the 800×800 rendition's space reserved."""
    return safe_image(
        src,
        alt,
        srcset=srcset,
        sizes=sizes,
        intrinsic=(800, 800),
        width="100%",
        height="auto",
        aspect_ratio="1",
        object_fit="cover",
        **style,
    )


def thumbnail(src: rx.Var[str] | str, alt: rx.Var[str] | str, size: str, **props) -> rx.Component:
    """A small square picture (a line of the cart, a list's row): ``size`` wide and high, cropped to fill."""
    return safe_image(
        src, alt, width=size, height=size, object_fit="cover", border_radius="var(--radius-2)", **props
    )
