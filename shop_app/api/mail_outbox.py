"""The shop's lifespan task that delivers the mail outbox (docs/architecture.md#mail).

``deliver_mail`` runs for the life of each worker when ``MAIL_BACKEND=smtp``: it sends what is
due at once (mail queued while the shop was down), then, forever, waits until a commit queued
mail (``services.mail.on_commit_of_mail`` wakes it) or ``POLL_S`` passes (retries that came due,
mail another worker or a command queued), and sends what is due (``mail.deliver_pending``) in a
worker thread: the event loop never waits on SMTP. Several workers, and ``python -m shop_app
deliver-mail`` from cron, may run at once: each message is claimed before it is sent.

A failure is logged and the loop goes on; the mail waits in the outbox. With the ``outbox``
backend (development) there is nothing to deliver and the task ends at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from shop_app.services import mail
from shop_app.settings import MailBackend, get_settings

logger = logging.getLogger(__name__)

POLL_S = 5.0


async def deliver_mail() -> None:
    """Lifespan task (see the module docstring); cancelled when the server stops."""
    if get_settings().mail_backend != MailBackend.SMTP:
        return
    wake = asyncio.Event()
    loop = asyncio.get_running_loop()

    def wake_up() -> None:  # called from whichever thread committed
        loop.call_soon_threadsafe(wake.set)

    stop_waking = mail.on_commit_of_mail(wake_up)
    try:
        while True:
            wake.clear()  # a commit while this round sends wakes the next round
            await _deliver_due()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), POLL_S)
    finally:
        stop_waking()


async def _deliver_due() -> None:
    try:
        while await asyncio.to_thread(mail.has_due):
            report = await asyncio.to_thread(mail.deliver_pending)
            if report.tried < mail.BATCH:
                return  # the rest is claimed by another worker, or not due yet
    except Exception:
        logger.exception("Delivering mail failed; it waits in the outbox")
