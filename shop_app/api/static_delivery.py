"""How the production build's pages and assets travel: no redirect to a page, cached assets.

``StaticDelivery`` is a pure ASGI middleware that ``create_api()`` installs next to the security
headers (it sees every request of the production build, see ``api/security.py``):

- A prerendered page asked for without a trailing slash (``/shop``, the form every link, the
  sitemap and search engines use) is served as ``/shop/`` in place. Reflex's static file server
  answers ``/shop`` with a 307 redirect to ``/shop/``: one more round trip before the page even
  starts (Lighthouse, mobile: 600 ms on /shop and /checkout).
- Built assets under ``/assets/`` carry a content hash in their names, so they are cached for a
  year (``immutable``): a returning shopper downloads none of the ~250 KB of scripts and styles
  again until a new build changes their names.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

ASSETS_PREFIX = "/assets/"
ASSET_CACHE_CONTROL = b"public, max-age=31536000, immutable"


def built_pages_dir() -> Path:
    """Where ``reflex run --env prod`` / ``reflex export`` write the prerendered pages."""
    from reflex.utils.prerequisites import get_web_dir  # noqa: PLC0415 - only when serving
    from reflex_base import constants  # noqa: PLC0415

    return get_web_dir() / constants.Dirs.STATIC


class StaticDelivery:
    """ASGI middleware: see the module docstring."""

    def __init__(self, app: ASGIApp, pages_dir: Path | None = None) -> None:
        self.app = app
        self._pages_dir = pages_dir

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "/")
        if ".." in path.split("/"):  # an encoded "/../" (%2F..%2F): never another page's HTML
            await PlainTextResponse("Not Found", status_code=404)(scope, receive, send)
            return
        if path.startswith(ASSETS_PREFIX):
            await self.app(scope, receive, _with_asset_caching(send))
            return
        if self._is_page_folder(path):
            page = path + "/"
            scope = {**scope, "path": page, "raw_path": page.encode()}
        await self.app(scope, receive, send)

    def _is_page_folder(self, path: str) -> bool:
        if path.endswith("/") or "." in path.rsplit("/", 1)[-1] or ".." in path:
            return False
        pages_dir = self._pages_dir or built_pages_dir()
        return _has_index(str(pages_dir), path.strip("/"))


@lru_cache(maxsize=1024)
def _has_index(pages_dir: str, relative: str) -> bool:
    """Whether the build holds ``<relative>/index.html`` (remembered: a build never changes)."""
    return bool(relative) and (Path(pages_dir) / relative / "index.html").is_file()


def _with_asset_caching(send: Send) -> Send:
    async def send_cached(message: Message) -> None:
        if message["type"] == "http.response.start" and message.get("status") == 200:
            headers = [(n, v) for n, v in message.get("headers", []) if bytes(n).lower() != b"cache-control"]
            message = {**message, "headers": [*headers, (b"cache-control", ASSET_CACHE_CONTROL)]}
        await send(message)

    return send_cached
