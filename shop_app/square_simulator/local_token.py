"""The secret the shop and its local Square simulator share (``SQUARE_ENVIRONMENT=local``).

The simulator mounted at ``/_square`` on the shop's origin lists every payment, with the buyer's
e-mail and order number, and takes refunds: it answers only to this token. It comes from
``SQUARE_LOCAL_TOKEN``, else one is made when first needed and put there, so the workers and the
simulator process that ``serve`` starts afterwards inherit it (a tool that talks to the
simulator from outside sets the variable itself).
"""

from __future__ import annotations

import os
import secrets
from typing import Final

LOCAL_TOKEN_ENV: Final = "SQUARE_LOCAL_TOKEN"


def local_token() -> str:
    """The local simulator's access token (see the module docstring)."""
    token = os.environ.get(LOCAL_TOKEN_ENV, "").strip()
    if not token:
        token = secrets.token_urlsafe(32)
        os.environ[LOCAL_TOKEN_ENV] = token
    return token
