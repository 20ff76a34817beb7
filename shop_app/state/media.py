"""Where the browser loads stored images from.

Images are stored with same-origin paths (``/media/...``): in the production build pages and
backend share one origin. In the ``reflex run`` development loop the pages come from the Vite
server and ``/media`` lives on the backend port, so the path is made absolute there.
"""

from __future__ import annotations

from reflex.config import get_config
from reflex.utils.exec import is_prod_mode

MEDIA_PREFIX = "/media/"


def media_src(path: str) -> str:
    """The ``src`` for a stored image path (other URLs are returned unchanged)."""
    if not path.startswith(MEDIA_PREFIX) or is_prod_mode():
        return path
    return f"{get_config().api_url.rstrip('/')}{path}"
