"""Every route of the app, opened by its address in a fresh browser as a visitor, a customer and
an administrator (issue 15: shoppers arrive by links, bookmarks and phones, not only from home).

For each page and role: the page's main heading appears within 10 s and says the right thing for
that role (the content, a sign-in prompt, or a refusal), the address is where that role belongs,
and the browser logged no console error and no hydration error. A route the app registers that
is not in ``EXPECTED`` fails the test: a new page cannot ship without being crawled.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Error, expect
from sqlmodel import Session, select

import shop_app.shop_app  # noqa: F401 - registers the pages
from shop_app.db import create_db_engine
from shop_app.demo.demo_catalog import DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD
from shop_app.models import Order, OrderAddress, OrderItem, Payment, User
from shop_app.pages import NOT_FOUND, PAGES
from tests.e2e.test_accounts import PASSWORD, _register_in_dialog, _sign_in_in_dialog

MAIN_CONTENT_S = 10_000
ROLES = ("visitor", "customer", "admin")


@dataclass(frozen=True)
class Outcome:
    """What a role sees at a route: the main heading, and the path it ends on (None: stays)."""

    heading: str  # a regular expression the page's h1 must match
    path: str | None = None


HOME = Outcome(r"^LUXURY HOME FRAGRANCE$", "/")
SIGN_IN = Outcome(r"^Please Sign In$")
DENIED = Outcome(r"^Access Denied - You don't have permission")


def _same(outcome: Outcome) -> dict[str, Outcome]:
    return dict.fromkeys(ROLES, outcome)


def _admin_only(heading: str) -> dict[str, Outcome]:
    return {"visitor": HOME, "customer": HOME, "admin": Outcome(heading)}


EXPECTED: dict[str, dict[str, Outcome]] = {
    "/": _same(HOME),
    "/shop": _same(Outcome(r"^Shop$")),
    "/product/[product_id]": _same(Outcome(r"^8oz Matte White Soy Candle")),
    "/auth": {"visitor": Outcome(r".+"), "customer": HOME, "admin": HOME},
    "/account": {"visitor": SIGN_IN, "customer": Outcome(r"^Hello, "), "admin": Outcome(r"^Hello, ")},
    "/account/orders": {
        "visitor": SIGN_IN,
        "customer": Outcome(r"^Order History$"),
        "admin": Outcome(r"^Order History$"),
    },
    "/account/orders/[order_id]": {
        "visitor": SIGN_IN,
        "customer": Outcome(r"^Order Details$"),
        "admin": Outcome(r"^Order Not Found$"),  # another customer's order
    },
    "/account/wishlist": {
        "visitor": SIGN_IN,
        "customer": Outcome(r"^My Favorites$"),
        "admin": Outcome(r"^My Favorites$"),
    },
    "/reset-password": _same(Outcome(r".+")),
    "/checkout": _same(Outcome(r"^Checkout$|^Your Cart is Empty$")),
    "/order-success": _same(Outcome(r".+")),
    "/order-status": _same(Outcome(r"^Order not found$")),  # no signed token in the address
    "/order-lookup": _same(Outcome(r"^Find Your Order$")),
    "/custom-orders": _same(Outcome(r"^Custom Orders")),
    "/custom-creator": _same(Outcome(r".+")),
    "/terms": _same(Outcome(r"^Terms of Service$")),
    "/privacy": _same(Outcome(r"^Privacy Policy$")),
    "/faq": _same(Outcome(r".+")),
    "/reviews": _same(Outcome(r".+")),
    "/contact": _same(Outcome(r".+")),
    "/about": _same(Outcome(r".+")),
    "/newsletter/unsubscribe": _same(Outcome(r".+")),
    "/admin/login": {"visitor": Outcome(r".+"), "customer": HOME, "admin": Outcome(r".+", "/admin")},
    "/admin": {"visitor": DENIED, "customer": DENIED, "admin": Outcome(r"^Admin Dashboard$|^Dashboard$")},
    "/admin/dashboard": {
        "visitor": DENIED,
        "customer": DENIED,
        "admin": Outcome(r"^Admin Dashboard$|^Dashboard$"),
    },
    # The dashboard's products tab: the dashboard tells non-admins they may not enter.
    "/admin/products": {"visitor": DENIED, "customer": DENIED, "admin": Outcome(r"^Admin Dashboard$")},
    "/admin/dashboard/products": {
        "visitor": DENIED,
        "customer": DENIED,
        "admin": Outcome(r"^Admin Dashboard$"),
    },
    "/admin/products/new": _admin_only(r".+"),
    "/admin/dashboard/products/new": _admin_only(r".+"),
    "/admin/products/edit/[product_id]": _admin_only(r".+"),
    "/admin/dashboard/products/edit/[product_id]": _admin_only(r".+"),
    "/admin/product-creation": _admin_only(r".+"),
    "/admin/manage-products": _admin_only(r".+"),
    "/admin/manage-products-grouped": _admin_only(r".+"),
    "/admin/square-reconcile": _admin_only(r".+"),
    "/admin/manage-categories": _admin_only(r".+"),
    "/admin/manage-images": _admin_only(r".+"),
    "/admin/images": _admin_only(r".+"),
    "/admin/dashboard/images": _admin_only(r".+"),
    "/admin/settings": _admin_only(r".+"),
    "/admin/dashboard/settings": _admin_only(r".+"),
    "/admin/orders": _admin_only(r".+"),
    "/admin/orders/[order_id]": _admin_only(r".+"),
    "/admin/inbox": _admin_only(r".+"),
    "/admin/manage-admins": _admin_only(r".+"),
    "/admin/view-users": _admin_only(r".+"),
    "/admin/discounts": _admin_only(r".+"),
    "404": _same(Outcome(r".+")),
}


def test_every_route_of_the_app_is_crawled() -> None:
    routes = {page.route for page in (*PAGES, NOT_FOUND)}

    assert routes == set(EXPECTED), (
        f"routes without an entry in EXPECTED: {sorted(routes - set(EXPECTED))}; "
        f"entries for routes the app no longer has: {sorted(set(EXPECTED) - routes)}"
    )


@pytest.fixture(scope="module")
def storage(browser: Browser, shop_url: str, shop_database_url: str) -> Iterator[dict[str, object]]:
    """Signed-in browser storage for a customer (with one order) and the demo admin."""
    email = f"crawler-{uuid.uuid4().hex[:8]}@example.com"
    states: dict[str, object] = {"visitor": None}
    for role in ("customer", "admin"):
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{shop_url}/")
        if role == "customer":
            _register_in_dialog(page, email)
            _sign_in_in_dialog(page, email, PASSWORD)
        else:
            _sign_in_in_dialog(page, DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD)
        expect(page.get_by_role("button", name=re.compile("^Account menu"))).to_be_visible(timeout=20_000)
        states[role] = context.storage_state()
        context.close()
    states["order_id"] = _order_of(shop_database_url, email)
    yield states


def _order_of(database_url: str, email: str) -> int:
    """A paid order of the customer (for /account/orders/{id} and /admin/orders/{id})."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            user = session.exec(select(User).where(User.email == email)).one()
            order = Order(
                order_number=f"CE-CRAWL-{uuid.uuid4().hex[:6].upper()}",
                user_id=user.id,
                email=email,
                status="processing",
                payment_status="completed",
                subtotal_cents=3000,
                tax_cents=360,
                shipping_cents=1500,
                total_cents=4860,
            )
            session.add(order)
            session.flush()
            session.add(
                OrderItem(
                    order_id=order.id, product_id=1, quantity=1, unit_price_cents=3000, total_price_cents=3000
                )
            )
            session.add(
                OrderAddress(
                    order_id=order.id,
                    first_name="Crawl",
                    last_name="Er",
                    address_line1="1 Main St",
                    city="Victoria",
                    state="BC",
                    zip_code="V8V 1A1",
                    country="Canada",
                )
            )
            session.add(
                Payment(
                    order_id=order.id,
                    provider="square",
                    idempotency_key=str(uuid.uuid4()),
                    amount_cents=4860,
                    status="completed",
                )
            )
            session.commit()
            return order.id
    finally:
        engine.dispose()


def _address(route: str, order_id: int) -> str:
    if route == "404":
        return "/no-such-page"
    return route.replace("[product_id]", "1").replace("[order_id]", str(order_id))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("route", sorted(EXPECTED))
def test_a_page_opened_by_its_address(
    shop_url: str, browser: Browser, storage: dict[str, object], route: str, role: str
) -> None:
    expected = EXPECTED[route][role]
    context: BrowserContext = browser.new_context(storage_state=storage[role])
    page = context.new_page()
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error" and not (route == "404" and "status of 404" in message.text):
            problems.append(f"console: {message.text}")  # (the not-found page itself answers 404)

    def on_page_error(error: Error) -> None:
        problems.append(f"page error: {error.message}")

    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    try:
        page.goto(f"{shop_url}{_address(route, int(storage['order_id']))}")
        heading = page.get_by_role("heading", level=1, name=re.compile(expected.heading))
        expect(heading).to_be_visible(timeout=MAIN_CONTENT_S)
        if expected.path is not None:
            expect(page).to_have_url(
                re.compile(rf"^{re.escape(shop_url)}{re.escape(expected.path)}/?(\?.*)?$")
            )
        page.wait_for_load_state("networkidle")
        assert problems == [], f"{route} as {role}: {problems}"
    finally:
        context.close()


class _NestingCheck(HTMLParser):
    """Finds a block inside a paragraph (or a link in a link, a button in a button): invalid HTML
    that the browser repairs while parsing, after which React's hydration no longer matches."""

    BLOCKS = frozenset(
        [
            "address",
            "article",
            "aside",
            "blockquote",
            "div",
            "dl",
            "fieldset",
            "figure",
            "footer",
            "form",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "header",
            "hr",
            "main",
            "nav",
            "ol",
            "p",
            "pre",
            "section",
            "table",
            "ul",
        ]
    )
    VOID = frozenset(
        ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]
    )

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if "p" in self.open and tag in self.BLOCKS:
            self.problems.append(f"<{tag}> inside <p> (in {' > '.join(self.open[-4:])})")
        if tag in ("a", "button") and tag in self.open:
            self.problems.append(f"<{tag}> inside <{tag}>")
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            while self.open and self.open.pop() != tag:
                pass


@pytest.mark.parametrize("route", sorted(r for r in EXPECTED if "[" not in r and r != "404"))
def test_the_first_html_of_a_page_nests_its_elements_validly(shop_url: str, route: str) -> None:
    """The cause of React's hydration error #418 on /faq and /custom-orders (a text in a callout's
    paragraph): checked on every page's prerendered HTML, no browser needed."""
    check = _NestingCheck()

    check.feed(httpx.get(f"{shop_url}{route}", timeout=30).text)

    assert check.problems == []
