"""The shop's lifespan task that keeps Square in step with the shop (docs/architecture.md#square-outbox).

``keep_square_in_step`` runs for the life of each worker:

1. local mode only: fill the fresh simulator with the catalogue (``catalog_push.push_at_start``);
   every change recorded before that push began is then already in Square, and is marked sent;
2. then, forever: wait until a commit recorded changes (``models.square_outbox`` wakes it, and
   ``SETTLE_S`` later it goes) or ``POLL_S`` passes (retries that come due, changes another
   worker recorded), and send what is due (``outbox.push_pending``) in a worker thread, so the
   event loop never waits on Square.

A failure is logged and the loop goes on; the changes wait in the outbox. Without Square
credentials (sandbox or production not configured) nothing is sent and the changes wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import sqlalchemy as sa

from shop_app.models.base import utcnow
from shop_app.models.square_outbox import on_commit_of_changes
from shop_app.services.square.catalog_push import push_at_start
from shop_app.services.square.catalog_sync import SquareCatalog, square_catalog
from shop_app.services.square.client import SquareConfigError
from shop_app.services.square.outbox import PRODUCTS_PER_ROUND, has_due, mark_sent_before, push_pending
from shop_app.settings import SquareEnvironment, get_settings

logger = logging.getLogger(__name__)

POLL_S = 5.0
SETTLE_S = 1.0
"""After a commit wakes the pusher it waits this long: the rest of the same action (the next rows
of an import, the order's other writes) commits first and goes in the same round, and the
pusher's own writes do not land in the middle of the transactions that follow a click."""


async def keep_square_in_step() -> None:
    """Lifespan task (see the module docstring); cancelled when the server stops."""
    settings = get_settings()
    try:
        catalog = square_catalog(settings)
    except SquareConfigError as exc:
        logger.warning("Square is not configured (%s): product changes wait in the outbox", exc)
        return
    wake = asyncio.Event()
    loop = asyncio.get_running_loop()

    def wake_up() -> None:  # called from whichever thread committed
        loop.call_soon_threadsafe(wake.set)

    stop_waking = on_commit_of_changes(wake_up)
    try:
        if settings.square_environment == SquareEnvironment.LOCAL:
            started = utcnow()
            report = await asyncio.to_thread(push_at_start, settings, catalog=catalog)
            if report is not None and report.complete:
                await asyncio.to_thread(mark_sent_before, started)
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), POLL_S)
                await asyncio.sleep(SETTLE_S)  # let the burst that woke us finish (one round for it)
            wake.clear()
            await _push_due(catalog)
    finally:
        stop_waking()


async def _push_due(catalog: SquareCatalog) -> None:
    """Send what is due; a full round (a CSV import's thousands of changes) goes on at once."""
    try:
        while await asyncio.to_thread(has_due):
            report = await asyncio.to_thread(lambda: push_pending(catalog, background=True))
            if report.sent + report.failed < PRODUCTS_PER_ROUND:
                return
    except sa.exc.DBAPIError as exc:  # the database is busy or broken: the changes are safe
        logger.warning(
            "The Square outbox could not be read (%s); the next look is in %s s", exc.orig or exc, POLL_S
        )
    except Exception:
        logger.exception("Sending product changes to Square failed; they wait in the outbox")
