"""The payment's last seed messages, each shown in the browser (issue 15, acceptance 4; the table is
tests/support/message_journeys/checkout.py).

The failures are real: the running shop's local Square simulator declines a card with a code Square
does not document today, or never answers a charge (its fault switch, ``/_square/_simulator/faults``),
and the shop's own clean-up job (``python -m shop_app release-unpaid``) gives the unpaid order up;
a second shop, in Square's sandbox mode, cannot load Square's Web Payments SDK (about 45 s more, to
build and start it, once for the module).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.domain.messages import PaymentMessage
from shop_app.domain.orders import OrderStatus, PaymentStatus
from shop_app.models import Order, Payment
from shop_app.services.ordering.settle import ABANDONED_CODE
from shop_app.square_simulator.nonces import NEW_DECLINE_CODE
from tests.e2e.conftest import SERVER_PROBLEMS, SQUARE_TOKEN
from tests.e2e.helpers import demo_id, with_sibling_scent
from tests.e2e.shops import ROOT, production_shop
from tests.e2e.test_checkout import _add_and_go_to_checkout, _fill, _stock
from tests.support.servers import free_port

WS = 15_000  # anything that crosses the websocket (and Square's retries)
SIMULATOR = {"Authorization": f"Bearer {SQUARE_TOKEN}"}  # the running shop's local Square
NO_ANSWER = r"level=error .*No answer from Square for [A-Z0-9-]+ after \d+ attempts"
"""What the shop logs (an error, on purpose) when Square never answered a charge."""


@contextmanager
def _square_fault(page: Page, shop_url: str, kind: str, *, times: int) -> Iterator[None]:
    """The running shop's Square misbehaves on the next ``times`` CreatePayment requests (the
    simulator's fault switch); every fault left is forgotten when the block ends."""
    faults = f"{shop_url}/_square/_simulator/faults"
    fault = {"path": "/v2/payments", "method": "POST", "kind": kind, "times": times}
    switched = page.request.post(faults, data=fault, headers=SIMULATOR)
    assert switched.ok, switched.text()
    try:
        yield
    finally:
        assert page.request.delete(faults, headers=SIMULATOR).ok


@pytest.fixture
def square_never_answers(page: Page, shop_url: str) -> Iterator[None]:
    """Square answers no CreatePayment (a server error each time, nothing charged) for the shop's
    three attempts at one payment; the shop logs an error (``NO_ANSWER``: the test is marked
    ``server_log_expects(NO_ANSWER)``)."""
    with _square_fault(page, shop_url, "http_500", times=3):
        yield


def _place(page: Page) -> None:
    page.get_by_role("button", name=re.compile(r"^Place Order")).click()


def _order_of(database_url: str, email: str) -> tuple[Order, Payment]:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            order = session.exec(select(Order).where(Order.email == email).order_by(Order.id.desc())).first()
            payment = session.exec(select(Payment).where(Payment.order_id == order.id)).one()
            return order, payment
    finally:
        engine.dispose()


def test_a_decline_code_square_added_after_this_release_reads_payment_failed_and_keeps_cart_and_form(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    product, _ = with_sibling_scent()
    product_id = demo_id(product)
    _add_and_go_to_checkout(page, shop_url, product_id)
    stock_before = _stock(shop_database_url, product_id)
    email = f"new-code-{uuid.uuid4().hex[:6]}@example.com"
    _fill(page, email)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")

    with _square_fault(page, shop_url, "decline_new_code", times=1):
        _place(page)
        expect(page.get_by_role("alert")).to_have_text(PaymentMessage.CARD_FAILED.value, timeout=WS)

    expect(page.get_by_text(NEW_DECLINE_CODE)).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/checkout/?$"))
    expect(page.get_by_label("Email", exact=True)).to_have_value(email)
    expect(page.get_by_label("City")).to_have_value("Victoria")
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    assert _stock(shop_database_url, product_id) == stock_before
    order, payment = _order_of(shop_database_url, email)
    assert (order.status, payment.status, payment.error_code) == (
        OrderStatus.CANCELLED,
        PaymentStatus.FAILED,
        NEW_DECLINE_CODE,
    )

    _place(page)  # the next attempt goes through: the cart and the form were kept
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=WS)


def _release_unpaid(shop_url: str, database_url: str, older_than_minutes: int) -> str:
    """The shop's clean-up job (cron: ``python -m shop_app release-unpaid``) on the running shop."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SITE_URL": shop_url,
        "SQUARE_LOCAL_TOKEN": SQUARE_TOKEN,
        "REFLEX_TELEMETRY_ENABLED": "false",
    }
    done = subprocess.run(
        [sys.executable, "-m", "shop_app", "release-unpaid", "--older-than", str(older_than_minutes)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.server_log_expects(NO_ANSWER)
def test_a_payment_square_never_received_is_given_up_and_its_order_page_says_payment_failed(
    shop_url: str, shop_database_url: str, page: Page, square_never_answers: None
) -> None:
    product, _ = with_sibling_scent()
    product_id = demo_id(product)
    _add_and_go_to_checkout(page, shop_url, product_id)
    stock_before = _stock(shop_database_url, product_id)
    email = f"abandoned-{uuid.uuid4().hex[:6]}@example.com"
    _fill(page, email)
    page.get_by_label("Test card").select_option(label="Visa ending 1111 (approved)")

    _place(page)  # Square answers none of the shop's three attempts: the outcome is unknown
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible(timeout=45_000)
    expect(page.get_by_text("We are confirming your payment")).to_be_visible()
    order, _ = _order_of(shop_database_url, email)
    assert order.status == OrderStatus.AWAITING_PAYMENT

    # A month later (the order's clock moved back; the job's cut-off then matches this order only),
    # the shop's clean-up job asks Square, which has no payment for it, and gives the order up.
    engine = sa.create_engine(shop_database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.update(Order.__table__)
                .where(Order.__table__.c.id == order.id)
                .values(created_at=order.created_at - timedelta(days=30))
            )
    finally:
        engine.dispose()
    report = _release_unpaid(shop_url, shop_database_url, older_than_minutes=29 * 24 * 60)
    assert "1 declined" in report, report

    page.reload()  # the order page the shopper was sent to
    expect(page.get_by_role("heading", name="Your order was not placed")).to_be_visible(timeout=WS)
    expect(page.get_by_role("alert")).to_have_text(PaymentMessage.FAILED.value)
    expect(page.get_by_text("We are confirming your payment")).to_have_count(0)
    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()  # the cart is kept
    order, payment = _order_of(shop_database_url, email)
    assert (order.status, payment.status, payment.error_code) == (
        OrderStatus.CANCELLED,
        PaymentStatus.FAILED,
        ABANDONED_CODE,
    )
    assert _stock(shop_database_url, product_id) == stock_before


# ---------------------------------------------------------------------- Square's SDK in sandbox mode


@pytest.fixture(scope="module")
def sandbox_shop_url(
    shop_url: str, shop_database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A second shop, in ``SQUARE_ENVIRONMENT=sandbox``, on the e2e shop's database (it only reads
    the catalogue and keeps a guest cart). Its card form is Square's Web Payments SDK, loaded from
    Square's CDN, which nothing in these tests can reach (as when the CDN is down or blocked).

    Built like ``shop_url``'s shop (``tests.e2e.shops.production_shop``): a build of its own, so the
    running shop's build and sessions are left alone.
    """
    workdir = tmp_path_factory.mktemp("sandbox_shop")
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": shop_database_url,
        "MEDIA_DIR": str(workdir / "media"),
        "SITE_URL": f"http://localhost:{port}",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "MAIL_BACKEND": "outbox",
        "SQUARE_ENVIRONMENT": "sandbox",
        "SQUARE_APPLICATION_ID": "sandbox-sq0idb-e2e-application",
        "SQUARE_LOCATION_ID": "LE2ESANDBOX",
        "SQUARE_ACCESS_TOKEN": "e2e-sandbox-token-never-sent",
        "PYTHONWARNINGS": "error::RuntimeWarning",
    }
    for name in ("REFLEX_REDIS_URL", "SQUARE_LOCAL_TOKEN", "SQUARE_SIMULATOR_URL"):
        env.pop(name, None)
    with production_shop(workdir, port, env) as url:
        yield url
        lines = (workdir / "reflex.log").read_text(errors="replace").splitlines()
        problems = [line for line in lines if any(problem in line for problem in SERVER_PROBLEMS)]
        assert not problems, "the sandbox shop logged problems:\n" + "\n".join(problems[:20])


def test_a_card_form_whose_square_sdk_cannot_load_says_so(sandbox_shop_url: str, page: Page) -> None:
    product, _ = with_sibling_scent()
    _add_and_go_to_checkout(page, sandbox_shop_url, demo_id(product))

    expect(page.get_by_text(PaymentMessage.SDK_LOAD_FAILED.value)).to_be_visible(timeout=WS)
    expect(page.get_by_label("Test card")).to_have_count(0)  # Square's own card form, not the test cards
