"""Static serving of product and site images under /media/.

Files there are written only by the shop itself (generated or re-encoded images with
server-chosen names), so they are served as images with ``nosniff``. A stored file's name is
random and never written again with other content (a replaced image gets a new name), so it is
cached for a year as ``immutable``: a returning shopper downloads no product image twice.
"""

from __future__ import annotations

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

CACHE_CONTROL = "public, max-age=31536000, immutable"


class MediaFiles(StaticFiles):
    """StaticFiles with caching and content-sniffing protection headers."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        """Serve ``path`` with the shop's media headers."""
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = CACHE_CONTROL
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
