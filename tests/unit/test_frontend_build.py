"""The production build's tuning (shop_app/frontend_build.py): low-priority module preloads, and
Radix stylesheets holding every color palette the shop's sources name."""

from __future__ import annotations

import re
from pathlib import Path

from shop_app.frontend_build import (
    PRODUCT_TEMPLATE_FILE,
    RADIX_COLORS,
    RadixThemesTrimmed,
    keep_product_template,
    prerender_product_template,
    tune_html,
    tune_static_dir,
)
from shop_app.state.orders import _RADIX

ROOT = Path(__file__).resolve().parents[2]
SHELL = (
    '<head><link rel="modulepreload" href="/assets/a.js"/><link rel="stylesheet" href="/assets/s.css"/>'
    '<link rel="modulepreload" fetchpriority="high" href="/assets/b.js"/></head>'
)


def test_module_preloads_are_fetched_at_low_priority_and_nothing_else_changes() -> None:
    tuned = tune_html(SHELL)

    assert '<link rel="modulepreload" fetchpriority="low" href="/assets/a.js"/>' in tuned
    assert 'fetchpriority="high" href="/assets/b.js"' in tuned  # an explicit priority is kept
    assert '<link rel="stylesheet" href="/assets/s.css"/>' in tuned
    assert tune_html(tuned) == tuned


def test_every_built_page_is_tuned(tmp_path: Path) -> None:
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "index.html").write_text(SHELL, encoding="utf-8")
    (tmp_path / "index.html").write_text("<p>no preloads</p>", encoding="utf-8")

    assert tune_static_dir(tmp_path) == 1
    assert 'fetchpriority="low"' in (tmp_path / "shop" / "index.html").read_text(encoding="utf-8")


def test_the_stylesheets_hold_every_color_the_sources_name() -> None:
    named = set(_RADIX.values())
    pattern = re.compile(r'(?:color_scheme|accent_color|gray_color)="(\w+)"|rx\.color\("(\w+)"')
    for source in [ROOT / "rxconfig.py", *(ROOT / "shop_app").rglob("*.py")]:
        for match in pattern.finditer(source.read_text(encoding="utf-8")):
            named.add(match.group(1) or match.group(2))

    assert named - {"accent"} <= set(RADIX_COLORS)
    sheets = RadixThemesTrimmed().get_stylesheet_paths()
    assert {f"@radix-ui/themes/tokens/colors/{color}.css" for color in RADIX_COLORS} <= set(sheets)
    assert sheets[0] == "@radix-ui/themes/tokens/base.css" and "@radix-ui/themes/styles.css" not in sheets


APP_PAGE = (
    '<html><head><link rel="modulepreload" href="/assets/a.js"/>'
    '<link rel="modulepreload" href="/assets/b.js"/><link rel="stylesheet" href="/assets/s.css"/></head>'
    '<body><main><div class="first-view" id="first-view-shop-cards">cards</div></main>'
    '<script type="module" async="">import "/assets/a.js";\nimport * as route0 from "/assets/b.js";\n'
    'window.__reactRouterRouteModules = {"root":route0};\nimport("/assets/c.js");</script>'
    "<script>window.__reactRouterContext.streamController.close();</script></body></html>"
)


def test_the_app_starts_after_the_first_paint_with_the_same_modules() -> None:
    tuned = tune_html(APP_PAGE)

    assert '<link rel="modulepreload"' not in tuned  # nothing fetched before the first paint
    assert '<script type="module"' not in tuned
    loader = re.search(r"<script data-starts-after-first-paint>(.*?)</script>", tuned, re.DOTALL)
    assert loader is not None
    assert '["/assets/a.js", "/assets/b.js"]' in loader[1]  # preloaded when it starts
    assert 'import(\\"/assets/c.js\\");' in loader[1]
    assert "first-contentful-paint" in loader[1] and "requestAnimationFrame" in loader[1]  # or the frame
    assert "document.addEventListener('click', hold, true)" in loader[1]  # taps meanwhile are held
    assert ">cards</div></main>" in tuned and '<link rel="stylesheet" href="/assets/s.css"/>' in tuned
    assert "window.__reactRouterContext.streamController.close();" in tuned
    assert tune_html(tuned) == tuned


def test_a_page_the_app_draws_keeps_its_scripts_as_built() -> None:
    drawn_by_the_app = APP_PAGE.replace('class="first-view" ', "")

    tuned = tune_html(drawn_by_the_app)

    assert '<script type="module" async="">' in tuned  # started at once, as React Router does
    assert '<link rel="modulepreload" fetchpriority="low" href="/assets/a.js"/>' in tuned


REFLEX_ROUTER_CONFIG = (
    'export default {"basename": "/", "future": {"unstable_optimizeDeps": true}, "ssr": false, '
    '"prerender": true, "build": "build"};'
)


def test_the_product_template_is_prerendered_beside_every_static_page() -> None:
    config = prerender_product_template(REFLEX_ROUTER_CONFIG)

    assert '"prerender": async ({ getStaticPaths }) => [...getStaticPaths(), "/product/0"]' in config
    assert (
        config.replace('async ({ getStaticPaths }) => [...getStaticPaths(), "/product/0"]', "true")
        == REFLEX_ROUTER_CONFIG
    )  # nothing else changes


def test_a_build_that_prerenders_nothing_is_left_alone() -> None:
    development = 'export default {"basename": "/", "ssr": false};'

    assert prerender_product_template(development) == development


def test_the_product_template_leaves_the_served_folder(tmp_path: Path) -> None:
    static = tmp_path / "build" / "client"
    (static / "product" / "0").mkdir(parents=True)
    (static / "product" / "0" / "index.html").write_text("<html>template</html>", encoding="utf-8")
    (static / "product" / "0.html").write_text("<html>template</html>", encoding="utf-8")
    (static / "shop").mkdir()

    kept = keep_product_template(static)

    assert kept == tmp_path / "build" / PRODUCT_TEMPLATE_FILE
    assert kept.read_text(encoding="utf-8") == "<html>template</html>"
    assert not (static / "product").exists()  # no address serves it as it is
    assert (static / "shop").is_dir()
    assert keep_product_template(static) is None  # a build without one
