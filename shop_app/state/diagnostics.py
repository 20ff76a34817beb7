"""What the shop does when an event fails or a tab's page state was lost, and the event trace.

``on_backend_error`` replaces Reflex's default handler, whose toast runs through ``eval`` (blocked
by the shop's Content-Security-Policy, so the shopper would see nothing) and whose log line is
plain text: here the exception is logged by the shop's logger (JSON with ``LOG_FORMAT=json``) and
the shopper gets a notification. Writes are single transactions, so a failed event (the database
or Redis restarting, a bug) has written nothing half-way; trying again is safe.

``ShopMiddleware`` sees every event before its handler:

- The event guard (``state/event_guard.py``) screens it first: a handler not on the reviewed list
  (``state/access.py``), arguments that do not fit the handler, or a caller without the access
  the list names, and the handler does not run (a warning in the log, a notification for the tab
  unless it was one of the page's own loads).
- At DEBUG (``LOG_LEVEL=DEBUG``) it logs the handler, a short hash of the tab's state token (never
  the token, which would let a log reader drive that tab's state) and, like every record, the
  process id of the worker that handled it.
- It notices an event arriving for a tab whose page state is gone (Redis restarted without
  persistence, or the state expired after an hour idle) while the page stays open. Reflex would
  run the event on a blank state and re-run the page loads without the browser's cookies: the
  cart cookie's token would be missing, and adding to the cart would start a new cart and
  overwrite the cookie. Instead the event is set aside and the browser is asked to hydrate again,
  which sends its cookies and stored values (Reflex's frontend does so after removing a
  localStorage key); the shopper is told to try again.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

import redis
import reflex as rx
from reflex.middleware import Middleware
from reflex.state import StateUpdate
from reflex_base.event import Event, EventHandler, EventSpec
from reflex_base.utils.exceptions import LockExpiredError
from reflex_base.utils.format import format_event_handler

from shop_app.domain.messages import ServiceMessage
from shop_app.state import event_guard, notify
from shop_app.state.notify import NotificationState

log = logging.getLogger(__name__)

CLIENT_HASH_CHARS = 12
HYDRATE_EVENT = f"{rx.State.get_full_name()}.hydrate_and_load"  # sent by the browser on (re)connect
RESEND_KEY = "shop-resend-storage"  # a localStorage key never written: removing it is harmless
STATE_STORE_ERRORS = (redis.RedisError, LockExpiredError, OSError)


def client_hash(token: str) -> str:
    """The short, one-way name of a tab's state token used in the logs."""
    return hashlib.sha256(token.encode()).hexdigest()[:CLIENT_HASH_CHARS]


class UnknownEventFilter(logging.Filter):
    """Turns Reflex's report of an event name it has no handler for into one warning line.

    Reflex logs such an event (only a hand-made websocket frame sends one) with two tracebacks and
    the whole event, handshake headers included; a visitor could fill the log with them. The
    event is dropped either way; this keeps the log to ``event refused: no such handler``.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """False (drop the record) for an unknown event, after logging the short line."""
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, KeyError) or UNKNOWN_HANDLER not in str(error):
            return True
        name = str(error).split(UNKNOWN_HANDLER, 1)[1].strip(" :'\"")[:MAX_LOGGED_NAME_CHARS]
        log.warning("event refused: no such handler", extra={"event": name})
        return False


UNKNOWN_HANDLER = "No registered handler found for event"
MAX_LOGGED_NAME_CHARS = 200
EVENT_PROCESSOR_LOGGER = "reflex_base.event.processor.event_processor"


def install_log_filters() -> None:
    """Attach :class:`UnknownEventFilter` to Reflex's event processor logger (idempotent)."""
    logger = logging.getLogger(EVENT_PROCESSOR_LOGGER)
    if not any(isinstance(existing, UnknownEventFilter) for existing in logger.filters):
        logger.addFilter(UnknownEventFilter())


MAX_FRONTEND_REPORT_CHARS = 2000


def on_frontend_error(exception: Exception) -> None:
    """A page reported an error in the browser: one warning line, its text capped and escaped.

    Anyone may send such a report (it is an event); Reflex's default prints it verbatim at error
    level, so a visitor could write lines that look like the shop's own into the log.
    """
    log.warning(
        "page error reported by a browser", extra={"report": str(exception)[:MAX_FRONTEND_REPORT_CHARS]}
    )


def on_backend_error(exception: Exception) -> EventSpec | None:
    """Log the failed event with its traceback; tell the shopper to try again.

    Not when the page state itself cannot be read or written (Redis down): the notification is
    an event on that state and would fail the same way, again and again.
    """
    log.error("event handler failed: %s", exception.__class__.__name__, exc_info=exception)
    if isinstance(exception, STATE_STORE_ERRORS):
        return None
    return notify.error(ServiceMessage.TRY_AGAIN.value)


def _page_loads(app: Any, state: Any) -> set[str]:
    """The event names of the current page's own loads (``on_load``)."""
    path = getattr(getattr(getattr(state, "router", None), "url", None), "path", "") or "/"
    handlers = (getattr(load, "handler", load) for load in app.get_load_events(path))
    return {format_event_handler(handler) for handler in handlers if isinstance(handler, EventHandler)}


class BrowserLink(rx.State):
    """Whether this state has been hydrated by its browser (a new, blank state has not)."""

    _hydrated: bool = False


class ShopMiddleware(Middleware):
    """The event trace and the recovery of lost page state (see the module docstring)."""

    async def preprocess(self, app, state, event) -> StateUpdate | None:  # Reflex's signature
        """Log the event; set it aside (None lets it run) when the tab's state was lost."""
        token = str(getattr(getattr(getattr(state, "router", None), "session", None), "client_token", ""))
        if log.isEnabledFor(logging.DEBUG):
            log.debug("event", extra={"event": event.name, "client": client_hash(token)})
        page_load = event.name in _page_loads(app, state)
        refusal = await event_guard.screen(state, event.name, event.payload, page_load=page_load)
        if refusal is not None:
            # A page's own load refused is routine (a customer opening an admin page: its guard
            # sends them home); anything else is a forged event or a bug in a page.
            log.log(
                logging.INFO if page_load else logging.WARNING,
                "%s refused: %s",
                "page load" if page_load else "event",
                refusal.reason,
                extra={"event": event.name, "client": client_hash(token)},
            )
            if not refusal.message:
                return StateUpdate()
            return StateUpdate(events=Event.from_event_type(notify.error(refusal.message)))
        link = await state.get_state(BrowserLink)
        if event.name == HYDRATE_EVENT:
            link._hydrated = True
            return None
        if link._hydrated:
            return None
        log.warning("page state lost; the browser hydrates again", extra={"client": client_hash(token)})
        (await state.get_state(NotificationState))._put(ServiceMessage.RECONNECTED.value, "info")
        return StateUpdate(events=Event.from_event_type(rx.remove_local_storage(RESEND_KEY)))
