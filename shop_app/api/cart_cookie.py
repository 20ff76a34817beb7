"""``CartCookie``: every page goes to a browser without a cart cookie with a new cart token.

Why the token is made with the first page and not at the first "Add to Cart":
``domain.cart_cookie``. An ASGI middleware (``create_api``), so it sees the prerendered pages,
the shop's own product and shop pages and the 404 page alike; only page responses (HTML) get the
cookie, and such a response is marked ``private``: no shared cache may keep one browser's token
for another (a page that must not be stored at all, ``no-store``, stays so: ``private, no-store``,
e.g. an invoice). A ``GET`` that already carries a token passes untouched.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shop_app.domain.cart_cookie import cart_token_from_header, set_cart_cookie
from shop_app.services.cart import new_token

_PRIVATE = b"private, no-cache"
_PRIVATE_NO_STORE = b"private, no-store"


class CartCookie:
    """ASGI middleware: see the module docstring."""

    def __init__(self, app: ASGIApp, *, secure: bool) -> None:
        self.app = app
        self._secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope.get("method") != "GET"
            or cart_token_from_header(Headers(scope=scope).get("cookie"))
        ):
            await self.app(scope, receive, send)
            return

        async def send_with_token(message: Message) -> None:
            if message["type"] == "http.response.start" and _is_page(message):
                cached = Headers(raw=message.get("headers", [])).get("cache-control", "")
                private = _PRIVATE_NO_STORE if "no-store" in cached.lower() else _PRIVATE
                headers = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if bytes(name).lower() != b"cache-control"
                ]
                cookie = set_cart_cookie(new_token(), secure=self._secure).encode("latin-1")
                headers += [(b"set-cookie", cookie), (b"cache-control", private)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_token)


def _is_page(message: Message) -> bool:
    content_type = Headers(raw=message.get("headers", [])).get("content-type", "")
    return content_type.startswith("text/html") and message.get("status", 200) < 500
