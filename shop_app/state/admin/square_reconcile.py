"""/admin/square-reconcile: where the shop and Square disagree, and settling it
(docs/spec/square.md#reconcile).

Every handler is an ``admin_event`` (the role is read again first). The browser sends only a
difference's key, and only keys of the list this tab was shown are acted on, with the values the
tab showed (kept server-side in ``_shown``); the service then reads both sides again and applies
a choice only while both values are still the ones shown (an edit in another tab since is never
undone). Square is read and written in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.admin_messages import ReconcileMessage as M
from shop_app.domain.square_reconcile import FIELD_LABELS, Difference
from shop_app.services.admin import square_reconcile as svc
from shop_app.services.square import outbox
from shop_app.services.square.catalog_sync import CatalogError, SquareCatalog, square_catalog
from shop_app.services.square.client import SquareConfigError
from shop_app.settings import get_settings
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state

log = logging.getLogger(__name__)

KEY_MAX = 120
"""A difference's key is ``p{id}:{field}`` or ``i{Square id}:{field}``: never longer."""


@dataclass
class DifferenceView:
    """A row of the table."""

    key: str = ""
    product: str = ""
    field: str = ""
    shop: str = ""
    square: str = ""
    can_use_squares: bool = True
    waiting: bool = False


def _view(diff: Difference) -> DifferenceView:
    return DifferenceView(
        key=diff.key,
        product=diff.label,
        field=FIELD_LABELS[diff.field],
        shop=diff.shop,
        square=diff.square,
        can_use_squares=diff.can_use_squares,
        waiting=diff.waiting,
    )


def _catalog() -> SquareCatalog:
    try:
        return square_catalog(get_settings())
    except SquareConfigError as exc:  # "Could not read Square: SQUARE_LOCATION_ID is empty"
        raise CatalogError(str(exc)) from exc


def _read() -> tuple[list[Difference], outbox.Waiting]:
    differences = svc.differences(_catalog())
    with session_scope() as session:
        return differences, outbox.waiting(session)


@private_state
class SquareReconcileState(AdminGuardMixin, rx.State):
    """The differences, the outbox's backlog, and the actions that settle them."""

    loaded: bool = False
    rows: list[DifferenceView] = []
    read_error: str = ""
    waiting: int = 0
    waiting_error: str = ""
    _shown: dict[str, tuple[str, str]] = {}
    _for_squares: list[str] = []

    async def _refresh(self) -> None:
        try:
            differences, waiting = await asyncio.to_thread(_read)
        except CatalogError as exc:
            self.rows, self._shown, self._for_squares = [], {}, []
            self.read_error = M.READ_FAILED.format(message=str(exc))
        else:
            self.rows = [_view(diff) for diff in differences]
            self._shown = {diff.key: diff.shown for diff in differences}
            self._for_squares = [diff.key for diff in differences if diff.can_use_squares]
            self.read_error = ""
            self.waiting = waiting.products
            self.waiting_error = (
                M.FAILING.format(message=waiting.last_error) if waiting.failing and waiting.last_error else ""
            )
        self.loaded = True

    @admin_event
    async def load(self):
        """Read both sides (admins only)."""
        await self._refresh()

    @admin_event
    async def check_again(self):
        """Read both sides again."""
        await self._refresh()

    @admin_event
    async def use_shops(self, key: str):
        """Send the shop's value of one listed difference to Square."""
        return await self._settle([key], svc.Choice.SHOPS)

    @admin_event
    async def use_squares(self, key: str):
        """Take Square's value of one listed difference into the shop."""
        return await self._settle([key], svc.Choice.SQUARES)

    @admin_event
    async def use_shops_for_all(self):
        """Send the shop's values of every listed difference to Square."""
        return await self._settle(list(self._shown), svc.Choice.SHOPS)

    @admin_event
    async def use_squares_for_all(self):
        """Take Square's values of every listed difference into the shop."""
        return await self._settle(self._for_squares, svc.Choice.SQUARES)

    @admin_event
    async def send_now(self):
        """Send what waits in the outbox now, whatever its back-off says."""
        try:
            report = await asyncio.to_thread(_send_waiting)
        except CatalogError as exc:
            return notify.error(M.READ_FAILED.format(message=str(exc)))
        await self._refresh()
        if report.failed:
            return notify.error(M.STILL_WAITING.format(n=report.failed, message="; ".join(report.errors)))
        return notify.success(M.SENT.format(n=report.sent))

    async def _settle(self, keys: list[str], choice: svc.Choice):
        chosen = {
            key: self._shown[key]
            for key in keys
            if isinstance(key, str) and len(key) <= KEY_MAX and key in self._shown
        }
        if not chosen:
            await self._refresh()
            return notify.info(M.CHANGED.format(n=len(keys)))
        try:
            done = await asyncio.to_thread(lambda: svc.settle(_catalog(), chosen, choice))
        except CatalogError as exc:
            return notify.error(M.READ_FAILED.format(message=str(exc)))
        await self._refresh()
        if done.failed:
            return notify.error(M.FAILED.format(n=done.failed, message="; ".join(done.errors)))
        if done.changed and not done.settled:
            return notify.info(M.CHANGED.format(n=done.changed))
        return notify.success(M.SETTLED.format(n=done.settled))


def _send_waiting() -> outbox.OutboxReport:
    return outbox.push_waiting_now(_catalog())
