"""View models and worker-thread helpers shared by the product screens (both Manage Products views
and the dashboard's list)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from shop_app.db import session_scope
from shop_app.domain.admin_messages import ProductAdminMessage
from shop_app.domain.money import format_cents
from shop_app.services.admin import products as svc
from shop_app.services.admin.form_values import id_or_none
from shop_app.services.admin.products import AdminProductRow, CategoryChoice, DeleteOutcome, SquareDeletion
from shop_app.services.admin.square_sync import SquareSync, SquareSyncError, sync_from_square
from shop_app.services.square.catalog_sync import SquareCatalog, square_catalog
from shop_app.services.square.client import SquareConfigError
from shop_app.settings import get_settings
from shop_app.state import notify
from shop_app.state.views import image_src, image_srcset

log = logging.getLogger(__name__)

ALL = "all"  # the filters' "every category" (a select item cannot have an empty value)
NONE = "none"  # the edit dialog's "no category"


@dataclass
class ProductRowView:
    """A row of the product table."""

    id: int = 0
    name: str = ""
    image_url: str = ""
    image_srcset: str = ""
    category: str = ""
    subcategory: str = ""
    price: str = ""
    sale_price: str = ""  # shown beside the struck-through price when on sale, else ""
    on_sale: bool = False
    stock: int = 0
    low_stock: bool = False
    is_active: bool = True
    is_featured: bool = False
    is_new: bool = False


@dataclass
class Choice:
    """An item of a select."""

    value: str = ""
    label: str = ""


def row_view(row: AdminProductRow) -> ProductRowView:
    """Format one product for the table."""
    return ProductRowView(
        id=row.id,
        name=row.name,
        image_url=image_src(row.image_url),
        image_srcset=image_srcset(row.image_url, row.image_width),
        category=row.category_name,
        subcategory=row.subcategory_name,
        price=format_cents(row.base_price_cents),
        sale_price=format_cents(row.sale_price_cents or 0) if row.on_sale else "",
        on_sale=row.on_sale,
        stock=row.stock_quantity,
        low_stock=row.low_stock,
        is_active=row.is_active,
        is_featured=row.is_featured,
        is_new=row.is_new_arrival,
    )


def choices(categories: list[CategoryChoice], parent: int | None) -> list[Choice]:
    """The categories under ``parent`` (the main ones for None) as select items."""
    return [Choice(str(c.id), c.name) for c in categories if c.parent_id == parent]


def category_id(value: str) -> int | None:
    """The category id a select's value stands for (None for "all" and "none")."""
    return None if value in (ALL, NONE, "") else id_or_none(value)


def catalog_or_none() -> SquareCatalog | None:
    """The configured Square catalogue, or None when its settings are incomplete."""
    try:
        return square_catalog(get_settings())
    except SquareConfigError:
        log.warning("Square is not configured; catalogue calls are skipped", exc_info=True)
        return None


def delete_in_thread(product_id: int) -> DeleteOutcome:
    """Delete a product (Square, then the database, then files) off the event loop."""
    with session_scope() as session:
        return svc.delete_product(session, product_id, square=catalog_or_none())


def deleted_notification(outcome: DeleteOutcome, *, success: str):
    """The message after a deletion went through: ``success``, or the seed's Square warning."""
    if outcome.square == SquareDeletion.FAILED:
        return notify.warning(ProductAdminMessage.SQUARE_DELETE_FAILED.value)
    return notify.success(success)


def sync_in_thread() -> SquareSync:
    """Pull Square's catalogue into ours; raises ``SquareSyncError`` with the reason."""
    try:
        catalog = square_catalog(get_settings())
    except SquareConfigError as exc:
        raise SquareSyncError(str(exc)) from exc
    with session_scope() as session:
        return sync_from_square(session, catalog)
