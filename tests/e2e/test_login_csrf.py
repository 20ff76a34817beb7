"""Login CSRF in Chromium: another site cannot sign a visitor's browser into the attacker's account
with the attacker's unspent sign-in ticket (docs/security.md, "Sessions").

The attacker signs in on their own account and keeps the ticket their page would trade for the
cookie; their site (a server of the test on ``127.0.0.1``) makes the victim's browser go to
``/api/auth/session?ticket=…``, by an image and by a link the victim follows. The shop refuses
both and sets no cookie; the ticket is not even spent. The shop's own sign-in setting the
cookie is ``test_accounts.py``'s journey.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import bcrypt
import pytest
from playwright.sync_api import Browser, expect
from sqlmodel import Session, select

from shop_app.db import create_db_engine
from shop_app.models import AuthToken, User
from shop_app.services import sessions
from tests.support.servers import free_port


def _attackers_ticket(database_url: str) -> str:
    """A fresh, unspent sign-in ticket of the attacker's own account, bound to their browser."""
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            cheap = bcrypt.hashpw(b"attacker-password", bcrypt.gensalt(rounds=4)).decode()
            attacker = User(email=f"attacker-{uuid.uuid4().hex[:8]}@example.com", password_hash=cheap)
            session.add(attacker)
            session.flush()
            started = sessions.start(
                session, user=attacker, remember_me=True, browser_binding="attackers-browser"
            )
            session.commit()
            return started.ticket
    finally:
        engine.dispose()


def _spent(database_url: str, ticket: str) -> bool:
    engine = create_db_engine(database_url)
    try:
        with Session(engine) as session:
            token = session.exec(
                select(AuthToken).where(AuthToken.token_hash == sessions.hash_secret(ticket))
            ).one()
            return token.used_at is not None
    finally:
        engine.dispose()


@pytest.fixture
def attacker_site() -> Iterator[tuple[str, dict[str, str]]]:
    """Another site: a real HTTP server on 127.0.0.1 (another host than the shop's ``localhost``,
    so another site for the browser, and on loopback, so Chromium's local-network rules let its
    pages reach the shop) serving the page the test puts in the returned dict."""
    pages = {"body": ""}

    class Attacker(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages["body"].encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Attacker)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", pages
    server.shutdown()
    server.server_close()


def test_another_site_cannot_sign_a_visitor_in_with_an_attackers_ticket(
    shop_url: str, shop_database_url: str, browser: Browser, attacker_site: tuple[str, dict[str, str]]
) -> None:
    site, pages = attacker_site
    ticket = _attackers_ticket(shop_database_url)
    exchange = f"{shop_url}/api/auth/session?ticket={ticket}"
    pages["body"] = f'<img src="{exchange}" alt=""><a href="{exchange}">You won a candle!</a>'
    context = browser.new_context()
    page = context.new_page()

    # The attacker's page loads the exchange as an image, then the visitor follows its link.
    with page.expect_response(lambda response: response.url == exchange) as image:
        page.goto(f"{site}/")
    with page.expect_response(lambda response: response.url == exchange) as navigation:
        page.get_by_role("link", name="You won a candle!").click()

    assert image.value.status == 403 and navigation.value.status == 403
    assert [c for c in context.cookies(shop_url) if c["name"] == sessions.COOKIE_NAME] == []
    assert not _spent(shop_database_url, ticket)

    page.goto(f"{shop_url}/")  # the visitor opens the shop: still signed out
    expect(page.get_by_role("button", name="Account", exact=True)).to_be_visible(timeout=15_000)
    context.close()
