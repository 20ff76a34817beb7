"""Security headers: present on every HTTP response of the API app, never on websockets.

``create_api()`` is the Starlette app Reflex mounts its backend and pages inside, so these
headers reach the whole shop (tests/e2e/test_security_headers.py checks the production build).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from starlette.applications import Starlette
from starlette.exceptions import StarletteDeprecationWarning
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from shop_app.api import create_api
from shop_app.api.security import SecurityHeaders, csp_for_path
from shop_app.db import reset_engine
from shop_app.settings import get_settings

with warnings.catch_warnings():
    # Starlette 1.x prefers the httpx2 package for its TestClient; httpx (installed) works alike.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}


def _directives(csp: str) -> dict[str, list[str]]:
    parsed = {}
    for part in csp.split(";"):
        name, *sources = part.split()
        parsed[name] = sources
    return parsed


@pytest.fixture
def configure(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Set settings through the environment; Reflex's CLI variables start unset."""
    monkeypatch.delenv("REFLEX_API_URL", raising=False)
    monkeypatch.delenv("REFLEX_BACKEND_PORT", raising=False)

    def apply(**values: str) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()

    yield apply
    get_settings.cache_clear()


@pytest.fixture
def api(
    engine: Engine, database_url: str, tmp_path: Path, configure: Callable[..., None]
) -> Iterator[Callable[..., TestClient]]:
    """Build the real API app on the test database for a given public origin."""
    media = tmp_path / "media"

    def build(site_url: str) -> TestClient:
        configure(DATABASE_URL=database_url, SITE_URL=site_url, MEDIA_DIR=str(media))
        reset_engine()
        return TestClient(create_api())

    yield build
    reset_engine()


def _assert_security_headers(response, *, site_host: str) -> None:
    for name, value in HEADERS.items():
        assert response.headers.get_list(name) == [value], name
    csp = response.headers["content-security-policy"]
    assert "unsafe-eval" not in csp
    directives = _directives(csp)
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'", "'unsafe-inline'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'none'"]
    assert directives["form-action"] == ["'self'"]
    assert f"wss://{site_host}" in directives["connect-src"]


def test_http_site_gets_every_header_but_hsts(api) -> None:
    client = api("http://localhost:3000")

    response = client.get("/api/health")

    assert response.status_code == 200
    _assert_security_headers(response, site_host="localhost:3000")
    assert _directives(response.headers["content-security-policy"])["connect-src"] == [
        "'self'",
        "ws://localhost:3000",
        "wss://localhost:3000",
    ]
    assert "strict-transport-security" not in response.headers


def test_https_site_adds_hsts_and_only_wss(api) -> None:
    client = api("https://candles.example/")

    response = client.get("/api/health")

    _assert_security_headers(response, site_host="candles.example")
    assert response.headers["strict-transport-security"] == "max-age=31536000; includeSubDomains"
    connect = _directives(response.headers["content-security-policy"])["connect-src"]
    assert connect == ["'self'", "wss://candles.example"]


def test_media_files_and_missing_paths_get_the_headers_once(api, tmp_path: Path) -> None:
    client = api("https://candles.example")
    (tmp_path / "media" / "products").mkdir(parents=True)
    (tmp_path / "media" / "products" / "p.webp").write_bytes(b"RIFF0000WEBPVP8 ")

    image = client.get("/media/products/p.webp")
    missing = client.get("/media/products/none.webp")

    assert image.status_code == 200
    _assert_security_headers(image, site_host="candles.example")  # nosniff not duplicated
    assert image.headers["cache-control"] == "public, max-age=31536000, immutable"  # random names
    assert missing.status_code == 404
    assert "immutable" not in missing.headers.get("cache-control", "")
    _assert_security_headers(missing, site_host="candles.example")


def test_headers_a_response_sets_itself_are_kept_and_websockets_pass_through(configure) -> None:
    configure(SITE_URL="http://localhost:3000")

    async def own(_request) -> PlainTextResponse:
        return PlainTextResponse("x", headers={"Content-Security-Policy": "default-src 'none'"})

    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text(await websocket.receive_text())
        await websocket.close()

    app = Starlette(
        routes=[Route("/own", own), WebSocketRoute("/ws", echo)],
        middleware=[Middleware(SecurityHeaders)],
    )
    with TestClient(app) as client:
        response = client.get("/own")
        with client.websocket_connect("/ws") as websocket:
            websocket.send_text("ping")
            assert websocket.receive_text() == "ping"

    assert response.headers.get_list("content-security-policy") == ["default-src 'none'"]
    assert response.headers["x-frame-options"] == "DENY"


def test_square_origins_only_on_checkout_and_only_with_real_square(configure) -> None:
    configure(SITE_URL="https://candles.example", SQUARE_ENVIRONMENT="local")
    assert csp_for_path("/checkout") == csp_for_path("/")
    assert "squarecdn" not in csp_for_path("/checkout")

    configure(SQUARE_ENVIRONMENT="sandbox")
    checkout = _directives(csp_for_path("/checkout"))
    assert "https://sandbox.web.squarecdn.com" in checkout["script-src"]
    assert "https://sandbox.web.squarecdn.com" in checkout["frame-src"]
    assert "https://pci-connect.squareupsandbox.com" in checkout["connect-src"]
    assert "wss://candles.example" in checkout["connect-src"]
    assert checkout["frame-ancestors"] == ["'none'"]
    assert "unsafe-eval" not in csp_for_path("/checkout")
    assert csp_for_path("/checkout/") == csp_for_path("/checkout/review") == csp_for_path("/checkout")
    for path in ("/", "/shop", "/checkout-help", "/product/3"):
        assert "squarecdn" not in csp_for_path(path), path

    configure(SQUARE_ENVIRONMENT="production")
    production = csp_for_path("/checkout")
    assert "https://web.squarecdn.com" in _directives(production)["script-src"]
    assert "https://pci-connect.squareup.com" in _directives(production)["connect-src"]
    assert "sandbox" not in production


def test_the_middleware_applies_the_checkout_policy_by_path(configure) -> None:
    configure(SITE_URL="https://candles.example", SQUARE_ENVIRONMENT="sandbox")

    async def page(_request) -> PlainTextResponse:
        return PlainTextResponse("<html></html>", media_type="text/html")

    app = Starlette(
        routes=[Route("/checkout", page), Route("/shop", page)], middleware=[Middleware(SecurityHeaders)]
    )
    with TestClient(app) as client:
        assert client.get("/checkout").headers["content-security-policy"] == csp_for_path("/checkout")
        assert "squarecdn" not in client.get("/shop").headers["content-security-policy"]


def test_dev_backend_origin_is_allowed_for_reflex_websocket(configure, monkeypatch) -> None:
    """`reflex run` (dev): pages on :3000, backend and its websocket on :8000."""
    configure(SITE_URL="http://localhost:3000")
    monkeypatch.setenv("REFLEX_BACKEND_PORT", "8000")
    connect = _directives(csp_for_path("/"))["connect-src"]
    assert connect == [
        "'self'",
        "ws://localhost:3000",
        "wss://localhost:3000",
        "http://localhost:8000",
        "ws://localhost:8000",
    ]

    # Single port (production build): the backend is the site itself, nothing extra.
    monkeypatch.setenv("REFLEX_BACKEND_PORT", "3000")
    assert _directives(csp_for_path("/"))["connect-src"] == [
        "'self'",
        "ws://localhost:3000",
        "wss://localhost:3000",
    ]

    # Behind https, Reflex's frontend connects to the page's own origin whatever the local port.
    configure(SITE_URL="https://candles.example")
    assert _directives(csp_for_path("/"))["connect-src"] == ["'self'", "wss://candles.example"]

    # A backend on its own host is allowed as configured.
    monkeypatch.setenv("REFLEX_API_URL", "https://api.candles.example")
    assert _directives(csp_for_path("/"))["connect-src"] == [
        "'self'",
        "wss://candles.example",
        "https://api.candles.example",
        "wss://api.candles.example",
    ]
