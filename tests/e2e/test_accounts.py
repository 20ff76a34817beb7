"""Customer accounts in the browser: register, verify, sign in, favourites, profile, sign out,
forgot password; the session cookie stays out of reach of page JavaScript; admins only in /admin."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from playwright.sync_api import Browser, Page, expect

from shop_app.state.auth import BROWSER_COOKIE
from tests.e2e.conftest import Mailbox
from tests.e2e.helpers import demo_id, with_sibling_scent

PASSWORD = "lavender-fields"


def _email() -> str:
    return f"shopper-{uuid.uuid4().hex[:8]}@example.com"


def _register_in_dialog(page: Page, email: str, *, first: str = "Mia", last: str = "Chen") -> None:
    page.get_by_role("button", name="Account").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("tab", name="Create Account").click()
    expect(dialog.get_by_role("heading", name="Join Our Community")).to_be_visible()
    dialog.get_by_label("First name").fill(first)
    dialog.get_by_label("Last name").fill(last)
    dialog.get_by_label("Email", exact=True).fill(email)
    dialog.get_by_label("Password", exact=True).fill(PASSWORD)
    dialog.get_by_label("Confirm password").fill(PASSWORD)
    dialog.get_by_role("checkbox", name="I agree to the").check()
    dialog.get_by_role("button", name="Create Account").click()
    expect(
        page.get_by_text("Account created successfully! Please check your email to verify your account.")
    ).to_be_visible()
    # The dialog closes itself; a click meant for the page while it fades out lands on its overlay.
    expect(page.get_by_role("dialog")).to_have_count(0)


def _sign_in_in_dialog(page: Page, email: str, password: str = PASSWORD, *, remember: bool = False) -> None:
    page.get_by_role("button", name="Account").click()
    dialog = page.get_by_role("dialog", name="Welcome Back")
    dialog.get_by_label("Email", exact=True).fill(email)
    dialog.get_by_label("Password", exact=True).fill(password)
    if remember:
        dialog.get_by_role("checkbox", name="Remember me").check()
    dialog.get_by_role("button", name="Sign In").click()
    expect(page.get_by_text("Welcome back!")).to_be_visible()
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_register_verify_sign_in_favourite_edit_profile_and_sign_out(
    shop_url: str, page: Page, mailbox: Mailbox
) -> None:
    email = _email()
    page.goto(f"{shop_url}/shop")
    _register_in_dialog(page, email)

    verification = mailbox.latest(email, subject_contains="verify")
    _sign_in_in_dialog(page, email)
    expect(page.get_by_role("button", name="Account menu for Mia Chen")).to_have_text("M")
    page.goto(Mailbox.link(verification))
    expect(page.get_by_text("Thank you! Your email address is verified.")).to_be_visible()
    expect(page.get_by_text("Please verify your email address")).to_have_count(0)

    product, _ = with_sibling_scent()
    page.goto(f"{shop_url}/product/{demo_id(product)}")
    page.get_by_role("button", name=f"Add {product.name} to favorites").click()
    expect(page.get_by_text("Added to wishlist")).to_be_visible()
    page.get_by_role("button", name="Favorites, 1 item").click()
    popover = page.get_by_role("dialog").filter(has_text="Your Favorites")
    expect(popover.get_by_role("link", name=product.name)).to_be_visible()
    popover.get_by_role("button", name="View All Favorites").click()
    expect(page).to_have_url(re.compile(r"/account/wishlist$"))
    expect(page.get_by_role("heading", name=product.name)).to_be_visible()

    page.goto(f"{shop_url}/account")
    expect(page.get_by_role("heading", name="Hello, Mia")).to_be_visible()
    expect(page.get_by_text("Cannot be changed")).to_be_visible()
    expect(page.get_by_text("Not set")).to_be_visible()  # no phone yet
    page.get_by_role("button", name="Edit Profile").click()
    page.get_by_label("First name").fill("Amelia")
    page.get_by_label("Phone").fill("250-555-0142")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_text("Profile updated successfully!")).to_be_visible()
    expect(page.get_by_text("250-555-0142")).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="Hello, Amelia")).to_be_visible()  # persisted

    page.get_by_role("button", name=re.compile("^Account menu")).click()
    page.get_by_role("menuitem", name="Sign Out").click()
    expect(page).to_have_url(f"{shop_url}/")
    expect(page.get_by_role("button", name="Account", exact=True)).to_be_visible()
    page.goto(f"{shop_url}/account")
    expect(page.get_by_text("You need to be logged in to view your account.")).to_be_visible()


def test_forgot_password_then_reset_with_the_mailed_link(shop_url: str, page: Page, mailbox: Mailbox) -> None:
    email = _email()
    page.goto(f"{shop_url}/")
    _register_in_dialog(page, email)
    page.get_by_role("button", name="Account").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Forgot password?").click()
    expect(dialog.get_by_role("button", name="Send reset link")).to_be_visible()  # the form swapped in
    dialog.get_by_label("Email").fill(email)
    expect(dialog.get_by_label("Email")).to_have_value(email)
    dialog.get_by_role("button", name="Send reset link").click()
    expect(dialog.get_by_text("If an account exists for that email")).to_be_visible()

    page.goto(Mailbox.link(mailbox.latest(email, subject_contains="Reset")))
    page.get_by_label("New password", exact=True).fill("cedar-and-sage")
    page.get_by_label("Confirm new password").fill("cedar-and-sage")
    page.get_by_role("button", name="Save new password").click()

    expect(page).to_have_url(re.compile(r"/auth$"))
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=True).fill("cedar-and-sage")
    page.get_by_role("button", name="Sign In", exact=True).click()
    expect(page).to_have_url(f"{shop_url}/")
    expect(page.get_by_role("button", name=re.compile("^Account menu"))).to_be_visible()


def test_the_session_cookie_is_http_only_and_survives_a_reload(
    shop_url: str, browser: Browser, mailbox: Mailbox
) -> None:
    context = browser.new_context()
    page = context.new_page()
    email = _email()
    page.goto(f"{shop_url}/")
    _register_in_dialog(page, email)
    _sign_in_in_dialog(page, email, remember=True)
    cookie = _wait_for_cookie(page, "shop_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert "shop_session" not in page.evaluate("document.cookie")

    page.reload()
    expect(page.get_by_role("button", name="Account menu for Mia Chen")).to_be_visible()
    context.close()


def _wait_for_cookie(page: Page, name: str) -> dict:
    for _ in range(200):  # polled for up to 20 s
        found = [c for c in page.context.cookies() if c["name"] == name]
        if found:
            return found[0]
        page.wait_for_timeout(100)
    raise AssertionError(f"cookie {name} was never set")


def test_a_guest_heart_asks_to_sign_in(shop_url: str, page: Page) -> None:
    product, _ = with_sibling_scent()
    page.goto(f"{shop_url}/product/{demo_id(product)}")

    page.get_by_role("button", name=f"Add {product.name} to favorites").click()

    expect(page.get_by_text("Please sign in to add items to your wishlist")).to_be_visible()
    expect(page.get_by_role("dialog", name="Welcome Back")).to_be_visible()


def test_the_guest_cart_joins_the_account_at_sign_in(shop_url: str, page: Page) -> None:
    email = _email()
    product, _ = with_sibling_scent()
    page.goto(f"{shop_url}/product/{demo_id(product)}")
    _register_in_dialog(page, email)
    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()

    _sign_in_in_dialog(page, email)

    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()


# -- Finding 1: an account page shows placeholders, never untrue defaults, until its state arrives.
ACCOUNT_PAGES = ("/account", "/account/orders", "/account/wishlist", "/account/orders/1")
UNTRUE_WHILE_LOADING = (
    "Hello, User",
    "Not set",
    "No Orders Yet",
    "No favorites yet",
    "Order Not Found",
    "Please Sign In",
)
PROFILE_STATE_KEY = "___account_state"  # how the profile state's name ends in a websocket delta
FAVORITES_STATE_KEY = "___wishlist_state"


def _signed_in_context(browser: Browser, shop_url: str):
    context = browser.new_context()
    page = context.new_page()
    email = _email()
    page.goto(f"{shop_url}/")
    _register_in_dialog(page, email)
    _sign_in_in_dialog(page, email)
    _wait_for_cookie(page, "shop_session")
    page.close()
    return context


def _expect_only_placeholder(page: Page) -> None:
    expect(page.get_by_role("status", name="Loading your account")).to_be_visible()
    for text in UNTRUE_WHILE_LOADING:
        expect(page.get_by_text(text)).to_have_count(0)


def test_account_pages_show_a_placeholder_while_their_state_has_not_arrived(
    shop_url: str, browser: Browser
) -> None:
    """Issue 15 item 5: a fresh tab on /account showed "Hello, User" and "Not set" before the profile."""
    context = _signed_in_context(browser, shop_url)
    for path in ACCOUNT_PAGES:
        held = context.new_page()
        held.route_web_socket(re.compile(r"/_event/"), lambda ws: None)  # the state never arrives
        held.goto(f"{shop_url}{path}")
        _expect_only_placeholder(held)
        if path == "/account/orders":
            expect(held.get_by_text("Loading your orders...")).to_be_visible()  # the seed's text
        held.close()

    page = context.new_page()
    page.goto(f"{shop_url}/account")
    expect(page.get_by_role("heading", name="Hello, Mia")).to_be_visible()
    expect(page.get_by_role("status", name="Loading your account")).to_have_count(0)
    page.goto(f"{shop_url}/account/orders")
    expect(page.get_by_role("heading", name="No Orders Yet")).to_be_visible()
    page.goto(f"{shop_url}/account/wishlist")
    expect(page.get_by_role("heading", name="No favorites yet")).to_be_visible()
    context.close()


def _without_state(message: str | bytes, key_end: str) -> str | bytes:
    """A socket.io event frame (``42[...]``) without the delta of the state whose name ends so."""
    if not isinstance(message, str) or not message.startswith("42") or "[" not in message:
        return message
    start = message.index("[")
    frame = json.loads(message[start:])
    for i, part in enumerate(frame):
        data = json.loads(part) if isinstance(part, str) and part.startswith("{") else part
        if isinstance(data, dict) and isinstance(data.get("delta"), dict):
            data["delta"] = {k: v for k, v in data["delta"].items() if not k.endswith(key_end)}
            frame[i] = json.dumps(data) if isinstance(part, str) else data
    return message[:start] + json.dumps(frame)


def test_the_profile_waits_for_its_own_state_not_only_for_the_sign_in(
    shop_url: str, browser: Browser
) -> None:
    """The tester's race made deterministic: who is signed in arrives, the profile never does."""
    context = _signed_in_context(browser, shop_url)
    page = context.new_page()

    def without_the_profile(ws) -> None:  # the shop's messages reach the page minus the profile's state
        server = ws.connect_to_server()
        server.on_message(lambda message: ws.send(_without_state(message, PROFILE_STATE_KEY)))

    page.route_web_socket(re.compile(r"/_event/"), without_the_profile)
    page.goto(f"{shop_url}/account")
    expect(page.get_by_role("button", name="Account menu for Mia Chen")).to_be_visible()  # signed in
    _expect_only_placeholder(page)
    context.close()


def test_the_favourites_popover_waits_for_the_favourites(shop_url: str, browser: Browser) -> None:
    context = _signed_in_context(browser, shop_url)
    page = context.new_page()

    def without_the_favourites(ws) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: ws.send(_without_state(message, FAVORITES_STATE_KEY)))

    page.route_web_socket(re.compile(r"/_event/"), without_the_favourites)
    page.goto(f"{shop_url}/")
    expect(page.get_by_role("button", name="Account menu for Mia Chen")).to_be_visible()  # signed in
    page.get_by_role("button", name="Favorites", exact=True).click()
    popover = page.get_by_role("dialog").filter(has_text="Your Favorites")
    expect(popover.get_by_role("status")).to_have_text("Loading your favorites...")
    expect(popover.get_by_text("No favorites yet")).to_have_count(0)
    expect(popover.get_by_text("(0)")).to_have_count(0)
    context.close()


# -- Finding 2: the sign-in ticket is traded once (no 400, no console error).
def _watch_exchanges(page: Page) -> tuple[list[str], list[str]]:
    exchanges: list[str] = []
    errors: list[str] = []
    page.on(
        "request",
        lambda request: exchanges.append(request.url) if "/api/auth/session" in request.url else None,
    )
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return exchanges, errors


def _after_sign_in_browse(page: Page, shop_url: str) -> None:
    """Pages after the sign-in (client-side navigation, then a reload) must not ask again."""
    _wait_for_cookie(page, "shop_session")
    page.get_by_role("link", name="Shop", exact=True).first.click()
    expect(page).to_have_url(re.compile(r"/shop$"))
    expect(page.get_by_role("button", name=re.compile("^Account menu"))).to_be_visible()
    page.reload()
    expect(page.get_by_role("button", name=re.compile("^Account menu"))).to_be_visible()
    page.goto(f"{shop_url}/account")
    expect(page.get_by_role("heading", name=re.compile("^Hello, "))).to_be_visible()


def test_sign_out_in_one_tab_signs_out_every_tab_that_signed_in(
    shop_url: str, browser: Browser, new_customer
) -> None:
    """Stranger-found: two tabs of one browser each signed in; Sign Out in the first ended only
    the session of the browser's cookie (the second tab's), and the first tab, reloaded, was
    still signed in by its own session. The browser has signed in before (it holds its binding
    cookie, as a returning browser does for 400 days): two tabs of a browser's very first sign-in
    can each mint a binding of their own, which this does not cover (closing note, 2026-11-26)."""
    context = browser.new_context()
    context.add_cookies(
        [{"name": BROWSER_COOKIE, "value": uuid.uuid4().hex, "url": shop_url, "sameSite": "Strict"}]
    )
    first, second = context.new_page(), context.new_page()
    email = new_customer()
    for page in (first, second):  # both open as a guest's tabs, then each signs in
        page.goto(f"{shop_url}/shop")
        expect(page.get_by_role("button", name="Account", exact=True)).to_be_visible()
    for page in (first, second):
        _sign_in_in_dialog(page, email)

    first.get_by_role("button", name=re.compile("^Account menu")).click()
    first.get_by_role("menuitem", name="Sign Out").click()
    expect(first).to_have_url(f"{shop_url}/")
    for page in (first, second):
        page.reload()
        expect(page.get_by_role("button", name="Account", exact=True)).to_be_visible()
        expect(page.get_by_role("button", name=re.compile("^Account menu"))).to_have_count(0)
    context.close()


def test_signing_in_in_the_dialog_trades_the_ticket_once(shop_url: str, browser: Browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    email = _email()
    page.goto(f"{shop_url}/")
    _register_in_dialog(page, email)
    exchanges, errors = _watch_exchanges(page)
    _sign_in_in_dialog(page, email)
    _after_sign_in_browse(page, shop_url)
    assert len(exchanges) == 1, exchanges
    assert errors == []
    context.close()


def test_signing_in_on_the_auth_page_trades_the_ticket_once(shop_url: str, browser: Browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    email = _email()
    page.goto(f"{shop_url}/")
    _register_in_dialog(page, email)
    page.goto(f"{shop_url}/auth")
    exchanges, errors = _watch_exchanges(page)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign In", exact=True).click()
    expect(page).to_have_url(f"{shop_url}/")
    _after_sign_in_browse(page, shop_url)
    assert len(exchanges) == 1, exchanges
    assert errors == []
    context.close()


# -- Finding 3: signing in from a heart saves that favourite.
def _sign_in_from_open_dialog(page: Page, email: str) -> None:
    dialog = page.get_by_role("dialog", name="Welcome Back")
    dialog.get_by_label("Email", exact=True).fill(email)
    dialog.get_by_label("Password", exact=True).fill(PASSWORD)
    dialog.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_signing_in_from_a_heart_saves_that_favourite(shop_url: str, page: Page) -> None:
    email = _email()
    product, _ = with_sibling_scent()
    page.goto(f"{shop_url}/product/{demo_id(product)}")
    _register_in_dialog(page, email)

    page.get_by_role("button", name=f"Add {product.name} to favorites").click()
    expect(page.get_by_text("Please sign in to add items to your wishlist")).to_be_visible()
    _sign_in_from_open_dialog(page, email)

    expect(page.get_by_text("Added to wishlist")).to_be_visible()
    expect(page.get_by_role("button", name=f"Remove {product.name} from favorites")).to_be_visible()
    expect(page.get_by_role("button", name="Favorites, 1 item")).to_be_visible()
    page.goto(f"{shop_url}/account/wishlist")
    expect(page.get_by_role("heading", name=product.name)).to_be_visible()


def test_a_heart_whose_dialog_was_closed_is_forgotten(shop_url: str, page: Page) -> None:
    email = _email()
    product, _ = with_sibling_scent()
    page.goto(f"{shop_url}/product/{demo_id(product)}")
    _register_in_dialog(page, email)

    page.get_by_role("button", name=f"Add {product.name} to favorites").click()
    expect(page.get_by_role("dialog", name="Welcome Back")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    _sign_in_in_dialog(page, email)  # from the Account button, not the heart

    expect(page.get_by_role("button", name=f"Add {product.name} to favorites")).to_be_visible()
    page.goto(f"{shop_url}/account/wishlist")
    expect(page.get_by_role("heading", name="No favorites yet")).to_be_visible()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_the_account_dialog_and_menu_work_whether_or_not_the_visitor_prefers_reduced_motion(
    shop_url: str, browser: Browser, motion: str
) -> None:
    """Register and sign in through the dialog, sign out through the account menu. Sign Out is a
    button in the menu that posts a form: without the menu's closing animation (a visitor who
    prefers reduced motion) the menu used to be gone before the click could submit the form, and
    nothing happened."""
    context = browser.new_context(reduced_motion=motion)
    try:
        page = context.new_page()
        email = _email()
        page.goto(f"{shop_url}/")
        _register_in_dialog(page, email)
        for _ in range(2):
            _sign_in_in_dialog(page, email)
            page.get_by_role("button", name="Account menu for Mia Chen").click()
            page.get_by_role("menuitem", name="Sign Out").click()
            expect(page).to_have_url(f"{shop_url}/")
            expect(page.get_by_role("button", name="Account", exact=True)).to_be_visible()
            page.goto(f"{shop_url}/account")
            expect(page.get_by_text("You need to be logged in to view your account.")).to_be_visible()
            page.goto(f"{shop_url}/")
    finally:
        context.close()
