"""Session cookie routes: the browser trades a sign-in ticket for the HttpOnly session cookie,
signs out (a plain form POST), and follows e-mail verification links.

The cookie is only ever written here, by the server, so page JavaScript can never read it.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from shop_app.db import session_scope
from shop_app.services import auth, sessions
from shop_app.settings import get_settings

MAX_TICKET_CHARS = 128


def _secure() -> bool:
    return get_settings().site_url.startswith("https://")


async def create_session_cookie(request: Request) -> Response:
    """GET ?ticket=…: set the session cookie for a fresh sign-in (204), or 400.

    The page asks for this URL (an invisible image) right after signing in, so the cookie is set
    by the server, HttpOnly, and the secret never passes through page JavaScript.
    """
    ticket = request.query_params.get("ticket", "")
    if not ticket or len(ticket) > MAX_TICKET_CHARS:
        return Response(status_code=400, headers={"Cache-Control": "no-store"})

    def exchange() -> tuple[str, bool] | None:
        with session_scope() as session:
            result = sessions.exchange_ticket(session, ticket)
            return (result[0], result[1].remember_me) if result else None

    exchanged = await run_in_threadpool(exchange)
    if exchanged is None:
        return Response(status_code=400, headers={"Cache-Control": "no-store"})
    secret, remember_me = exchanged
    response = Response(status_code=204, headers={"Cache-Control": "no-store"})
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
    """POST (the Sign Out form): end the cookie's session, remove the cookie, go home (303)."""
    secret = request.cookies.get(sessions.COOKIE_NAME, "")

    def end() -> None:
        with session_scope() as session:
            sessions.end_cookie(session, secret)

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
