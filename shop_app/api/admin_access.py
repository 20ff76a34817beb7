"""Who may call the back office's HTTP routes: signed-in admins, from the shop's own pages.

``admin_refusal(request, write=…)`` answers ``None`` when the call may go on, else the JSON error
to send (``{"success": false, "error": …}``, the seed's backend shape):

- 401 without a valid session cookie (the HttpOnly cookie ``api/auth.py`` sets);
- 403 for a signed-in user who is not an admin (the seed's "Access denied");
- 403 for a write (POST, DELETE …) whose ``Origin`` is not the shop's (``SITE_URL``): the
  session cookie is SameSite=Lax, which already keeps it off cross-site POSTs in current
  browsers; this check also covers older browsers and same-site subdomains. A browser always
  sends ``Origin`` on a non-GET ``fetch``, so a write without it is refused too.

The role is read from the database on every call (sessions.resolve_cookie), never trusted from
the browser (docs/architecture.md#access-control).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from shop_app.db import session_scope
from shop_app.domain.admin_messages import AdminUserMessage
from shop_app.services import sessions
from shop_app.settings import get_settings

SIGN_IN_REQUIRED = "Sign in as an administrator to do this"
CROSS_SITE = "Cross-site request refused"
NO_STORE = {"Cache-Control": "no-store"}


def json_error(error: str, status: int, **extra: object) -> JSONResponse:
    """The seed's failure shape, never cached."""
    return JSONResponse({"success": False, "error": error, **extra}, status_code=status, headers=NO_STORE)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def same_origin(request: Request) -> bool:
    """Whether the request's ``Origin`` header is the shop's own origin."""
    origin = request.headers.get("origin", "")
    return bool(origin) and _origin(origin) == _origin(get_settings().site_url)


async def admin_refusal(request: Request, *, write: bool) -> JSONResponse | None:
    """``None`` for a signed-in admin (and, for a write, a same-origin request), else the error."""
    secret = request.cookies.get(sessions.COOKIE_NAME, "")

    def resolve() -> sessions.SessionUser | None:
        with session_scope() as session:
            return sessions.resolve_cookie(session, secret)

    user = await run_in_threadpool(resolve) if secret else None
    if user is None:
        return json_error(SIGN_IN_REQUIRED, 401)
    if not user.is_admin:
        return json_error(AdminUserMessage.ACCESS_DENIED.value, 403)
    if write and not same_origin(request):
        return json_error(CROSS_SITE, 403)
    return None
