"""Session cookie routes: the browser trades a sign-in ticket for the HttpOnly session cookie,
signs out (a plain form POST), and follows e-mail verification links.

The cookie is only ever written here, by the server, so page JavaScript can never read it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from shop_app.db import session_scope, write_transaction
from shop_app.services import auth, sessions
from shop_app.settings import get_settings

MAX_TICKET_CHARS = 128
BROWSER_COOKIE = "shop_browser"  # the binding cookie (state.auth.BROWSER_COOKIE; api never imports state)


def _secure() -> bool:
    return get_settings().site_url.startswith("https://")


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else ""


def started_by_the_shop(request: Request) -> bool:
    """Whether the shop's own page made this request (not a link or form on another site).

    ``Sec-Fetch-Site`` decides when the browser sends it (every current browser does); else
    ``Origin``, else ``Referer``, must name the shop's origin (``SITE_URL``). A request with none of
    the three (a very old browser, a privacy tool stripping them) is let through: the ticket is
    bound to the signing-in browser's cookie anyway (``sessions.exchange_ticket``).
    """
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site == "same-origin"
    shop = _origin_of(get_settings().site_url)
    for header in ("origin", "referer"):
        value = request.headers.get(header)
        if value is not None:
            return _origin_of(value) == shop
    return True


async def create_session_cookie(request: Request) -> Response:
    """GET ?ticket=…: set the session cookie for a fresh sign-in (204), or 400/403.

    The page asks for this URL (a fetch by assets/shop.js, once per ticket) right after signing
    in, so the cookie is set by the server, HttpOnly, and the secret never passes through page
    JavaScript. The exchange is refused (403) when another site started the request, and (400)
    unless the request carries the binding cookie of the browser that signed in: another site
    cannot sign a visitor's browser into the attacker's account with the attacker's ticket
    (login CSRF).
    """
    no_store = {"Cache-Control": "no-store"}
    if not started_by_the_shop(request):
        return Response(status_code=403, headers=no_store)
    ticket = request.query_params.get("ticket", "")
    binding = request.cookies.get(BROWSER_COOKIE, "")
    if not ticket or len(ticket) > MAX_TICKET_CHARS or not binding or len(binding) > MAX_TICKET_CHARS:
        return Response(status_code=400, headers=no_store)

    def exchange() -> tuple[str, bool] | None:
        # BEGIN IMMEDIATE on SQLite: a read that turns into a write in a deferred transaction fails
        # at once ("database is locked") when another write came first, whatever the busy timeout.
        with write_transaction() as session:
            result = sessions.exchange_ticket(session, ticket, browser_binding=binding)
            return (result[0], result[1].remember_me) if result else None

    exchanged = await run_in_threadpool(exchange)
    if exchanged is None:
        return Response(status_code=400, headers=no_store)
    secret, remember_me = exchanged
    response = Response(status_code=204, headers=no_store)
    response.set_cookie(
        sessions.COOKIE_NAME,
        secret,
        max_age=sessions.cookie_max_age(remember_me),
        path="/",
        secure=_secure(),
        httponly=True,
        samesite="lax",
    )
    return response


async def sign_out(request: Request) -> Response:
    """POST (the Sign Out form): end the cookie's session and every other session this browser
    opened (its binding cookie: another tab's sign-in), remove the cookie, go home (303)."""
    secret = request.cookies.get(sessions.COOKIE_NAME, "")
    binding = request.cookies.get(BROWSER_COOKIE, "")
    binding = binding if len(binding) <= MAX_TICKET_CHARS else ""

    def end() -> None:
        with session_scope() as session:
            sessions.end_browser(session, secret=secret, browser_binding=binding)

    await run_in_threadpool(end)
    response = RedirectResponse("/", status_code=303, headers={"Cache-Control": "no-store"})
    response.delete_cookie(sessions.COOKIE_NAME, path="/", secure=_secure(), httponly=True, samesite="lax")
    return response


async def verify_email(request: Request) -> Response:
    """GET ?token=…: confirm the address, then show the account page with the outcome."""
    token = request.query_params.get("token", "")

    def verify() -> bool:
        with session_scope() as session:
            return auth.verify_email(session, token=token)

    verified = await run_in_threadpool(verify)
    return RedirectResponse(f"/account?verified={'1' if verified else '0'}", status_code=303)
