"""The production build answers with the security headers, and works in Chromium under its CSP.

Pages (``/``, ``/shop``), the server-rendered product page and compiled static assets all pass
through ``shop_app.api.security.SecurityHeaders``; the policy has no ``'unsafe-eval'``.
"""

from __future__ import annotations

import re
import socket
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from shop_app.demo.demo_catalog import PRODUCTS
from tests.e2e.helpers import demo_id

# Records every CSP violation the document reports, whatever the console says.
COLLECT_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline/eval"}`);
});
"""

EVAL_PROBE = """() => {
  const probe = document.createElement("button");
  probe.id = "eval-probe";
  probe.textContent = "eval probe";
  probe.style.cssText = "position:fixed;top:0;left:0;z-index:2147483647";
  probe.setAttribute(
    "onclick", "try { eval('1'); window.__evalProbe = 'allowed'; } catch (e) { window.__evalProbe = e.name; }"
  );
  document.body.appendChild(probe);
}"""


def _directives(csp: str) -> dict[str, list[str]]:
    parsed = {}
    for part in csp.split(";"):
        name, *sources = part.split()
        parsed[name] = sources
    return parsed


def _asset_paths(shop_url: str) -> list[str]:
    html = httpx.get(f"{shop_url}/", timeout=10).text
    scripts = re.findall(r"/assets/[\w.-]+\.js", html)
    styles = re.findall(r"/assets/[\w.-]+\.css", html)
    assert scripts, f"the home page names no compiled script:\n{html[:2000]}"
    return [scripts[0], *styles[:1], "/shop.js", "/favicon.ico"]


def _in_stock_product() -> int:
    return demo_id(next(p for p in PRODUCTS if p.stock_quantity > 5 and not p.option_scents))


def test_pages_and_assets_carry_the_security_headers(shop_url: str) -> None:
    paths = ["/", "/shop", f"/product/{_in_stock_product()}", *_asset_paths(shop_url), "/api/health"]
    for path in paths:
        response = httpx.get(f"{shop_url}{path}", timeout=10, follow_redirects=True)
        assert response.status_code == 200, path
        for answer in [*response.history, response]:  # e.g. /shop → 307 → /shop/
            _assert_security_headers(answer.headers, f"{path} ({answer.status_code})", shop_url)


def _assert_security_headers(headers: httpx.Headers, where: str, shop_url: str) -> None:
    assert headers.get_list("x-content-type-options") == ["nosniff"], where
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin", where
    assert headers["x-frame-options"] == "DENY", where
    assert headers["permissions-policy"] == "camera=(), microphone=(), geolocation=()", where
    assert "strict-transport-security" not in headers, where  # the e2e site is http
    csp = headers["content-security-policy"]
    assert "unsafe-eval" not in csp, where
    directives = _directives(csp)
    assert directives["frame-ancestors"] == ["'none'"], where
    assert directives["object-src"] == ["'none'"], where
    assert "ws://" + shop_url.removeprefix("http://") in directives["connect-src"], where


def test_the_shop_works_under_its_csp(shop_url: str, page: Page) -> None:
    console: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "unsafe-eval" in message.text:
            console.append(message.text)

    page.on("console", on_console)
    page.add_init_script(COLLECT_VIOLATIONS)

    page.goto(f"{shop_url}/shop")

    # The product count comes from the server over Reflex's websocket: the socket connected.
    expect(page.get_by_text(re.compile(r"^Showing \d+ products$"))).to_be_visible(timeout=20_000)
    page.goto(f"{shop_url}/")
    expect(page.get_by_role("heading", name="Featured Products")).to_be_visible()
    assert page.evaluate("window.__cspViolations") == []
    assert console == []
    # The browser enforces the policy: the page's own code may not eval. Code run by Playwright
    # (evaluate, dispatch_event) is exempt from CSP, so the probe is an inline click handler
    # that a real click makes the page run.
    page.evaluate(EVAL_PROBE)
    page.locator("#eval-probe").click()
    assert page.evaluate("window.__evalProbe") == "EvalError"


def test_a_notification_sent_by_the_server_shows_under_the_csp(shop_url: str, page: Page) -> None:
    """Add to Cart answers with a notification decided by a backend handler.

    Guards the CSP's one real constraint: Reflex runs client scripts *returned by a backend
    handler* (``rx.toast.*``, ``rx.call_script`` …) through ``eval``, which the policy refuses;
    the shop's notifications must stay state-driven (``shop_app.state.notify``).
    """
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(COLLECT_VIOLATIONS)
    product = next(p for p in PRODUCTS if demo_id(p) == _in_stock_product())

    page.goto(f"{shop_url}/product/{demo_id(product)}")
    expect(page.get_by_role("heading", level=1, name=product.name)).to_be_visible(timeout=20_000)
    page.get_by_role("button", name="Add to Cart").click()

    expect(page.get_by_role("button", name="Cart, 1 item")).to_be_visible()
    try:
        expect(page.get_by_text(f"Added 1 {product.name} to your cart")).to_be_visible()
    except AssertionError:
        found = page.evaluate("window.__cspViolations")
        pytest.fail(f"the notification did not show; CSP violations: {found or violations}")
    assert page.evaluate("window.__cspViolations") == []


def _websocket_handshake_status(shop_url: str, origin: str) -> int:
    """Status of a websocket upgrade to Reflex's event endpoint sent with this Origin header."""
    parts = urlsplit(shop_url)
    request = (
        "GET /_event/?EIO=4&transport=websocket HTTP/1.1\r\n"
        f"Host: {parts.netloc}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {origin}\r\n\r\n"
    )
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as connection:
        connection.sendall(request.encode())
        status_line = connection.recv(4096).split(b"\r\n", 1)[0].decode()
    return int(status_line.split()[1])


def test_the_event_websocket_refuses_other_origins(shop_url: str) -> None:
    """rxconfig's cors_allowed_origins: only the shop's own pages may drive a session."""
    assert _websocket_handshake_status(shop_url, shop_url) == 101
    assert _websocket_handshake_status(shop_url, "http://evil.example") != 101
    assert _websocket_handshake_status(shop_url, shop_url.replace("localhost", "127.0.0.1")) != 101
