"""axe-core (the npm package, injected into the page) finds no serious or critical accessibility
violations on the home page, the shop, a product page and the order lookup, nor with the cart drawer
open."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import demo_id, with_sibling_scent

AXE = Path(__file__).resolve().parents[2] / "tools" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


def _violations(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations'],"
        " runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[(n['target'], n['html'][:160]) for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in BLOCKING
    ]


@pytest.mark.parametrize("path", ["/", "/shop", "/shop?category=candles", "product", "/order-lookup"])
def test_no_serious_or_critical_violations(shop_url: str, page: Page, path: str) -> None:
    if path == "product":
        path = f"/product/{demo_id(with_sibling_scent()[0])}"
    # Reduced motion: the hero's typed text and the reveals are in their final state at once.
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{shop_url}{path}")
    page.wait_for_load_state("networkidle")
    expect(page.locator("[aria-busy='true']")).to_have_count(0)  # the page's state has arrived

    assert _violations(page) == []


@pytest.mark.parametrize("path", ["/", "/shop", "/custom-orders"])
def test_pages_still_loading_have_no_serious_or_critical_violations(
    shop_url: str, page: Page, path: str
) -> None:
    """What a screen reader meets before the page's state arrives (a slow connection): the
    websocket is answered by the test and stays silent, so the placeholders, and the cards the
    server sent with the page (api/first_view.py), stay."""
    page.route_web_socket(re.compile(r"/_event/"), lambda socket: None)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{shop_url}{path}")
    page.wait_for_load_state("load")
    if path in ("/", "/shop"):  # the server's cards, not a skeleton
        expect(page.locator(".first-view").get_by_role("heading", level=3).first).to_be_visible()

    assert _violations(page) == []


def test_cart_drawer_is_accessible_and_keeps_focus_inside(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/product/{demo_id(with_sibling_scent()[0])}")
    page.get_by_role("button", name="Add to Cart").click()
    page.get_by_role("button", name=re.compile(r"^Cart")).click()
    drawer = page.get_by_role("dialog", name="Your Cart")
    expect(drawer).to_be_visible()

    for _ in range(8):
        page.keyboard.press("Tab")
        assert drawer.evaluate("(d) => d.contains(document.activeElement)")
    assert _violations(page) == []

    page.keyboard.press("Escape")
    expect(drawer).to_have_count(0)


def test_header_controls_are_reachable_with_the_keyboard(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/shop")
    names = []
    for _ in range(12):
        page.keyboard.press("Tab")
        names.append(
            page.evaluate(
                "() => document.activeElement.getAttribute('aria-label') || "
                "document.activeElement.textContent.trim()"
            )
        )

    for control in ("Skip to content", "Shop", "Open search", "Favorites", "Account"):
        assert control in names, f"{control!r} not reached by Tab: {names}"


@pytest.mark.parametrize("path", ["/shop", "/contact"])
def test_the_skip_link_moves_the_keyboard_to_the_main_content(shop_url: str, page: Page, path: str) -> None:
    page.goto(f"{shop_url}{path}")
    page.wait_for_load_state("networkidle")
    expect(page.locator("[aria-busy='true']")).to_have_count(0)  # the page's state has arrived

    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.locator("main#main")).to_be_focused()
    expect(page).to_have_url(re.compile(rf"{re.escape(path)}/?#main$"))
