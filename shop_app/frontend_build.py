"""Build-time tuning of the production frontend: Reflex plugins that rxconfig.py lists.

React Router prerenders every static page with its content, then preloads the page's JavaScript
modules (``<link rel="modulepreload">``, about 250 KB compressed on every page) at high
priority, so on a slow connection the scripts compete with the stylesheet and the hero image
for the first paint they are not needed for: the prerendered HTML and the CSS already show the
page, the scripts only make it interactive. After the build, and before Reflex writes the
compressed copies, :class:`FrontendTuning` marks those preloads ``fetchpriority="low"``: the
browser still fetches them at once, but after what the first paint needs. Measured with
Lighthouse (mobile): the first contentful paint of / went from 3.4 s to 1.3 s
(docs/benchmarks.md).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import reflex as rx

_MODULE_PRELOAD = re.compile(r'<link rel="modulepreload"(?![^>]*fetchpriority)')


def tune_html(html: str) -> str:
    """The page with its module preloads fetched at low priority."""
    return _MODULE_PRELOAD.sub('<link rel="modulepreload" fetchpriority="low"', html)


def tune_static_dir(static_dir: Path) -> int:
    """Tune every prerendered page under ``static_dir``; return how many were changed."""
    changed = 0
    for page in static_dir.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        tuned = tune_html(html)
        if tuned != html:
            page.write_text(tuned, encoding="utf-8")
            changed += 1
    return changed


class FrontendTuning(rx.plugins.Plugin):
    """Post-processes the production build (see the module docstring)."""

    def post_build(self, **context) -> None:
        """Called by ``reflex run --env prod`` / ``reflex export`` after the frontend build."""
        tune_static_dir(Path(context["static_dir"]))


# Every Radix color the shop draws with: the theme's accent (bronze) and gray (sand), each
# ``color_scheme`` / ``rx.color`` of the pages and components (gray is Radix's own neutral), the
# order status badges (state/orders.py) and yellow beside amber for statuses still to come.
# tests/unit/test_frontend_build.py checks the sources name no other.
RADIX_COLORS = (
    "bronze",
    "sand",
    "gray",
    "red",
    "green",
    "amber",
    "yellow",
    "orange",
    "blue",
    "violet",
    "purple",
)


@dataclasses.dataclass
class RadixThemesTrimmed(rx.plugins.RadixThemesPlugin):
    """Radix Themes with the color palettes the shop uses only.

    The stock plugin imports ``@radix-ui/themes/styles.css``: the components, the layout
    utilities and all 30 color palettes (light, dark and wide-gamut variants), about 180 KB of
    the ~700 KB stylesheet every page must download and apply before it paints. Radix ships the
    parts separately; this imports its base tokens, the palettes in :data:`RADIX_COLORS`, the
    components and the utilities. A color used on a page but missing here would draw as the
    page's default text and surface colors: add it to the tuple.
    """

    def get_stylesheet_paths(self, **context) -> tuple[str, ...]:
        """The Radix stylesheets to import (none when the plugin is disabled)."""
        if not self.enabled:
            return ()
        return (
            "@radix-ui/themes/tokens/base.css",
            *(f"@radix-ui/themes/tokens/colors/{color}.css" for color in RADIX_COLORS),
            "@radix-ui/themes/components.css",
            "@radix-ui/themes/utilities.css",
        )
