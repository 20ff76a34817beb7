"""Shared knowledge of the demo catalogue, and shared moves, for the browser tests."""

from __future__ import annotations

import functools
import secrets
import uuid
from pathlib import Path
from typing import Protocol

import sqlalchemy as sa
from playwright.sync_api import Locator, Page
from sqlmodel import select

from shop_app.db import create_db_engine, write_transaction
from shop_app.demo.demo_catalog import DEMO_ADMIN_EMAIL, PRODUCTS, DemoProduct
from shop_app.domain.grouping import parse_product_name
from shop_app.models import User
from shop_app.models.base import saved_id, utcnow
from shop_app.services import sessions
from shop_app.services.passwords import hash_password

UPLOAD_PATH = "/_upload"  # Reflex's upload endpoint


def demo_id(product: DemoProduct) -> int:
    """The database id of a demo product: the e2e database is fresh and loads them in order."""
    return PRODUCTS.index(product) + 1


def product_named(name: str) -> DemoProduct:
    """The demo product with this exact name."""
    return next(p for p in PRODUCTS if p.name == name)


def with_sibling_scent() -> tuple[DemoProduct, DemoProduct]:
    """Two in-stock demo products in the same vessel with different scents."""
    for first in PRODUCTS:
        base = parse_product_name(first.name).base_name
        for second in PRODUCTS:
            if (
                second is not first
                and parse_product_name(second.name).base_name == base
                and first.stock_quantity > 5
                and second.stock_quantity > 5
            ):
                return first, second
    raise LookupError("the demo catalogue has no vessel with two scents in stock")


def low_stock() -> DemoProduct:
    """A demo product with only a few left."""
    return next(p for p in PRODUCTS if 1 <= p.stock_quantity <= 3)


def active_product_names(database_url: str, *, featured_only: bool = False) -> list[str]:
    """Names of the products the shop lists now, newest first (the individual listing's order).

    The admin journeys add products to the shared e2e database, so storefront tests that count
    the whole catalogue ask the database instead of assuming the demo catalogue alone.
    """
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                sa.text(
                    "SELECT name FROM products WHERE is_active AND is_listed "
                    "AND (is_featured OR NOT :featured_only) "
                    "ORDER BY created_at DESC, id DESC"
                ),
                {"featured_only": featured_only},
            )
            return [name for (name,) in rows]
    finally:
        engine.dispose()


def upload(page: Page, zone: Locator, *files: Path) -> None:
    """Give files to an upload zone's file input and wait until the server has answered.

    Reflex ignores a second upload to a zone while the first request is still open. The zone sends
    one even when the browser refused every file (react-dropzone calls ``on_drop`` with the files it
    accepted, none), and a refusal shows (a toast over the websocket) before that request ends; so
    a test that drops again at once must wait for the request, as a person's pause would.
    """
    with page.expect_request_finished(lambda request: UPLOAD_PATH in request.url):
        zone.set_input_files([str(file) for file in files])


CUSTOMER_PASSWORD = "lavender-fields"  # every account made by a test has it (test_accounts.PASSWORD)


class NewCustomer(Protocol):
    """The ``new_customer`` fixture: ``new_customer(first=…, last=…, prefix=…)`` makes an account
    and returns its e-mail."""

    def __call__(self, *, first: str = ..., last: str = ..., prefix: str = ...) -> str: ...


class SignIn(Protocol):
    """The ``sign_in`` fixture: ``sign_in(page)`` as the demo administrator, ``sign_in(page, email)``."""

    def __call__(self, page: Page, email: str = ...) -> None: ...


BROWSER_COOKIE = "shop_browser"  # the shop's browser-binding cookie (state.auth.BROWSER_COOKIE)


def sign_in_without_dialog(
    page: Page, shop_url: str, database_url: str, email: str = DEMO_ADMIN_EMAIL
) -> None:
    """Sign ``page``'s browser in to the account of ``email`` without the sign-in dialog.

    For tests about something else than signing in (the dialog has its own tests, in
    test_accounts.py): a session of its own for this browser, opened by the shop's session service
    as the dialog's handler opens it, and its cookie set by the shop's own ticket exchange
    (``GET /api/auth/session``), which the browser context calls as the page's script does. The
    dialog costs a page load, the bcrypt check and several round trips over the websocket (2 to 3
    s a test on a busy machine); this costs a few milliseconds. The next page the test opens is
    signed in. Like a successful sign-in it records the time and the known browser; it merges no
    guest cart (a test of that signs in through the dialog).
    """
    binding = secrets.token_urlsafe(32)
    page.context.add_cookies(
        [{"name": BROWSER_COOKIE, "value": binding, "url": shop_url, "sameSite": "Strict"}]
    )
    engine = create_db_engine(database_url)
    try:
        with write_transaction(engine) as session:
            user = session.exec(select(User).where(User.email == email.lower())).one()
            sessions.remember_browser(session, user_id=saved_id(user), browser_binding=binding)
            user.last_sign_in_at = utcnow()
            session.add(user)
            ticket = sessions.start(session, user=user, remember_me=False, browser_binding=binding).ticket
    finally:
        engine.dispose()
    answer = page.context.request.get(
        f"{shop_url}/api/auth/session", params={"ticket": ticket}, headers={"Sec-Fetch-Site": "same-origin"}
    )
    assert answer.status == 204, f"the shop refused the sign-in ticket: {answer.status}"


@functools.cache
def _customer_password_hash() -> str:
    return hash_password(CUSTOMER_PASSWORD)  # bcrypt at the shop's cost: once per test process


def add_customer(
    database_url: str, *, first: str = "Mia", last: str = "Chen", prefix: str = "shopper"
) -> str:
    """A new customer account, as registering makes it (e-mail not yet confirmed, password
    :data:`CUSTOMER_PASSWORD`), written straight to the shop's database; its e-mail.

    For tests that need a customer, not the registration (which has its own tests): registering
    in the dialog costs a page load, bcrypt and a mail.
    """
    email = f"{prefix}-{uuid.uuid4().hex[:8]}@example.com"
    engine = create_db_engine(database_url)
    try:
        with write_transaction(engine) as session:
            session.add(
                User(email=email, password_hash=_customer_password_hash(), first_name=first, last_name=last)
            )
    finally:
        engine.dispose()
    return email
