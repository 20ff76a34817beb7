"""The local Square simulator on the shop's own origin, at ``/_square`` (local mode only).

With ``SQUARE_ENVIRONMENT=local`` (the default) ``Square(token=…, base_url=f"{SITE_URL}/_square")``
reaches the simulator over HTTP; in ``sandbox`` and ``production`` nothing is mounted and
``/_square`` is an ordinary 404. The mounted app is ``shared_simulator()``, the same instance
(and ledger) the local payment gateway calls in-process.
"""

from __future__ import annotations

from starlette.routing import BaseRoute, Mount

from shop_app.services.square.simulator import shared_simulator
from shop_app.settings import Settings, SquareEnvironment

SIMULATOR_PATH = "/_square"


def square_simulator_routes(settings: Settings) -> list[BaseRoute]:
    """The simulator's mount in local mode, nothing otherwise."""
    if settings.square_environment != SquareEnvironment.LOCAL:
        return []
    return [Mount(SIMULATOR_PATH, app=shared_simulator(), name="square-simulator")]
