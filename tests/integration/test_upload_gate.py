"""/_upload: only administrators upload, within the size limit, and a refused upload is answered
before a byte of its body is read (docs/security.md, "Input")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import Session

from shop_app.api.uploads import MAX_UPLOAD_BYTES, UploadGate
from shop_app.models import AdminRole, User
from shop_app.services import sessions

BROWSER = "b"


class Inner:
    """The app behind the gate (Reflex's upload endpoint): records whether it ran and read."""

    def __init__(self) -> None:
        self.called = False
        self.body = b""
        self.disconnected = False

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        self.called = True
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected = True
                break
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def _post(
    *, cookie: str = "", length: int | None, chunks: list[bytes], path: str = "/_upload"
) -> tuple[int, Inner, int]:
    """Send one request through the gate; the status, the inner app, and the body chunks read."""
    inner = Inner()
    headers = [(b"reflex-event-handler", b"x.upload")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    scope = {"type": "http", "method": "POST", "path": path, "headers": headers}
    pending = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)
    ]
    read = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict:
        nonlocal read
        read += 1
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    await UploadGate(inner)(scope, receive, send)
    return sent[0]["status"], inner, read


def _cookie(session: Session, *, admin: bool) -> str:
    user = User(
        email=f"{'admin' if admin else 'fan'}@example.com", password_hash="x", first_name="A", last_name="B"
    )
    session.add(user)
    session.flush()
    if admin:
        session.add(AdminRole(user_id=user.id))
    ticket = sessions.start(session, user=user, remember_me=False, browser_binding=BROWSER).ticket
    secret, _ = sessions.exchange_ticket(session, ticket, browser_binding=BROWSER)
    session.commit()
    return f"{sessions.COOKIE_NAME}={secret}"


@pytest.fixture
def cookies(app_env: Callable[..., None], session: Session) -> dict[str, str]:
    return {"visitor": "", "customer": _cookie(session, admin=False), "admin": _cookie(session, admin=True)}


@pytest.mark.parametrize("who", ["visitor", "customer"])
async def test_only_administrators_upload_and_nothing_is_read_before_refusing(
    cookies: dict[str, str], who: str
) -> None:
    status, inner, read = await _post(cookie=cookies[who], length=11, chunks=[b"hello world"])

    assert status == 403
    assert not inner.called and read == 0


async def test_a_forty_megabyte_upload_from_a_visitor_is_refused_unread(cookies: dict[str, str]) -> None:
    status, inner, read = await _post(length=40 * 1024 * 1024, chunks=[b"x" * 1024])

    assert status == 403 and not inner.called and read == 0


async def test_an_administrators_upload_goes_through(cookies: dict[str, str]) -> None:
    status, inner, _ = await _post(cookie=cookies["admin"], length=11, chunks=[b"hello ", b"world"])

    assert status == 200 and inner.body == b"hello world" and not inner.disconnected


async def test_an_upload_over_the_limit_is_refused_unread_even_from_an_administrator(
    cookies: dict[str, str],
) -> None:
    status, inner, read = await _post(cookie=cookies["admin"], length=MAX_UPLOAD_BYTES + 1, chunks=[b"x"])

    assert status == 413 and not inner.called and read == 0


async def test_an_upload_without_a_length_is_refused(cookies: dict[str, str]) -> None:
    status, inner, read = await _post(cookie=cookies["admin"], length=None, chunks=[b"x" * 10])

    assert status == 411 and not inner.called and read == 0


async def test_a_body_longer_than_it_said_is_cut_off(cookies: dict[str, str]) -> None:
    status, inner, _ = await _post(cookie=cookies["admin"], length=4, chunks=[b"1234", b"56789"])

    assert status == 200 and inner.body == b"1234" and inner.disconnected


async def test_other_paths_pass_untouched(cookies: dict[str, str]) -> None:
    status, inner, _ = await _post(length=5, chunks=[b"hello"], path="/api/health")

    assert status == 200 and inner.called
