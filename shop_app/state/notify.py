"""Notifications (docs/spec/layout.md#notifications): one at a time, a new one replaces the current one,
bottom centre, a countdown bar, gone after 4 s or when closed. Kinds: success, error, warning, info.

Handlers return ``notify.success("…")`` (an event for :class:`NotificationState`) instead of
``rx.toast``: Reflex runs toasts sent from the server through ``eval``, which the shop's
Content-Security-Policy forbids; a state change needs no script at all.
"""

from __future__ import annotations

import time

import reflex as rx

DURATION_MS = 4000
KINDS = ("success", "error", "warning", "info")


class NotificationState(rx.State):
    """The notification on show (empty message: none)."""

    message: str = ""
    kind: str = "info"
    seq: int = 0  # changes with every notification, so the countdown starts again
    _shown_at: float = 0.0

    @rx.event
    def show(self, message: str, kind: str = "info") -> None:
        """Show ``message``, replacing whatever was shown."""
        self._put(message, kind)

    def _put(self, message: str, kind: str = "info") -> None:
        """Show ``message`` from server code that holds this state (not an event)."""
        self.message = str(message)
        self.kind = kind if kind in KINDS else "info"
        self.seq += 1
        self._shown_at = time.monotonic()

    @rx.event
    def expire(self) -> None:
        """On a page load: forget a notification whose time is up (a reload must not replay it)."""
        if self.message and time.monotonic() - self._shown_at > DURATION_MS / 1000:
            self.message = ""

    @rx.event
    def dismiss(self) -> None:
        """Close it."""
        self.message = ""


def success(message: str):
    """A success notification."""
    return NotificationState.show(str(message), "success")


def error(message: str):
    """An error notification."""
    return NotificationState.show(str(message), "error")


def warning(message: str):
    """A warning notification."""
    return NotificationState.show(str(message), "warning")


def info(message: str):
    """An information notification."""
    return NotificationState.show(str(message), "info")
