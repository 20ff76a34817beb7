"""The storefront's and the accounts' seed messages, each shown in the browser (issue 15, acceptance 4).

Sign-in and sign-up validation in the dialog and on /auth, their busy labels, their failures (a
table of the shop's database taken away while the shopper submits), favourites (added, already
there, removed, and the three failures), the stock texts of a product page and of the back
office's grouped view, and the customer list's "Last Seen" texts. The table that maps each
message to its test is tests/support/message_journeys/storefront.py.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine, write_transaction
from shop_app.demo.demo_catalog import PRODUCTS
from shop_app.domain.messages import AuthMessage, DisplayText, StockText, WishlistMessage
from shop_app.models import Product, User
from shop_app.models.base import utcnow
from tests.e2e.helpers import NewCustomer, SignIn, demo_id, with_sibling_scent
from tests.e2e.test_accounts import PASSWORD, _register_in_dialog

WEBSOCKET_S = 20_000  # anything that crosses the websocket, on a busy 2-core machine
BrokenTable = Callable[[str], AbstractContextManager[None]]


def _email(kind: str = "msg") -> str:
    return f"{kind}-{uuid.uuid4().hex[:8]}@example.com"


class _HeldReplies:
    """The page's event websocket, routed through the test: while ``holding``, the shop's replies
    after the one that shows a form busy wait until ``release`` (a slow connection, on demand).

    A busy label ("Signing In...") shows between the handler's first reply and its answer; on a
    fast machine that is a few milliseconds, so the test holds the answer back to see it. (Holding
    the database's write lock instead does not stall these handlers: they read before they write,
    and SQLite refuses such a transaction the write lock at once instead of waiting for it.)
    """

    BUSY = '"submitting_rx_state_":true'

    def __init__(self, page: Page) -> None:
        self.holding = False
        self._held: list[tuple[WebSocketRoute, str | bytes]] = []
        page.route_web_socket(re.compile(r"/_event/"), self._route)

    def _route(self, route: WebSocketRoute) -> None:
        server = route.connect_to_server()
        route.on_message(server.send)
        server.on_message(lambda message: self._from_shop(route, message))

    def _from_shop(self, route: WebSocketRoute, message: str | bytes) -> None:
        is_event = isinstance(message, str) and message.startswith("42")
        if self.holding and is_event and self.BUSY not in message:
            self._held.append((route, message))
        else:
            route.send(message)

    def release(self) -> None:
        self.holding = False
        held, self._held = self._held, []
        for route, message in held:
            route.send(message)


def _dialog_register_form(page: Page):
    page.get_by_role("button", name="Account").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("tab", name="Create Account").click()
    expect(dialog.get_by_role("heading", name="Join Our Community")).to_be_visible(timeout=WEBSOCKET_S)
    return dialog


def test_the_sign_up_dialog_says_what_is_wrong_in_the_seeds_order(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/")
    dialog = _dialog_register_form(page)
    error = dialog.get_by_role("alert")
    create = dialog.get_by_role("button", name="Create Account")

    dialog.get_by_label("First name").fill("   ")  # the browser's "required" takes blanks
    dialog.get_by_label("Last name").fill("Chen")
    dialog.get_by_label("Email", exact=True).fill(_email("signup"))
    dialog.get_by_label("Password", exact=True).fill(PASSWORD)
    dialog.get_by_label("Confirm password").fill(PASSWORD)
    create.click()
    expect(error).to_have_text(str(AuthMessage.REQUIRED_FIELDS), timeout=WEBSOCKET_S)

    dialog.get_by_label("First name").fill("Mia")
    create.click()
    expect(error).to_have_text(str(AuthMessage.AGREE_TO_TERMS), timeout=WEBSOCKET_S)

    dialog.get_by_role("checkbox", name="I agree to the").check()
    dialog.get_by_label("Confirm password").fill(PASSWORD + "!")
    create.click()
    expect(error).to_have_text(str(AuthMessage.PASSWORDS_DO_NOT_MATCH), timeout=WEBSOCKET_S)

    dialog.get_by_label("Password", exact=True).fill("wick")
    dialog.get_by_label("Confirm password").fill("wick")
    create.click()
    expect(error).to_have_text(str(AuthMessage.PASSWORD_TOO_SHORT), timeout=WEBSOCKET_S)

    dialog.get_by_label("Password", exact=True).fill(PASSWORD)
    dialog.get_by_label("Confirm password").fill(PASSWORD)
    dialog.get_by_label("Email", exact=True).fill("mia@example")  # the browser takes it, the shop does not
    create.click()
    expect(error).to_have_text(str(AuthMessage.INVALID_EMAIL), timeout=WEBSOCKET_S)
    expect(page.get_by_role("dialog")).to_be_visible()  # nothing was created


def test_the_auth_page_asks_for_all_fields(shop_url: str, page: Page) -> None:
    page.goto(f"{shop_url}/auth")
    expect(page.get_by_role("tab", name="Sign In")).to_be_visible(timeout=WEBSOCKET_S)
    page.get_by_label("Email", exact=True).fill(_email("page"))
    page.get_by_label("Password", exact=True).fill("   ")  # the browser's "required" takes blanks
    page.get_by_role("button", name="Sign In", exact=True).click()

    expect(page.get_by_role("alert").filter(has_text=str(AuthMessage.ALL_FIELDS)).first).to_be_visible(
        timeout=WEBSOCKET_S
    )


def test_the_dialog_says_it_is_creating_the_account_and_signing_in(shop_url: str, page: Page) -> None:
    replies = _HeldReplies(page)
    email = _email("busy")
    page.goto(f"{shop_url}/")
    dialog = _dialog_register_form(page)
    dialog.get_by_label("First name").fill("Mia")
    dialog.get_by_label("Last name").fill("Chen")
    dialog.get_by_label("Email", exact=True).fill(email)
    dialog.get_by_label("Password", exact=True).fill(PASSWORD)
    dialog.get_by_label("Confirm password").fill(PASSWORD)
    dialog.get_by_role("checkbox", name="I agree to the").check()

    replies.holding = True
    dialog.get_by_role("button", name="Create Account").click()
    busy = dialog.get_by_role("button", name=str(AuthMessage.CREATING_ACCOUNT))
    expect(busy).to_be_visible(timeout=WEBSOCKET_S)
    expect(busy).to_be_disabled()
    replies.release()
    expect(page.get_by_text(str(AuthMessage.ACCOUNT_CREATED))).to_be_visible(timeout=WEBSOCKET_S)
    expect(page.get_by_role("dialog")).to_have_count(0)  # a click during its closing is Radix's to drop

    page.get_by_role("button", name="Account").click()
    dialog = page.get_by_role("dialog", name="Welcome Back")
    dialog.get_by_label("Email", exact=True).fill(email)
    dialog.get_by_label("Password", exact=True).fill(PASSWORD)
    replies.holding = True
    dialog.get_by_role("button", name="Sign In").click()
    busy = dialog.get_by_role("button", name=str(AuthMessage.SIGNING_IN))
    expect(busy).to_be_visible(timeout=WEBSOCKET_S)
    expect(busy).to_be_disabled()
    replies.release()
    expect(page.get_by_text(str(AuthMessage.WELCOME_BACK))).to_be_visible(timeout=WEBSOCKET_S)
    expect(page.get_by_role("button", name="Account menu for Mia Chen")).to_be_visible(timeout=WEBSOCKET_S)


@pytest.mark.broken_table
def test_sign_in_and_sign_up_say_so_when_the_database_fails(
    shop_url: str, page: Page, broken_table: BrokenTable
) -> None:
    """The sign-in attempts and the form submissions (the request counter) are out of reach."""
    page.goto(f"{shop_url}/auth")
    expect(page.get_by_role("tab", name="Sign In")).to_be_visible(timeout=WEBSOCKET_S)
    page.get_by_label("Email", exact=True).fill(_email("down"))
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    with broken_table("sign_in_attempts"):
        page.get_by_role("button", name="Sign In", exact=True).click()
        expect(page.get_by_role("alert").filter(has_text=str(AuthMessage.LOGIN_ERROR)).first).to_be_visible(
            timeout=WEBSOCKET_S
        )

    page.get_by_role("tab", name="Sign Up").click()
    page.get_by_label("First name").fill("Mia")
    page.get_by_label("Last name").fill("Chen")
    page.get_by_label("Email", exact=True).fill(_email("down"))
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Confirm password").fill(PASSWORD)
    with broken_table("form_submissions"):
        page.get_by_role("button", name="Sign Up", exact=True).click()
        expect(
            page.get_by_role("alert").filter(has_text=str(AuthMessage.REGISTRATION_ERROR)).first
        ).to_be_visible(timeout=WEBSOCKET_S)

    page.goto(f"{shop_url}/")
    page.get_by_role("button", name="Account").click()
    dialog = page.get_by_role("dialog", name="Welcome Back")
    dialog.get_by_label("Email", exact=True).fill(_email("down"))
    dialog.get_by_label("Password", exact=True).fill(PASSWORD)
    with broken_table("sign_in_attempts"):
        dialog.get_by_role("button", name="Sign In").click()
        expect(dialog.get_by_role("alert")).to_have_text(
            str(AuthMessage.UNEXPECTED_ERROR), timeout=WEBSOCKET_S
        )


def test_a_stale_heart_says_the_item_is_already_a_favourite_then_removes_it(
    shop_url: str, browser: Browser, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        sign_in(page, new_customer(prefix="fav"))
        product, _ = with_sibling_scent()
        product_url = f"{shop_url}/product/{demo_id(product)}"
        page.goto(product_url)
        add = page.get_by_role("button", name=f"Add {product.name} to favorites")
        expect(add).to_be_visible(timeout=WEBSOCKET_S)

        other_tab = context.new_page()
        other_tab.goto(product_url)
        other_tab.get_by_role("button", name=f"Add {product.name} to favorites").click()
        expect(other_tab.get_by_text(str(WishlistMessage.ADDED))).to_be_visible(timeout=WEBSOCKET_S)
        other_tab.close()

        add.click()  # this tab's heart still shows it as not a favourite
        expect(page.get_by_text(str(WishlistMessage.ALREADY_IN_WISHLIST))).to_be_visible(timeout=WEBSOCKET_S)
        remove = page.get_by_role("button", name=f"Remove {product.name} from favorites")
        expect(remove).to_be_visible(timeout=WEBSOCKET_S)

        remove.click()
        expect(page.get_by_text(str(WishlistMessage.REMOVED))).to_be_visible(timeout=WEBSOCKET_S)
        expect(add).to_be_visible(timeout=WEBSOCKET_S)
    finally:
        context.close()


@pytest.mark.broken_table
def test_favourites_say_so_when_they_cannot_be_loaded_added_or_removed(
    shop_url: str, page: Page, broken_table: BrokenTable, sign_in: SignIn, new_customer: NewCustomer
) -> None:
    sign_in(page, new_customer(prefix="fav"))
    product, _ = with_sibling_scent()
    page.goto(f"{shop_url}/product/{demo_id(product)}")
    add = page.get_by_role("button", name=f"Add {product.name} to favorites")
    remove = page.get_by_role("button", name=f"Remove {product.name} from favorites")
    expect(add).to_be_visible(timeout=WEBSOCKET_S)

    with broken_table("wishlist_items"):
        add.click()
        expect(page.get_by_text(str(WishlistMessage.ADD_FAILED))).to_be_visible(timeout=WEBSOCKET_S)
    expect(add).to_be_visible()

    add.click()
    expect(page.get_by_text(str(WishlistMessage.ADDED))).to_be_visible(timeout=WEBSOCKET_S)
    with broken_table("wishlist_items"):
        remove.click()
        expect(page.get_by_text(str(WishlistMessage.REMOVE_FAILED))).to_be_visible(timeout=WEBSOCKET_S)
        page.goto(f"{shop_url}/account/wishlist")
        expect(page.get_by_text(str(WishlistMessage.LOAD_FAILED))).to_be_visible(timeout=WEBSOCKET_S)

    page.reload()
    expect(page.get_by_role("heading", name=product.name)).to_be_visible(timeout=WEBSOCKET_S)


def _stock(database_url: str, product_id: int) -> int:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            return session.exec(select(Product.stock_quantity).where(Product.id == product_id)).one()
    finally:
        engine.dispose()


def test_a_product_page_says_how_many_are_in_stock_or_that_none_are(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    plenty = next(p for p in PRODUCTS if p.stock_quantity > 20 and not p.option_scents)
    sold_out = next(p for p in PRODUCTS if p.stock_quantity == 0)

    page.goto(f"{shop_url}/product/{demo_id(plenty)}")
    count = _stock(shop_database_url, demo_id(plenty))  # other journeys buy some
    expect(page.get_by_text(StockText.N_IN_STOCK.format(n=count), exact=True)).to_be_visible(
        timeout=WEBSOCKET_S
    )

    page.goto(f"{shop_url}/product/{demo_id(sold_out)}")
    expect(page.get_by_role("heading", level=1, name=sold_out.name)).to_be_visible(timeout=WEBSOCKET_S)
    expect(page.get_by_text(str(StockText.OUT_OF_STOCK), exact=True).first).to_be_visible()


def _set_last_sign_in(database_url: str, email: str, ago: timedelta) -> None:
    """Time passes: the shopper last signed in ``ago`` (the UI cannot make that happen)."""
    engine = create_db_engine(database_url)
    try:
        with write_transaction(engine) as session:  # the write lock first: the shop writes meanwhile
            user = session.exec(select(User).where(User.email == email)).one()
            user.last_sign_in_at = utcnow() - ago
            session.add(user)
    finally:
        engine.dispose()


def test_the_back_office_shows_last_seen_times_and_stock_badges(
    shop_url: str, shop_database_url: str, page: Page, browser: Browser, sign_in: SignIn
) -> None:
    never, hours, days = _email("never"), _email("hours"), _email("days")
    shoppers = browser.new_context()
    try:
        registering = shoppers.new_page()
        for email in (never, hours, days):
            registering.goto(f"{shop_url}/")
            _register_in_dialog(registering, email)  # registered, never signed in
    finally:
        shoppers.close()
    _set_last_sign_in(shop_database_url, hours, timedelta(hours=5, minutes=30))
    _set_last_sign_in(shop_database_url, days, timedelta(days=3, hours=2))

    sign_in(page)
    page.goto(f"{shop_url}/admin/view-users")
    expect(page.get_by_role("heading", name="Customers")).to_be_visible(timeout=WEBSOCKET_S)
    search = page.get_by_label("Search customers")
    for email, last_seen in (
        (never, str(DisplayText.NEVER)),
        (hours, DisplayText.HOURS_AGO.format(n=5)),
        (days, DisplayText.DAYS_AGO.format(n=3)),
    ):
        search.fill(email)
        row = page.get_by_role("row").filter(has_text=email)
        expect(row.get_by_role("cell", name=last_seen, exact=True)).to_be_visible(timeout=WEBSOCKET_S)

    in_stock = next(p for p in PRODUCTS if p.stock_quantity > 20 and not p.option_scents)
    group = in_stock.name.rsplit(" - ", 1)[0]
    page.goto(f"{shop_url}/admin/manage-products-grouped")
    page.get_by_role("textbox", name="Search product groups").fill(group)
    expect(page.get_by_role("heading", level=2)).to_have_count(1, timeout=WEBSOCKET_S)
    page.get_by_role("button", name=f"Show variants of {group}").click()
    variant = page.get_by_role("listitem", name=in_stock.name)
    expect(variant.get_by_text(str(StockText.IN_STOCK), exact=True)).to_be_visible(timeout=WEBSOCKET_S)
