"""Where the browser loads stored images from.

Images are stored with same-origin paths (``/media/...``): in the production build pages and
backend share one origin. In the ``reflex run`` development loop the pages come from the Vite
server and ``/media`` lives on the backend port, so the path is made absolute there.
"""

from __future__ import annotations

import os
from functools import lru_cache

from reflex.config import get_config
from reflex.utils.exec import is_prod_mode

MEDIA_PREFIX = "/media/"


def media_src(path: str) -> str:
    """The ``src`` for a stored image path (other URLs are returned unchanged)."""
    if not path.startswith(MEDIA_PREFIX) or _prod_mode(os.environ.get("REFLEX_ENV_MODE")):
        return path
    return f"{get_config().api_url.rstrip('/')}{path}"


@lru_cache(maxsize=4)
def _prod_mode(_env_mode: str | None) -> bool:
    """Reflex's ``is_prod_mode()``, remembered per value of REFLEX_ENV_MODE (the variable it reads).

    A shop page formats hundreds of image paths per event; in a profile of ``ShopState.load``,
    parsing the variable on every call took a third of the handler's time.
    """
    return is_prod_mode()
