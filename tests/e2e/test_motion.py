"""The shop's motion: the animations run for visitors who allow motion, and reduced motion stops
every one of them (the hero's pulse and typed letters, the sections that fade in, the skeletons'
pulse, which the shop makes an opacity pulse the compositor runs alone). The hero's placeholder
pulses only until the hero image has loaded (the seed)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from shop_app import routes

ANIMATION_OF = (
    "([selector, pseudo]) => getComputedStyle(document.querySelector(selector), pseudo).animationName"
)
SKELETON_ANIMATION = """() => {
    const probe = document.createElement("span");
    probe.className = "rt-Skeleton";
    document.body.append(probe);
    const name = getComputedStyle(probe).animationName;
    probe.remove();
    return name;
}"""


@pytest.fixture
def moving(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(reduced_motion="no-preference")
    yield context.new_page()
    context.close()


@pytest.fixture
def still(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(reduced_motion="reduce")
    yield context.new_page()
    context.close()


def test_the_home_page_moves_for_visitors_who_allow_motion(shop_url: str, moving: Page) -> None:
    page = moving
    page.goto(shop_url)

    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate(ANIMATION_OF, [".typed__letter", None]) != "none"
    assert page.evaluate(SKELETON_ANIMATION) == "shop-skeleton-pulse"  # composited: opacity only
    last = page.locator(".reveal").last
    expect(page.locator("html.reveal-ready")).to_have_count(1)  # shop.js has started
    expect(last).to_have_css("opacity", "0")  # off screen: waits for its fade
    last.scroll_into_view_if_needed()
    expect(last).to_have_class(re.compile(r"\bis-visible\b"))
    expect(last).to_have_css("opacity", "1")


def test_the_hero_pulses_until_its_image_has_loaded(shop_url: str, moving: Page) -> None:
    """A pulse hidden behind the image would still make the browser draw a frame on the main
    thread every few milliseconds while the page loads (frontend_build._STOP_HERO_PULSE)."""
    page = moving
    held: list[Route] = []
    holding = True

    def hold(route: Route) -> None:
        if holding:
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(re.escape(routes.HERO_IMAGE)), hold)
    page.goto(shop_url, wait_until="domcontentloaded")

    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.locator("html[data-hero-loaded]")).to_have_count(0)
    assert page.evaluate(ANIMATION_OF, [".hero", "::before"]) == "shop-pulse"
    assert held, "the hero image was requested"

    holding = False
    for route in held:
        route.continue_()
    expect(page.locator("html[data-hero-loaded]")).to_have_count(1)
    assert page.evaluate(ANIMATION_OF, [".hero", "::before"]) == "none"


def test_reduced_motion_stops_every_animation(shop_url: str, still: Page) -> None:
    page = still
    page.goto(shop_url)

    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate(ANIMATION_OF, [".hero", "::before"]) == "none"
    assert page.evaluate(ANIMATION_OF, [".typed__letter", None]) == "none"
    assert page.evaluate(SKELETON_ANIMATION) == "none"
    expect(page.locator(".reveal").last).to_have_css("opacity", "1")  # shown at once, no fade


def test_what_the_first_html_shows_is_seen_without_scripts(shop_url: str, browser: Browser) -> None:
    """The featured cards come in the home page's HTML (issue 18): their section was hidden until
    shop.js, loaded by the app, revealed it (and for good without JavaScript)."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(shop_url)

    featured = page.locator(".reveal").first
    expect(featured.get_by_role("heading", name="Featured Products")).to_be_visible()
    expect(featured).to_have_css("opacity", "1")
    expect(featured.get_by_role("heading", level=3).first).to_be_visible()
    context.close()
