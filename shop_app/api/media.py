"""Static serving of product and site images under /media/.

Files there are written only by the shop itself (generated or re-encoded images with
server-chosen names), so they are served as images with long-lived caching and ``nosniff``.
"""

from __future__ import annotations

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

CACHE_CONTROL = "public, max-age=604800"


class MediaFiles(StaticFiles):
    """StaticFiles with caching and content-sniffing protection headers."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        """Serve ``path`` with the shop's media headers."""
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = CACHE_CONTROL
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
