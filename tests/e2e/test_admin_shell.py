"""The back office's shell in the browser: who gets in, the sidebar, the legacy login page, logout."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import NewCustomer, SignIn

ACCESS_DENIED = "Access Denied - You don't have permission to access the admin dashboard."


def test_visitors_and_customers_are_kept_out(
    shop_url: str, page: Page, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    page.goto(f"{shop_url}/admin")
    expect(page.get_by_text(ACCESS_DENIED)).to_be_visible()
    expect(page.get_by_text("Verified Customers")).to_have_count(0)

    page.goto(f"{shop_url}/admin/manage-categories")
    expect(page).to_have_url(f"{shop_url}/")

    page.goto(f"{shop_url}/admin/login")
    expect(page.get_by_role("heading", name="Admin Login")).to_be_visible()
    expect(page.get_by_role("link", name="Go to Homepage")).to_be_visible()

    sign_in(page, new_customer())
    page.goto(f"{shop_url}/admin")
    expect(page.get_by_text(ACCESS_DENIED)).to_be_visible()
    page.goto(f"{shop_url}/admin/product-creation")
    expect(page).to_have_url(f"{shop_url}/")
    page.goto(f"{shop_url}/admin/login")
    expect(page).to_have_url(f"{shop_url}/")


def test_an_admin_moves_around_the_back_office_and_logs_out(
    shop_url: str, page: Page, sign_in: SignIn
) -> None:
    sign_in(page)
    page.goto(f"{shop_url}/")
    page.get_by_role("button", name=re.compile("^Account menu")).click()
    page.get_by_role("menuitem", name="Admin Dashboard").click()

    expect(page.get_by_role("heading", name="Admin Dashboard")).to_be_visible()
    nav = page.get_by_role("navigation", name="Admin")
    expect(nav.get_by_role("link", name="Dashboard")).to_have_attribute("aria-current", "page")

    nav.get_by_role("link", name="Settings").click()
    expect(page).to_have_url(re.compile(r"/admin/settings/?$"))
    expect(nav.get_by_role("link", name="Settings")).to_have_attribute("aria-current", "page")
    expect(nav.get_by_role("link", name="Dashboard")).not_to_have_attribute("aria-current", "page")

    nav.get_by_role("link", name="Products").click()  # the product list itself, not the dashboard
    expect(page.get_by_role("heading", name="Manage Products")).to_be_visible()
    expect(nav.get_by_role("link", name="Products")).to_have_attribute("aria-current", "page")

    page.goto(f"{shop_url}/admin/login")
    expect(page).to_have_url(re.compile(r"/admin/?$"))

    nav.get_by_role("link", name="Back to site").click()
    expect(page).to_have_url(f"{shop_url}/")

    page.goto(f"{shop_url}/admin/dashboard")
    page.get_by_role("navigation", name="Admin").get_by_role("button", name="Logout").click()
    expect(page).to_have_url(f"{shop_url}/")
    expect(page.get_by_role("button", name="Account")).to_be_visible()
    page.goto(f"{shop_url}/admin")
    expect(page.get_by_text(ACCESS_DENIED)).to_be_visible()


def test_the_account_menu_links_and_the_sidebar_loads_each_screens_scripts_ahead(
    shop_url: str, page: Page, sign_in: SignIn
) -> None:
    """Issue 18, acceptance 6: the account menu's items are links (a middle click opens a tab, and
    the menu's opening preloads the page's scripts), and once the back office is open every
    screen of its sidebar has its scripts preloaded, so its first visit does not fetch them one
    import at a time."""
    sign_in(page)
    page.goto(f"{shop_url}/")
    page.get_by_role("button", name=re.compile("^Account menu")).click()
    for name, href in (
        ("My Account", "/account"),
        ("Order History", "/account/orders"),
        ("Admin Dashboard", "/admin"),
    ):
        expect(page.get_by_role("menuitem", name=name)).to_have_attribute("href", href)
    page.get_by_role("menuitem", name="Admin Dashboard").click()
    expect(page.get_by_role("heading", name="Admin Dashboard")).to_be_visible()

    preloaded = page.locator("link[rel=modulepreload]")
    for screen in ("orders", "inbox", "manage-products", "manage-categories", "settings"):
        expect(preloaded.and_(page.locator(f'[href*="_admin_._{screen}_._index-"]'))).to_have_count(1)


def test_a_long_page_opens_at_the_top(shop_url: str, page: Page, sign_in: SignIn) -> None:
    sign_in(page)
    page.set_viewport_size({"width": 1280, "height": 250})
    page.goto(f"{shop_url}/admin")
    expect(page.get_by_role("heading", name="Admin Dashboard")).to_be_visible()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0
    page.get_by_role("navigation", name="Admin").get_by_role("link", name="Settings").click()
    expect(page).to_have_url(re.compile(r"/admin/settings/?$"))
    # Polled with evaluate: wait_for_function compiles its text in the page, which the CSP forbids.
    for _ in range(200):  # polled for up to 20 s
        if page.evaluate("window.scrollY") == 0:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.scrollY") == 0


def test_on_a_phone_the_screens_fit_above_the_page_not_instead_of_it(
    shop_url: str, page: Page, sign_in: SignIn
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page)
    page.goto(f"{shop_url}/admin/orders")

    nav = page.get_by_role("navigation", name="Admin")
    for name in ("Dashboard", "Orders", "Products", "Customers", "Settings", "Back to site"):
        expect(nav.get_by_role("link", name=name)).to_be_in_viewport()
    expect(nav.get_by_role("button", name="Logout")).to_be_in_viewport()
    expect(
        page.get_by_role("heading", name="Orders", level=1)
    ).to_be_in_viewport()  # the page starts on screen one
