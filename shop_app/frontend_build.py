"""Build-time tuning of the production frontend: Reflex plugins that rxconfig.py lists.

Pages whose first view is in their HTML start their scripts after the first paint
(:func:`start_app_after_first_paint`); the others keep the tuning below.

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

import contextlib
import dataclasses
import json
import re
import shutil
from pathlib import Path

import reflex as rx

_MODULE_PRELOAD = re.compile(r'<link rel="modulepreload"(?![^>]*fetchpriority)')
_ANY_MODULE_PRELOAD = re.compile(r'<link rel="modulepreload"[^>]*?href="(?P<href>[^"]+)"[^>]*>')
_APP_START = re.compile(r'<script type="module" async="">(?P<body>.*?)</script>', re.DOTALL)
_STARTED_AFTER_PAINT = "data-starts-after-first-paint"
_FIRST_VIEW = 'class="first-view"'  # components/first_view.py: the page's first view is in its HTML

# A tap on a button of the page before React answers it (its scripts still loading) is held, not
# lost: the click is stopped and, once React has hydrated that very button, given again as a
# press (pointer down and up, for Radix's menus) and a click (for everything else). Only the
# page's own buttons (in its HTML when this script runs, at the end of the body) are held: one
# added by another script (a payment form, an extension, a test's probe) is React's never, and
# its click goes through at once. Links need no help (before the app they navigate as plain
# links); once React listens on the document it replays early events itself, so the holding
# stops. Held taps are given up after 15 s.
_HOLD_EARLY_TAPS = """
(() => {
  const pageButtons = new WeakSet(document.querySelectorAll('button, [role="button"]'));
  const owned = (node) => Object.keys(node).some((key) => key.startsWith('__reactProps$'));
  const reactListens = () => Object.keys(document).some((key) => key.startsWith('_reactListening'));
  const held = [];
  let timer = 0;
  let ticks = 0;
  const press = {
    bubbles: true, cancelable: true, composed: true, button: 0, isPrimary: true, pointerType: 'mouse',
  };
  const replay = () => {
    ticks += 1;
    for (const button of held.splice(0)) {
      if (!button.isConnected || ticks > 300) continue;
      if (!owned(button)) { held.push(button); continue; }
      button.dispatchEvent(new PointerEvent('pointerdown', press));
      button.dispatchEvent(new PointerEvent('pointerup', press));
      button.click();
    }
    if (held.length === 0) { clearInterval(timer); timer = 0; }
  };
  const hold = (event) => {
    if (reactListens()) { document.removeEventListener('click', hold, true); return; }
    const target = event.target instanceof Element ? event.target : null;
    const button = target && target.closest('button, [role="button"]');
    if (!button || button.disabled || !pageButtons.has(button)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!held.includes(button)) held.push(button);
    if (!timer) { ticks = 0; timer = setInterval(replay, 50); }
  };
  document.addEventListener('click', hold, true);
})();
"""

# The home hero's placeholder pulses until the hero image has loaded (the seed), then stops:
# the image covers it, and a pulse nobody sees still makes the browser draw a frame on the main
# thread every few milliseconds while the page loads its app. Measured on a 4x slowed Chromium:
# the load's first 8 s drew 165 main-thread frames with it, 75 without, and the main thread was
# busy 2.1 s with it, 1.75 s without (Lighthouse mobile TBT 1,060 -> 711 ms). CSS cannot see an image
# load, so this script marks the document (``data-hero-loaded``, assets/shop.css), which React
# leaves alone. Without this script (JavaScript off) the pulse ends after its five beats.
_STOP_HERO_PULSE = """
(() => {
  const image = document.querySelector('.hero img');
  if (!image) return;
  const loaded = () => document.documentElement.setAttribute('data-hero-loaded', '');
  if (image.complete && image.naturalWidth > 0) loaded();
  else image.addEventListener('load', loaded, { once: true });
})();
"""


def start_app_after_first_paint(html: str) -> str:
    """A page whose first view is in its HTML (``/``, ``/shop``): its scripts are fetched only once
    the browser has painted it. Other pages (the product page, the checkout…) are drawn by the
    app itself and are left as built.

    React Router's page preloads its ~23 JavaScript modules and starts the app with an inline
    module script. Lighthouse (mobile) traces showed the first frame held until those modules had
    loaded (first paint at 2.2 s, the load event at 0.5 s; with JavaScript blocked: 0.3 s), and
    the 250 KB of preloads sharing the slow connection with the largest image (LCP 3.4 s). The
    prerendered HTML and the stylesheet are the whole first view (api/first_view.py fills the
    cards), so the modules and the start script are added by a small script once the page has
    been painted instead: the same modules, preloaded, then the same start script (LCP 1.7 s;
    docs/benchmarks.md). "Painted" is the browser's first-contentful-paint entry, a frame
    presented: under Lighthouse the first frame was presented up to a second after it was drawn,
    and an app started at the first animation frame had meanwhile put its own cards (new nodes)
    in place of the server's, which then counted as the largest paint with the scripts in its
    path (``/shop`` LCP 3.4 s in two runs of three). Without paint timing: the first animation
    frame. A hidden tab (no frames) starts at once; 3 s is the latest start. A tap
    on a button meanwhile is held until React owns that button, then given again
    (:data:`_HOLD_EARLY_TAPS`); the hero's placeholder stops pulsing once its image is in
    (:data:`_STOP_HERO_PULSE`).
    """
    hrefs = [match["href"] for match in _ANY_MODULE_PRELOAD.finditer(html)]
    start = _APP_START.search(html)
    if start is None or _STARTED_AFTER_PAINT in html or _FIRST_VIEW not in html:
        return html
    html = _ANY_MODULE_PRELOAD.sub("", html)
    at_once = _HOLD_EARLY_TAPS.strip() + _STOP_HERO_PULSE.strip()
    loader = at_once + (
        "(() => { let started = false; const start = () => { if (started) return; started = true; "
        f"for (const href of {json.dumps(hrefs)}) {{ const link = document.createElement('link'); "
        "link.rel = 'modulepreload'; link.href = href; document.head.appendChild(link); } "
        "const app = document.createElement('script'); app.type = 'module'; "
        f"app.textContent = {json.dumps(start['body'])}; document.body.appendChild(app); }}; "
        "const paints = ((window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [])"
        ".includes('paint'); "
        "if (document.visibilityState === 'hidden') start(); "
        "else if (paints) { const seen = new PerformanceObserver((list) => { "
        "if (list.getEntriesByName('first-contentful-paint').length) "
        "{ seen.disconnect(); setTimeout(start, 0); } }); "
        "seen.observe({type: 'paint', buffered: true}); } "
        "else requestAnimationFrame(() => setTimeout(start, 0)); setTimeout(start, 3000); })();"
    )
    # Escaped for an inline <script>: no "</" may close it early.
    loader = loader.replace("</", "<\\/")
    return html.replace(start.group(0), f"<script {_STARTED_AFTER_PAINT}>{loader}</script>", 1)


def tune_html(html: str) -> str:
    """The page with its scripts fetched and started after the first paint."""
    return start_app_after_first_paint(
        _MODULE_PRELOAD.sub('<link rel="modulepreload" fetchpriority="low"', html)
    )


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


PRODUCT_TEMPLATE_PATH = "/product/0"
"""A product address React Router prerenders (no product has id 0): the product page with its
state's defaults, which the server answers every ``/product/{id}`` with, its first view filled
in (``api/seo.product_page``). The route is the same for every id, so React hydrates that HTML
at any product's address."""
PRODUCT_TEMPLATE_FILE = "product-page.html"
"""Where the build keeps that page: beside the served folder (``build/client``), not in it, so
that no address serves it as it is (:func:`keep_product_template`)."""

_PRERENDER_ALL = '"prerender": true'


def prerender_product_template(config_js: str) -> str:
    """React Router's config (``react-router.config.js``, as Reflex writes it) prerendering
    :data:`PRODUCT_TEMPLATE_PATH` besides every static page.

    Reflex asks for ``"prerender": true`` (the static pages only: a route with a parameter has
    no page of its own). A build that does not prerender (the development loop) is left alone.
    """
    if _PRERENDER_ALL not in config_js:
        return config_js
    paths = f"async ({{ getStaticPaths }}) => [...getStaticPaths(), {json.dumps(PRODUCT_TEMPLATE_PATH)}]"
    return config_js.replace(_PRERENDER_ALL, f'"prerender": {paths}', 1)


class FrontendTuning(rx.plugins.Plugin):
    """Tunes the production build (see the module docstring)."""

    def pre_compile(self, **context) -> None:
        """Prerender the product page's template too (:func:`prerender_product_template`)."""
        context["add_modify_task"]("react-router.config.js", prerender_product_template)

    def post_build(self, **context) -> None:
        """Called by ``reflex run --env prod`` / ``reflex export`` after the frontend build."""
        static_dir = Path(context["static_dir"])
        tune_static_dir(static_dir)
        keep_product_template(static_dir)


def keep_product_template(static_dir: Path) -> Path | None:
    """Move the prerendered product template out of the served folder (to
    :data:`PRODUCT_TEMPLATE_FILE` beside it); its path, or None when the build has none.

    Served as it is, ``/product/0`` would be a page for no product, and its folder would make the
    static delivery send ``/product/0`` round in redirects (``api/static_delivery.py``).
    """
    folder = static_dir.joinpath(*PRODUCT_TEMPLATE_PATH.strip("/").split("/"))
    page = folder / "index.html"
    if not page.is_file():
        return None
    kept = static_dir.parent / PRODUCT_TEMPLATE_FILE
    page.replace(kept)
    shutil.rmtree(folder, ignore_errors=True)
    folder.with_suffix(".html").unlink(missing_ok=True)  # Reflex's copy for the address without "/"
    with contextlib.suppress(OSError):
        folder.parent.rmdir()  # the "product" folder, now empty
    return kept


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
