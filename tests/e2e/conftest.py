"""End-to-end fixtures: the shop's production build served on a free port, and Debian's Chromium.

The server is started the way the README's run command starts it (``python -m shop_app prepare``
then ``reflex run --env prod --single-port``), on a throw-away SQLite database with the demo
catalogue.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine

from shop_app.demo.demo_catalog import DEMO_ADMIN_EMAIL
from tests.e2e.helpers import NewCustomer, SignIn, add_customer, sign_in_without_dialog
from tests.e2e.shops import ROOT, production_shop
from tests.support.servers import free_port

CHROMIUM = "/usr/bin/chromium-headless-shell"
"""Debian's headless shell of Chromium (the same Blink and V8 as ``chromium``; what Playwright
itself runs for headless tests): no browser UI, so 0.24-0.44 CPU-seconds less per page load than
``chromium --headless`` (paired runs, 2026-11-26). ``scripts/test`` installs it."""
SQUARE_TOKEN = "e2e-local-simulator-secret"
"""The shop's local simulator secret in these tests (``SQUARE_LOCAL_TOKEN``): tests that read the
simulator's ledger over HTTP send it."""
EXPECT_TIMEOUT_MS = 30_000
"""How long an assertion, and an action on the pages that set it, waits for what it expects
(Playwright's default for assertions is 5 s): most cross the websocket, and on a 2-core machine
with other jobs beside the tests (load average near 20 seen in CI) an admin dialog took more than
15 s to open. A passing wait returns as soon as the state shows; only a failure waits this long."""
expect.set_options(timeout=EXPECT_TIMEOUT_MS)
HIDDEN_BROWSER_UI = (
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
    "WebUIOmniboxFullPopup",
    "WebUIReloadButton",
)
"""Chromium features that run hidden browser UI in every new tab: the omnibox popup's WebUI pages
(Lit and "AI mode" code in a renderer of their own) cost 0.65-0.86 CPU-seconds per page load,
about a third of a load (measured 2026-11-26, paired runs, Chromium 156; README, "How long it takes")."""


def playwright_disabled_features() -> list[str]:
    """Playwright's own ``--disable-features`` list, read from its driver: Chromium takes the last
    ``--disable-features`` switch only, so ours must repeat Playwright's (and follow it when
    Playwright is upgraded; a driver without the list fails here, loudly)."""
    import playwright  # noqa: PLC0415 (only to find the driver)

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    source = bundle.read_text(encoding="utf-8")
    found = re.search(r"disabledFeatures = \[(.*?)\]\.filter\(Boolean\)", source, re.DOTALL)
    if found is None:
        raise RuntimeError(
            f"Playwright's disabledFeatures list is not in {bundle}: update tests/e2e/conftest.py"
        )
    return re.findall(r'^\s*"([A-Za-z0-9]+)"', found.group(1), re.MULTILINE)


CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--disable-features=" + ",".join([*playwright_disabled_features(), *HIDDEN_BROWSER_UI]),
]


class Mailbox:
    """Messages received by the test SMTP server (a real one, on loopback)."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.port = 0

    async def handle_DATA(self, server, session, envelope) -> str:
        """Keep every delivered message."""
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"

    def latest(self, to: str, *, subject_contains: str = "", timeout_s: float = 15) -> EmailMessage:
        """The newest message to ``to`` (waiting for it to arrive)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for message in reversed(self.messages):
                if to in message["To"] and subject_contains in message["Subject"]:
                    return message
            time.sleep(0.2)
        pytest.fail(f"no mail to {to} ({subject_contains!r}); got {[m['Subject'] for m in self.messages]}")

    @staticmethod
    def link(message: EmailMessage) -> str:
        """The first link of the message's text part."""
        text = message.get_body(preferencelist=("plain",)).get_content()
        return re.search(r"https?://\S+", text).group(0)


@pytest.fixture(scope="session")
def mailbox() -> Iterator[Mailbox]:
    """A real SMTP server on 127.0.0.1 that the shop under test sends its mail to."""
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    box.port = controller.port
    yield box
    controller.stop()


@pytest.fixture(scope="session")
def shop_workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the shop under test keeps its database and images."""
    return tmp_path_factory.mktemp("shop")


@pytest.fixture(scope="session")
def shop_database_url(shop_workdir: Path) -> str:
    """The database of the shop under test (tests may add rows the UI cannot create yet)."""
    return f"sqlite:///{shop_workdir / 'shop.db'}"


@pytest.fixture(scope="session")
def shop_url(shop_workdir: Path, shop_database_url: str, mailbox: Mailbox) -> Iterator[str]:
    """Base URL (no trailing slash) of the shop's production build with the demo catalogue."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": shop_database_url,
        "MEDIA_DIR": str(shop_workdir / "media"),
        "SITE_URL": f"http://localhost:{port}",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "MAIL_BACKEND": "smtp",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(mailbox.port),
        "SMTP_STARTTLS": "false",
        "MAIL_FROM": "Cedar & Ember <hello@example.com>",
        "SQUARE_LOCAL_TOKEN": SQUARE_TOKEN,
        # Every browser test signs up from this one address: the per-client limit is for strangers.
        "ACCOUNT_REQUESTS_PER_CLIENT": "10000",
        # A coroutine never awaited is an error here (the log check below also fails a test
        # on any warning printed from the shop's own code).
        "PYTHONWARNINGS": "error::RuntimeWarning",
    }
    env.pop("REFLEX_REDIS_URL", None)  # one worker, on-disk state: the embedded default
    subprocess.run([sys.executable, "-m", "shop_app", "prepare"], cwd=ROOT, env=env, check=True)
    with production_shop(shop_workdir, port, env) as url:
        yield url


SERVER_PROBLEMS = ("Traceback (most recent call last)", "RuntimeWarning", "level=error")
"""Lines of the server log that fail the test during which they appear."""


@pytest.fixture(autouse=True)
def server_log_stays_clean(request: pytest.FixtureRequest, shop_workdir: Path) -> Iterator[None]:
    """Fail a test during which the server logged a traceback, a warning or an error, or the
    shop's own pages sent an event the event guard refused.

    The server runs with ``RuntimeWarning`` (a coroutine never awaited) turned into an error
    (``PYTHONWARNINGS`` in ``shop_url``); a warning printed from the shop's own code fails too.
    A refusal while a browser only clicks through the shop means a handler, its arguments or its
    entry in state/access.py is wrong; tests that send forged events on purpose are marked
    ``forged_events`` (they check the log themselves). A test that makes the shop log an error
    on purpose names it: ``@pytest.mark.server_log_expects(r"regex")`` lets those lines through.
    """
    log_path = shop_workdir / "reflex.log"
    if "shop_url" not in request.fixturenames:
        yield
        return
    start = log_path.stat().st_size if log_path.exists() else 0
    yield
    with log_path.open("rb") as log:
        log.seek(start)
        lines = log.read().decode(errors="replace").splitlines()
    problems = [
        line
        for line in lines
        if any(problem in line for problem in SERVER_PROBLEMS) or ("/shop_app/" in line and "Warning" in line)
    ]
    if request.node.get_closest_marker("broken_table"):
        # The test takes a table away on purpose: the failures it causes are logged as errors
        # (with their traceback), and what the shopper sees is what the test asserts.
        problems = [line for line in problems if "RuntimeWarning" in line]
    for marker in request.node.iter_markers("server_log_expects"):
        expected = re.compile(marker.args[0])
        problems = [line for line in problems if not expected.search(line)]
    if not request.node.get_closest_marker("forged_events"):
        problems += [line for line in lines if "event refused" in line]
    if problems:
        pytest.fail("the server logged problems during this test:\n" + "\n".join(problems[:20]))


@pytest.fixture
def broken_table(
    request: pytest.FixtureRequest, shop_database_url: str
) -> Iterator[Callable[[str], AbstractContextManager[None]]]:
    """``with broken_table("wishlist_items"):`` hides a table of the running shop's database (a
    real failure: every query on it raises, as when a database is restored without it, or a
    migration was not run) and puts it back afterwards. Tests using it are marked
    ``broken_table``: they show the message the shop gives a shopper when its database fails.
    """
    if not request.node.get_closest_marker("broken_table"):
        pytest.fail("a test that breaks a table is marked @pytest.mark.broken_table")
    engine = create_engine(shop_database_url)

    @contextmanager
    def hide(table: str) -> Iterator[None]:
        hidden = f"{table}__hidden_by_test"
        with engine.begin() as connection:
            connection.exec_driver_sql(f'ALTER TABLE "{table}" RENAME TO "{hidden}"')
        try:
            yield
        finally:
            with engine.begin() as connection:
                connection.exec_driver_sql(f'ALTER TABLE "{hidden}" RENAME TO "{table}"')

    try:
        yield hide
    finally:
        engine.dispose()


@pytest.fixture
def sign_in(shop_url: str, shop_database_url: str) -> SignIn:
    """``sign_in(page)`` signs the page's browser in as the demo administrator, ``sign_in(page,
    email)`` as that account, without the dialog (``helpers.sign_in_without_dialog``); the next
    page the test opens is signed in."""

    def signed_in(page: Page, email: str = DEMO_ADMIN_EMAIL) -> None:
        sign_in_without_dialog(page, shop_url, shop_database_url, email)

    return signed_in


@pytest.fixture
def new_customer(shop_database_url: str) -> NewCustomer:
    """``new_customer()`` makes a customer account in the shop's database (``helpers.add_customer``)
    and returns its e-mail; ``sign_in(page, email)`` then signs a browser in to it."""

    def made(*, first: str = "Mia", last: str = "Chen", prefix: str = "shopper") -> str:
        return add_customer(shop_database_url, first=first, last=last, prefix=prefix)

    return made


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Launch Debian's Chromium (Playwright's own browser download is not available)."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}
