"""The gate in front of Reflex's upload endpoint (``/_upload``): only administrators upload, and
never more than :data:`MAX_UPLOAD_BYTES` per request.

Reflex's endpoint parses the whole multipart body (to temporary files) before any handler can look
at who sent it, so a signed-out visitor could make the server read and store any amount of data.
This pure ASGI middleware answers first, before a byte of the body is read:

- ``403`` unless the request carries the session cookie of an active administrator (every upload
  handler of the shop is a back-office one: product and site images, the catalogue CSV;
  ``tests/unit/state/test_event_access.py`` keeps it so);
- ``411`` without a ``Content-Length`` (browsers send one with every upload);
- ``413`` when ``Content-Length`` is above the limit; and if a body turns out longer than it
  said, the rest is not passed on (the handler sees a cut-off upload, which it refuses).

The reverse proxy limits the size again in production (docs/deploy.md).
"""

from __future__ import annotations

import json
from http.cookies import CookieError, SimpleCookie

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shop_app.db import session_scope
from shop_app.services import sessions

UPLOAD_PATH = "/_upload"  # Reflex's upload endpoint (reflex_base.constants.Endpoint.UPLOAD)
MAX_UPLOAD_BYTES = 64 * 1024 * 1024
"""A product's 12 images of at most 5 MB each, with the form's own bytes (docs/deploy.md)."""
FORBIDDEN = "Only administrators can upload files. Please sign in as an administrator."
LENGTH_REQUIRED = "An upload must say how long it is (Content-Length)."
TOO_LARGE = f"This upload is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB."


class UploadGate:
    """Refuses uploads from non-administrators and oversized ones before reading their body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass everything through but uploads that must be refused (see the module docstring)."""
        if scope["type"] != "http" or not _is_upload(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        if scope.get("method") == "POST":
            length = headers.get("content-length", "")
            if not (length.isascii() and length.isdigit()):
                await _refuse(send, 411, LENGTH_REQUIRED)
                return
            if int(length) > MAX_UPLOAD_BYTES:
                await _refuse(send, 413, TOO_LARGE)
                return
        if not await run_in_threadpool(_is_admin, headers.get("cookie", "")):
            await _refuse(send, 403, FORBIDDEN)
            return
        await self.app(scope, _bounded(receive, int(headers.get("content-length") or 0)), send)


def _is_upload(path: str) -> bool:
    return path == UPLOAD_PATH or path.startswith(UPLOAD_PATH + "/")


def _is_admin(cookie_header: str) -> bool:
    try:
        morsel = SimpleCookie(cookie_header).get(sessions.COOKIE_NAME)
    except CookieError:
        return False
    if morsel is None or not morsel.value:
        return False
    with session_scope() as session:
        current = sessions.resolve_cookie(session, morsel.value)
        return bool(current and current.is_admin)


def _bounded(receive: Receive, declared: int) -> Receive:
    """Pass on at most ``declared`` bytes of body; a longer body ends as a disconnect."""
    seen = 0

    async def bounded() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > declared:
                return {"type": "http.disconnect"}
        return message

    return bounded


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
