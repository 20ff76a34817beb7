"""Delete Product, then Archive Product instead when orders point at it: written once.

The dashboard's Product Management tab and Manage Products both offer it
(docs/spec/admin-products.md#delete). The product is deleted on Square first, then here
(``services.admin.products.delete_product``); a product that has been ordered is deleted nowhere,
and the admin is asked to archive it instead. A screen mixes :class:`DeleteOrArchiveMixin` into the
state that owns its dialogs and says how to find a product of its list and how to re-read the list
after a change.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.admin_messages import BackendMessage
from shop_app.domain.admin_messages import ProductAdminMessage as M
from shop_app.services.admin.products import ProductNotFoundError, SquareDeletion, set_active
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.admin.product_views import delete_in_thread, deleted_notification

log = logging.getLogger(__name__)

GONE: Final = "this product no longer exists"  # deleted in another tab meanwhile
"""Why a deletion failed when the product was deleted meanwhile (another tab, another admin)."""


class DeleteOrArchiveMixin(AdminGuardMixin, mixin=True):
    """The Delete dialog (``delete_id``: the product asked about, 0: closed) and the
    archive-instead question (``archive_id``: the ordered product, 0: closed)."""

    delete_id: int = 0
    delete_name: str = ""
    archive_id: int = 0
    archive_name: str = ""

    @rx.var
    def archive_question(self) -> str:
        """The seed's archive-instead confirmation for the ordered product."""
        return M.CONFIRM_ARCHIVE_INSTEAD.format(name=self.archive_name)

    async def _product_name(self, product_id: int) -> str | None:
        """The name of a product of the screen's list (None: not on it)."""
        raise NotImplementedError

    async def _after_change(self) -> None:
        """Re-read what the screen shows after a product was deleted or archived."""
        raise NotImplementedError

    @admin_event
    async def ask_delete(self, product_id: int) -> None:
        """Open the Delete dialog for a product of the list."""
        name = await self._product_name(product_id)
        if name is not None:
            self.delete_id, self.delete_name = product_id, name

    @admin_event
    def set_delete_open(self, is_open: bool) -> None:
        """Cancel (or Escape): close the dialog, delete nothing."""
        if not is_open:
            self.delete_id, self.delete_name = 0, ""

    @admin_event
    async def confirm_delete(self):
        """Delete: Square first, then here; an ordered product is offered for archiving instead."""
        product_id, self.delete_id, self.delete_name = self.delete_id, 0, ""
        if not product_id:
            return None
        try:
            # In a worker thread: the Square call may take seconds and must not hold the loop.
            outcome = await asyncio.to_thread(delete_in_thread, product_id)
        except ProductNotFoundError:
            await self._after_change()
            return notify.error(M.DELETE_FAILED.format(message=GONE))
        except Exception as error:
            log.exception("deleting product %s failed", product_id)
            message = str(error) or BackendMessage.UNKNOWN_ERROR.value
            return notify.error(M.DELETE_FAILED.format(message=message))
        if outcome.referenced_by_orders:
            self.archive_id, self.archive_name = product_id, outcome.name
            return None
        await self._after_change()
        in_square = outcome.square == SquareDeletion.DELETED
        return deleted_notification(
            outcome, success=(M.DELETED_EVERYWHERE if in_square else M.DELETED_LOCALLY).value
        )

    @admin_event
    def set_archive_open(self, is_open: bool) -> None:
        """Cancel: keep the ordered product as it is."""
        if not is_open:
            self.archive_id, self.archive_name = 0, ""

    @admin_event
    async def confirm_archive(self):
        """Archive the ordered product instead of deleting it (hidden from the store)."""
        product_id, self.archive_id = self.archive_id, 0
        if not product_id:
            return None
        try:
            with session_scope() as session:
                name = set_active(session, product_id, False)
        except Exception:
            log.exception("archiving product %s failed", product_id)
            return notify.error(M.STATUS_FAILED.value)
        await self._after_change()
        return notify.success(M.ARCHIVED_INSTEAD.format(name=name))
