"""Export the catalogue as CSV, and import products from CSV all-or-nothing.

The format and the checks of a row on its own are in ``domain.catalog_csv``. Here: the checks that
need the database and the writing.

Import rules:

- every row is checked before anything is written, and every problem is reported (line, column,
  message); one bad row means **nothing** is written;
- a row with an ``id`` updates that product (the id must exist); a row without one updates the
  product with its SKU if there is one, else creates a product;
- a column missing from the file leaves that field of an updated product as it is (a new
  product takes the model's default); an empty cell clears the field;
- ``category`` is a main category's slug and ``subcategory`` the slug of one of its subcategories;
- a SKU may appear once in the file and must not belong to another product;
- ``image_urls`` replaces the product's images (the first is the main one; an image kept from
  before keeps its stored size);
- a row with a ``version`` (every exported row has one) updates its product only if the product
  is still as it was exported (``domain.catalog_csv.version_of``): otherwise an import of an old
  file would bring back stock sold since, or undo an edit made since;
- the whole import is one write transaction (``db.write_transaction``), so concurrent writers
  cannot slip in between the checks and the writes on SQLite, and a conflict that still happens
  (a SKU taken meanwhile on PostgreSQL) rolls everything back and is reported.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.db import write_transaction
from shop_app.domain.catalog_csv import (
    CsvFileError,
    CsvIssue,
    CsvMessage,
    parse_row,
    read_csv,
    version_of,
    write_csv,
)
from shop_app.domain.grouping import group_key
from shop_app.models.base import utcnow
from shop_app.models.catalog import Category, Product, ProductImage
from shop_app.services.catalog.search import refresh_vocabulary_on_commit

logger = logging.getLogger(__name__)

IMPORT_FAILED = "The import could not be saved ({detail}); nothing was imported."
_MONEY = {
    "base_price": "base_price_cents",
    "sale_price": "sale_price_cents",
    "cost_price": "cost_price_cents",
}
_PLAIN = (
    "name",
    "description",
    "sku",
    "product_type",
    "stock_quantity",
    "is_active",
    "is_featured",
    "is_new_arrival",
    "weight_oz",
    "dimensions",
    "care_instructions",
    "ingredients",
    "tags",
)


@dataclass(frozen=True)
class ImportReport:
    """What an import did: nothing and the problems, or how many products it created and updated."""

    issues: list[CsvIssue] = field(default_factory=list)
    created: int = 0
    updated: int = 0

    @property
    def ok(self) -> bool:
        """Whether the file was imported."""
        return not self.issues

    @property
    def imported(self) -> int:
        """Products written."""
        return self.created + self.updated


def export_filename(today: date) -> str:
    """The download's name, dated so successive exports do not overwrite each other."""
    return f"products-{today.isoformat()}.csv"


def export_catalog_csv(session: Session) -> str:
    """Every product (active or not), by id, as the CSV file's text."""
    return write_csv(_records(session))


def _records(session: Session, product_ids: set[int] | None = None) -> list[dict[str, Any]]:
    """Products (all, or those of ``product_ids``) by id, as the export's records."""
    products = select(Product).order_by(col(Product.id))
    images_query = select(ProductImage).order_by(col(ProductImage.display_order), col(ProductImage.id))
    if product_ids is not None:
        products = products.where(col(Product.id).in_(product_ids))
        images_query = images_query.where(col(ProductImage.product_id).in_(product_ids))
    slugs = {c.id: c.slug for c in session.exec(select(Category))}
    images: dict[int, list[str]] = defaultdict(list)
    for image in session.exec(images_query):
        images[image.product_id].append(image.image_url)
    return [
        {
            "id": p.id,
            "name": p.name,
            "description": p.description,
            "sku": p.sku,
            "category": slugs.get(p.category_id) if p.category_id else None,
            "subcategory": slugs.get(p.subcategory_id) if p.subcategory_id else None,
            "product_type": p.product_type,
            "base_price": p.base_price_cents,
            "sale_price": p.sale_price_cents,
            "cost_price": p.cost_price_cents,
            "stock_quantity": p.stock_quantity,
            "is_active": p.is_active,
            "is_featured": p.is_featured,
            "is_new_arrival": p.is_new_arrival,
            "weight_oz": p.weight_oz,
            "dimensions": p.dimensions,
            "care_instructions": p.care_instructions,
            "ingredients": p.ingredients or None,
            "tags": p.tags or None,
            "image_urls": images.get(p.id or 0, []),
        }
        for p in session.exec(products)
    ]


@dataclass
class _Plan:
    """One checked row: its values, the product it updates (None: a new one), its categories."""

    line: int
    values: dict[str, Any]
    target: int | None = None
    categories: dict[str, int | None] = field(default_factory=dict)


class _Rollback(Exception):
    """Raised inside the transaction to undo it, carrying the reason."""


def import_catalog_csv(data: bytes, *, engine: Engine | None = None) -> ImportReport:
    """Check the whole file, then write every row or none (see the module docstring)."""
    try:
        rows = read_csv(data)
    except CsvFileError as exc:
        return ImportReport(issues=exc.issues)
    try:
        with write_transaction(engine) as session:
            plans, issues = _check(session, rows)
            if issues:
                return ImportReport(issues=sorted(issues, key=lambda i: i.row))
            try:
                created, updated = _write(session, plans)
                refresh_vocabulary_on_commit(session)
            except sa.exc.IntegrityError as exc:
                raise _Rollback(type(exc.orig).__name__ if exc.orig else "conflict") from exc
    except _Rollback as exc:
        logger.warning("CSV import rolled back: %s", exc)
        return ImportReport(issues=[CsvIssue(0, "", IMPORT_FAILED.format(detail=exc))])
    logger.info("CSV import: %d products created, %d updated", created, updated)
    return ImportReport(created=created, updated=updated)


def _check(session: Session, rows: list[tuple[int, dict[str, str]]]) -> tuple[list[_Plan], list[CsvIssue]]:
    issues: list[CsvIssue] = []
    plans: list[_Plan] = []
    for line, cells in rows:
        values, row_issues = parse_row(line, cells)
        issues += row_issues
        plans.append(_Plan(line, values))
    ids = {p.values["id"] for p in plans if p.values.get("id")}
    skus = {p.values["sku"] for p in plans if p.values.get("sku")}
    known_ids = set(session.exec(select(col(Product.id)).where(col(Product.id).in_(ids)))) if ids else set()
    owner_of_sku = (
        dict(session.exec(select(col(Product.sku), col(Product.id)).where(col(Product.sku).in_(skus))).all())
        if skus
        else {}
    )
    mains = {c.slug: c for c in session.exec(select(Category).where(col(Category.parent_id).is_(None)))}
    subs = {
        (c.parent_id, c.slug): c
        for c in session.exec(select(Category).where(col(Category.parent_id).is_not(None)))
    }
    target_line: dict[int, int] = {}
    sku_line: dict[str, int] = {}
    for plan in plans:
        issues += _check_identity(plan, known_ids, owner_of_sku, target_line, sku_line)
        issues += _check_categories(plan, mains, subs)
    issues += _check_versions(session, plans)
    return plans, issues


def _check_versions(session: Session, plans: list[_Plan]) -> list[CsvIssue]:
    """A row that carries the export's ``version`` updates its product only if the product is
    still as exported: a sale, a restock or an edit since then would otherwise be undone."""
    versioned = {p.target: p for p in plans if p.target is not None and p.values.get("version")}
    if not versioned:
        return []
    issues: list[CsvIssue] = []
    for record in _records(session, set(versioned)):
        plan = versioned[record["id"]]
        if version_of(record) != plan.values["version"]:
            message = CsvMessage.CHANGED_SINCE_EXPORT.format(name=record["name"])
            issues.append(CsvIssue(plan.line, "version", message))
    return issues


def _check_identity(
    plan: _Plan,
    known_ids: set[int | None],  # the ids of the file found in products (None never is)
    owner_of_sku: dict[str | None, int | None],
    target_line: dict[int, int],
    sku_line: dict[str, int],
) -> list[CsvIssue]:
    """Which product the row updates; its id must exist, its SKU be its own and unique in the file."""
    issues: list[CsvIssue] = []
    product_id, sku = plan.values.get("id"), plan.values.get("sku")
    if product_id is not None and product_id not in known_ids:
        issues.append(CsvIssue(plan.line, "id", CsvMessage.UNKNOWN_ID.format(value=product_id)))
    if sku:
        if sku in sku_line:
            message = CsvMessage.DUPLICATE_SKU.format(value=sku, row=sku_line[sku])
            issues.append(CsvIssue(plan.line, "sku", message))
        sku_line.setdefault(sku, plan.line)
        owner = owner_of_sku.get(sku)
        if owner is not None and product_id is not None and owner != product_id:
            message = CsvMessage.SKU_TAKEN.format(value=sku, other=owner)
            issues.append(CsvIssue(plan.line, "sku", message))
    plan.target = product_id if product_id is not None else owner_of_sku.get(sku or "")
    if plan.target is not None:
        if plan.target in target_line:
            message = CsvMessage.DUPLICATE_ID.format(value=plan.target, row=target_line[plan.target])
            issues.append(CsvIssue(plan.line, "id", message))
        target_line.setdefault(plan.target, plan.line)
    return issues


def _check_categories(
    plan: _Plan, mains: dict[str, Category], subs: dict[tuple[int | None, str], Category]
) -> list[CsvIssue]:
    values = plan.values
    category: Category | None = None
    if "category" in values:
        slug = values["category"]
        category = mains.get(slug) if slug else None
        if slug and category is None:
            return [CsvIssue(plan.line, "category", CsvMessage.UNKNOWN_CATEGORY.format(value=slug))]
        plan.categories["category_id"] = category.id if category else None
    if "subcategory" in values:
        slug = values["subcategory"]
        if slug and category is None:
            return [CsvIssue(plan.line, "subcategory", CsvMessage.SUBCATEGORY_NEEDS_CATEGORY)]
        sub = subs.get((category.id, slug)) if slug and category else None
        if slug and sub is None and category is not None:
            message = CsvMessage.UNKNOWN_SUBCATEGORY.format(value=slug, category=category.slug)
            return [CsvIssue(plan.line, "subcategory", message)]
        plan.categories["subcategory_id"] = sub.id if sub else None
    return []


def _write(session: Session, plans: list[_Plan]) -> tuple[int, int]:
    targets = {p.target for p in plans if p.target is not None}
    found = (
        {p.id: p for p in session.exec(select(Product).where(col(Product.id).in_(targets)))}
        if targets
        else {}
    )
    written: list[tuple[Product, _Plan]] = []
    for plan in plans:
        product = found.get(plan.target) if plan.target is not None else None
        product = product or Product(name=plan.values["name"])
        _apply(product, plan)
        session.add(product)
        written.append((product, plan))
    session.flush()  # new products get their ids
    with_images = {p.id: plan.values["image_urls"] for p, plan in written if "image_urls" in plan.values}
    if with_images:
        _replace_images(session, {p.id: p for p, _ in written}, with_images)
    session.flush()
    updated = sum(1 for p in plans if p.target is not None)
    return len(plans) - updated, updated


def _apply(product: Product, plan: _Plan) -> None:
    values = plan.values
    for column in _PLAIN:
        if column in values:
            setattr(product, column, values[column])
    for column, attribute in _MONEY.items():
        if column in values:
            setattr(product, attribute, values[column])
    for attribute, category_id in plan.categories.items():
        setattr(product, attribute, category_id)
    product.group_key = group_key(product.name)
    product.updated_at = utcnow()


def _replace_images(
    session: Session, products: dict[int | None, Product], urls_of: dict[int | None, list[str]]
) -> None:
    """Each product's images become its listed URLs, in order; a kept URL keeps its row (and size)."""
    existing: dict[int, dict[str, ProductImage]] = defaultdict(dict)
    for image in session.exec(select(ProductImage).where(col(ProductImage.product_id).in_(list(urls_of)))):
        if image.image_url in urls_of[image.product_id] and image.image_url not in existing[image.product_id]:
            existing[image.product_id][image.image_url] = image
        else:
            session.delete(image)
    for product_id, urls in urls_of.items():
        product = products[product_id]
        for order, url in enumerate(dict.fromkeys(urls)):
            image = existing[product.id or 0].get(url) or ProductImage(
                product_id=product.id or 0, image_url=url
            )
            image.display_order = order
            image.is_primary = order == 0
            image.alt_text = f"{product.name} Image {order + 1}"[:255]
            session.add(image)
