"""Security headers on every HTTP response of the shop (pages, static assets, API, media).

``SecurityHeaders`` is a pure ASGI middleware: it wraps ``send`` and adds each header below to an
HTTP response that does not already set it. Websocket and lifespan scopes pass through untouched
(Reflex's event socket must keep working). ``create_api()`` installs it on our Starlette app, the
outer app that Reflex mounts its own backend and, with ``--single-port``, the compiled frontend
under, so it sees every request of the production build.

Headers (ASVS 5.0 V3.4; docs/security.md#http):

- ``Content-Security-Policy`` from ``csp_for_path``. ``script-src`` needs ``'unsafe-inline'``:
  the document shell Reflex builds has ~9 inline ``<script>`` blocks (theme bootstrap, router
  context, module import …) that change with every build; hashing them at build time is the way
  to drop it later. There is never ``'unsafe-eval'``. ``connect-src`` allows the site's origin
  and its ws/wss counterpart (Reflex's event websocket) and, in development, the backend origin.
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: strict-origin-when-cross-origin``,
  ``X-Frame-Options: DENY`` (older browsers; CSP ``frame-ancestors 'none'`` is the real rule),
  ``Permissions-Policy`` (no camera, microphone, geolocation).
- ``Strict-Transport-Security: max-age=31536000; includeSubDomains`` only when ``SITE_URL`` is
  https (a browser ignores it over http, and it must not pin a development host).

Per-path CSP extensions (``path_extensions``): pages under a path prefix may load extra origins.
Square's Web Payments SDK on ``/checkout`` is the one case: its script, iframe and API origins
are added there, and only when ``SQUARE_ENVIRONMENT`` is sandbox or production (the local
simulator's card form is our own code). A CSP belongs to the *document*: Reflex navigates
between pages without reloading it, so the checkout page must be entered with a full page load
(a plain link or an external redirect to ``/checkout``), or the CSP of the page the shopper came
from, without Square, stays in force.

Known limit without ``'unsafe-eval'``: Reflex runs client-side scripts that a *backend* event
handler returns (``rx.call_script``, ``rx.call_function``, ``rx.toast.*``, ``rx.scroll_to``,
``rx.set_clipboard``, ``rx.console_log`` …) through ``eval`` in ``state.js``; the browser refuses
those. Scripts bound directly to a component event (compiled into the bundle) are not affected.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shop_app.settings import Settings, SquareEnvironment, get_settings

HSTS = "max-age=31536000; includeSubDomains"
STATIC_HEADERS: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
    ("X-Frame-Options", "DENY"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
)

# Hostnames that Reflex's frontend replaces with the page's own hostname when it connects to
# the backend (``SAME_DOMAIN_HOSTNAMES`` in .web/utils/state.js).
_REFLEX_SAME_DOMAIN_HOSTS = frozenset({"localhost", "0.0.0.0", "::", "0:0:0:0:0:0:0:0"})


@dataclass(frozen=True)
class CspExtension:
    """Extra sources added to the base policy for the pages under one path prefix."""

    script_src: tuple[str, ...] = ()
    style_src: tuple[str, ...] = ()
    img_src: tuple[str, ...] = ()
    font_src: tuple[str, ...] = ()
    connect_src: tuple[str, ...] = ()
    frame_src: tuple[str, ...] = ()


# Square's Web Payments SDK (developer.squareup.com/docs/web-payments/content-security-policy and
# Square's developer forum threads on it). 3-D Secure may open
# card-issuer frames that no fixed list covers: test with sandbox 3DS cards before going live.
_SQUARE_SENTRY = "https://o160250.ingest.sentry.io"
SQUARE_CHECKOUT_CSP: dict[SquareEnvironment, CspExtension] = {
    SquareEnvironment.SANDBOX: CspExtension(
        script_src=("https://sandbox.web.squarecdn.com", "https://js.squareupsandbox.com"),
        style_src=("https://sandbox.web.squarecdn.com",),
        img_src=("https://sandbox.web.squarecdn.com",),
        font_src=("https://sandbox.web.squarecdn.com",),
        connect_src=(
            "https://sandbox.web.squarecdn.com",
            "https://pci-connect.squareupsandbox.com",
            "https://connect.squareupsandbox.com",
            _SQUARE_SENTRY,
        ),
        frame_src=("https://sandbox.web.squarecdn.com", "https://connect.squareupsandbox.com"),
    ),
    SquareEnvironment.PRODUCTION: CspExtension(
        script_src=("https://web.squarecdn.com", "https://js.squareup.com"),
        style_src=("https://web.squarecdn.com",),
        img_src=("https://web.squarecdn.com",),
        font_src=("https://web.squarecdn.com",),
        connect_src=(
            "https://web.squarecdn.com",
            "https://pci-connect.squareup.com",
            "https://connect.squareup.com",
            _SQUARE_SENTRY,
        ),
        frame_src=("https://web.squarecdn.com", "https://connect.squareup.com"),
    ),
}
CHECKOUT_PATH = "/checkout"


def path_extensions(settings: Settings) -> dict[str, CspExtension]:
    """The per-path CSP extension table: path prefix → extra sources.

    A prefix matches the path itself and everything below it (``/checkout``, ``/checkout/``,
    ``/checkout/3``), never a sibling such as ``/checkout-help``. Add an entry here when a page
    must load something from another origin; every other page keeps the base policy.
    """
    table: dict[str, CspExtension] = {}
    square = SQUARE_CHECKOUT_CSP.get(settings.square_environment)
    if square is not None:
        table[CHECKOUT_PATH] = square
    return table


def csp_for_path(path: str, settings: Settings | None = None) -> str:
    """The Content-Security-Policy for a response to ``path``: the base policy plus any extension."""
    settings = settings or get_settings()
    extension = next(
        (ext for prefix, ext in path_extensions(settings).items() if _under(path, prefix)), CspExtension()
    )
    return _build_csp(settings, extension)


class SecurityHeaders:
    """ASGI middleware adding the shop's security headers to HTTP responses that lack them.

    Usable in Starlette's ``middleware=[Middleware(SecurityHeaders)]`` or as ``SecurityHeaders(app)``.
    Settings are read once, when the middleware is built.
    """

    def __init__(self, app: ASGIApp, settings: Settings | None = None) -> None:
        self.app = app
        settings = settings or get_settings()
        headers = list(STATIC_HEADERS)
        if urlsplit(settings.site_url).scheme == "https":
            headers.append(("Strict-Transport-Security", HSTS))
        self._static = [(name.lower().encode(), value.encode()) for name, value in headers]
        self._base_csp = _build_csp(settings, CspExtension()).encode()
        self._path_csp = [
            (prefix, _build_csp(settings, extension).encode())
            for prefix, extension in path_extensions(settings).items()
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "/")
        csp = next((value for prefix, value in self._path_csp if _under(path, prefix)), self._base_csp)
        extra = [(b"content-security-policy", csp), *self._static]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {bytes(name).lower() for name, _ in headers}
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _build_csp(settings: Settings, extension: CspExtension) -> str:
    connect = ["'self'", *_websocket_sources(settings), *extension.connect_src]
    directives = [
        ("default-src", ["'self'"]),
        ("script-src", ["'self'", "'unsafe-inline'", *extension.script_src]),
        ("style-src", ["'self'", "'unsafe-inline'", *extension.style_src]),
        ("img-src", ["'self'", "data:", "blob:", *extension.img_src]),
        ("font-src", ["'self'", "data:", *extension.font_src]),
        ("connect-src", list(dict.fromkeys(connect))),
    ]
    if extension.frame_src:
        directives.append(("frame-src", ["'self'", *extension.frame_src]))
    directives += [
        ("frame-ancestors", ["'none'"]),
        ("base-uri", ["'none'"]),
        ("object-src", ["'none'"]),
        ("form-action", ["'self'"]),
    ]
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives)


def _websocket_sources(settings: Settings) -> list[str]:
    """connect-src entries for Reflex's event websocket (and the backend in development).

    The site's host over ws:/wss: (only wss: for an https site). When the backend listens on
    another origin (``reflex run`` in development: backend port 8000, frontend 3000), that origin
    too, resolved the way Reflex's frontend resolves it: a localhost backend URL takes the page's
    hostname, and behind https it takes the page's origin.
    """
    site = urlsplit(settings.site_url)
    secure = site.scheme == "https"
    sources = [f"wss://{site.netloc}"] if secure else [f"ws://{site.netloc}", f"wss://{site.netloc}"]
    backend = _backend_url()
    if backend is None:
        return sources
    api = urlsplit(backend)
    if api.hostname in _REFLEX_SAME_DOMAIN_HOSTS:
        if secure:
            return sources  # Reflex drops the port and uses the page's origin
        netloc = f"{site.hostname}:{api.port}" if api.port else site.hostname or ""
        scheme = "http"
    else:
        netloc, scheme = api.netloc, api.scheme
    if netloc and netloc != site.netloc:
        ws = "wss" if scheme == "https" else "ws"
        sources += [f"{scheme}://{netloc}", f"{ws}://{netloc}"]
    return sources


def _backend_url() -> str | None:
    """Reflex's ``api_url`` as the running ``reflex`` command exports it to the backend process.

    ``REFLEX_API_URL`` when set explicitly, else ``http://localhost:<REFLEX_BACKEND_PORT>`` (what
    ``reflex run`` derives from the port it chose). Outside ``reflex run`` (tests): ``None``.
    """
    if explicit := os.environ.get("REFLEX_API_URL", "").strip():
        return explicit
    if port := os.environ.get("REFLEX_BACKEND_PORT", "").strip():
        return f"http://localhost:{port}"
    return None


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix.rstrip("/") + "/")
