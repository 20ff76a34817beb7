"""``GET /api/site-images/hero``: the home page's hero image at one address that never changes.

The hero is the largest thing on the home page (its Largest Contentful Paint). Written into the
prerendered page as ``/media/<random name>.webp`` from the page's state, it could only start
loading once the scripts had run and the state had arrived over the websocket (Lighthouse,
mobile: 3.2 s of "render delay"). At this fixed address the prerendered page names it, so the
browser fetches it with the HTML; this route sends whichever image is current (the stored hero,
or the default one), ``?w=640`` its rendition at least that wide for the ``srcset``.
Cached for 5 minutes: a new hero saved in the back office shows within that time.
"""

from __future__ import annotations

from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from shop_app.db import session_scope
from shop_app.domain import validation
from shop_app.services.media import IMAGE_WIDTHS
from shop_app.services.site_images import hero_file
from shop_app.settings import PROJECT_ROOT, get_settings

CACHE_CONTROL = "public, max-age=300"
DEFAULT_HERO_FILE = PROJECT_ROOT / "assets" / "hero-default.webp"  # services.site_images.DEFAULT_HERO


def _width(raw: str | None) -> int | None:
    """A rendition width from the query (one of IMAGE_WIDTHS), else None (the full image)."""
    width = validation.parse_whole_number(raw) if raw is not None else None
    return width if width in IMAGE_WIDTHS else None


def _hero_path(width: int | None) -> Path:
    """The file to send (blocking: runs in a worker thread)."""
    with session_scope() as session:
        found = hero_file(session, get_settings().media_dir, width)
    return found if found is not None and found.is_file() else DEFAULT_HERO_FILE


async def hero(request: Request) -> Response:
    """GET: the current hero image (WebP)."""
    path = await run_in_threadpool(_hero_path, _width(request.query_params.get("w")))
    return FileResponse(path, media_type="image/webp", headers={"Cache-Control": CACHE_CONTROL})
