"""CSV export and all-or-nothing import on the real database (SQLite, and PostgreSQL with
TEST_DATABASE_URL)."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.catalog_csv import COLUMNS, CsvIssue
from shop_app.domain.grouping import group_key
from shop_app.models import Category, Product, ProductImage
from shop_app.services.admin import catalog_csv
from shop_app.services.admin.catalog_csv import (
    ImportReport,
    export_catalog_csv,
    export_filename,
    import_catalog_csv,
)


@pytest.fixture
def shop(session: Session) -> dict[str, Any]:
    """Two main categories with a subcategory each, two products (one with images)."""
    candles = Category(name="Candles", slug="candles")
    body = Category(name="Body Care", slug="body-care")
    session.add_all([candles, body])
    session.flush()
    signature = Category(
        name="Signature Candle Collection", slug="signature-candle-collection", parent_id=candles.id
    )
    lotion = Category(name="Hand & Body Lotion", slug="hand-body-lotion", parent_id=body.id)
    session.add_all([signature, lotion])
    session.flush()
    fig = Product(
        name="8oz Amber Soy Candle - Fig",
        group_key=group_key("8oz Amber Soy Candle - Fig"),
        description='Warm fig,\nwith "quotes"',
        sku="AJ-FIG",
        category_id=candles.id,
        subcategory_id=signature.id,
        product_type="candles",
        base_price_cents=2450,
        sale_price_cents=1999,
        cost_price_cents=800,
        stock_quantity=12,
        is_featured=True,
        weight_oz=Decimal("8.50"),
        dimensions="3x4 in",
        care_instructions="Trim the wick",
        ingredients=["soy wax", "fragrance oil"],
        tags=["fall", "bestseller"],
    )
    formula = Product(
        name="=HYPERLINK(1)",
        group_key=group_key("=HYPERLINK(1)"),
        base_price_cents=100,
        is_active=False,
        product_type="body-care",
    )
    session.add_all([fig, formula])
    session.flush()
    session.add_all(
        [
            ProductImage(
                product_id=fig.id, image_url="/media/products/b.webp", display_order=1, width=600, height=600
            ),
            ProductImage(
                product_id=fig.id, image_url="/media/products/a.webp", display_order=0, is_primary=True
            ),
        ]
    )
    session.commit()
    return {
        "fig": fig.id,
        "formula": formula.id,
        "candles": candles.id,
        "body": body.id,
        "signature": signature.id,
        "lotion": lotion.id,
    }


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"), newline="")))


def csv_bytes(*lines: dict[str, str], columns: tuple[str, ...] = COLUMNS) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(lines)
    return out.getvalue().encode()


def snapshot(session: Session) -> list[dict[str, Any]]:
    session.rollback()  # end the read snapshot: see what the import committed
    products = [
        p.model_dump(exclude={"updated_at", "search_text"})
        for p in session.exec(select(Product).order_by(Product.id))
    ]
    images = [
        (i.product_id, i.image_url, i.display_order, i.is_primary, i.width)
        for i in session.exec(
            select(ProductImage).order_by(ProductImage.product_id, ProductImage.display_order)
        )
    ]
    return [*products, {"images": images}]


def test_export_writes_every_product_with_slugs_dollars_lists_and_guarded_cells(
    session: Session, shop: dict[str, Any]
) -> None:
    fig, formula = rows(export_catalog_csv(session))

    assert re.fullmatch("[0-9a-f]{16}", fig.pop("version"))
    assert fig == {
        "id": str(shop["fig"]),
        "name": "8oz Amber Soy Candle - Fig",
        "description": 'Warm fig,\nwith "quotes"',
        "sku": "AJ-FIG",
        "category": "candles",
        "subcategory": "signature-candle-collection",
        "product_type": "candles",
        "base_price": "24.50",
        "sale_price": "19.99",
        "cost_price": "8.00",
        "stock_quantity": "12",
        "is_active": "true",
        "is_featured": "true",
        "is_new_arrival": "false",
        "weight_oz": "8.50",
        "dimensions": "3x4 in",
        "care_instructions": "Trim the wick",
        "ingredients": "soy wax; fragrance oil",
        "tags": "fall; bestseller",
        "image_urls": "/media/products/a.webp; /media/products/b.webp",
    }
    assert formula["name"] == "'=HYPERLINK(1)" and formula["is_active"] == "false"
    assert formula["sale_price"] == "" and formula["ingredients"] == ""


def test_export_filename_is_dated() -> None:
    assert export_filename(date(2026, 3, 1)) == "products-2026-03-01.csv"


def test_importing_an_export_changes_nothing(engine: Engine, session: Session, shop: dict[str, Any]) -> None:
    before = snapshot(session)
    exported = export_catalog_csv(session)

    report = import_catalog_csv(exported.encode(), engine=engine)

    assert report == ImportReport(created=0, updated=2)
    assert snapshot(session) == before
    assert export_catalog_csv(session) == exported


def test_an_old_export_cannot_bring_back_sold_stock_or_undo_an_edit(
    engine: Engine, session: Session, shop: dict[str, Any]
) -> None:
    exported = export_catalog_csv(session)  # the fig candle has 12 in stock
    edited = rows(exported)
    edited[1]["base_price"] = "2.00"  # the owner's change, to the product nobody touched since
    with engine.begin() as connection:  # after the export, 2 fig candles are sold
        connection.execute(sa.update(Product).where(Product.id == shop["fig"]).values(stock_quantity=10))
    before = snapshot(session)

    report = import_catalog_csv(csv_bytes(*edited), engine=engine)

    assert report.issues == [
        CsvIssue(
            2,
            "version",
            "8oz Amber Soy Candle - Fig has changed in the shop since this file was exported (a sale, "
            "a restock or an edit). Export the products again and make your changes in the new file.",
        )
    ]
    assert snapshot(session) == before  # all or nothing: the other row's change waits too

    fresh = rows(export_catalog_csv(session))
    fresh[1]["base_price"] = "2.00"
    assert import_catalog_csv(csv_bytes(*fresh), engine=engine) == ImportReport(created=0, updated=2)
    session.rollback()
    fig, formula = session.get(Product, shop["fig"]), session.get(Product, shop["formula"])
    assert (fig.stock_quantity, formula.base_price_cents) == (10, 200)


def test_a_row_without_a_version_is_taken_as_it_is(
    engine: Engine, session: Session, shop: dict[str, Any]
) -> None:
    exported = rows(export_catalog_csv(session))
    with engine.begin() as connection:
        connection.execute(sa.update(Product).where(Product.id == shop["fig"]).values(stock_quantity=10))
    exported[0]["version"] = ""  # a file made or changed by hand: the owner's numbers stand

    assert import_catalog_csv(csv_bytes(*exported), engine=engine) == ImportReport(created=0, updated=2)
    session.rollback()
    assert session.get(Product, shop["fig"]).stock_quantity == 12


def test_new_rows_create_products_with_categories_images_and_group_key(
    engine: Engine, session: Session, shop: dict[str, Any]
) -> None:
    data = csv_bytes(
        {
            "name": "Room Spray - Rose",
            "base_price": "$16",
            "category": "body-care",
            "subcategory": "hand-body-lotion",
            "stock_quantity": "4",
            "image_urls": "/media/products/x.webp; /media/products/y.webp",
            "tags": "gift",
        },
        columns=("name", "base_price", "category", "subcategory", "stock_quantity", "image_urls", "tags"),
    )

    report = import_catalog_csv(data, engine=engine)

    assert report.ok and report.imported == report.created == 1
    session.rollback()  # end the read snapshot: see what the import committed
    rose = session.exec(select(Product).where(Product.name == "Room Spray - Rose")).one()
    assert (rose.base_price_cents, rose.stock_quantity, rose.tags) == (1600, 4, ["gift"])
    assert (rose.category_id, rose.subcategory_id) == (shop["body"], shop["lotion"])
    assert rose.is_active and not rose.is_featured and rose.group_key == group_key("Room Spray - Rose")
    images = session.exec(
        select(ProductImage).where(ProductImage.product_id == rose.id).order_by(ProductImage.display_order)
    ).all()
    assert [(i.image_url, i.is_primary, i.alt_text) for i in images] == [
        ("/media/products/x.webp", True, "Room Spray - Rose Image 1"),
        ("/media/products/y.webp", False, "Room Spray - Rose Image 2"),
    ]


def test_rows_update_by_id_or_by_sku_and_missing_columns_are_kept(
    engine: Engine, session: Session, shop: dict[str, Any]
) -> None:
    data = csv_bytes(
        {"id": str(shop["formula"]), "name": "Plain name", "base_price": "1.50", "image_urls": ""},
        {
            "sku": "AJ-FIG",
            "name": "8oz Amber Soy Candle - Fig",
            "base_price": "30",
            "image_urls": "/media/products/b.webp",
        },
        columns=("id", "sku", "name", "base_price", "image_urls"),
    )

    report = import_catalog_csv(data, engine=engine)

    assert report == ImportReport(created=0, updated=2)
    session.rollback()  # end the read snapshot: see what the import committed
    formula, fig = session.get(Product, shop["formula"]), session.get(Product, shop["fig"])
    assert (formula.name, formula.base_price_cents, formula.sku, formula.is_active) == (
        "Plain name",
        150,
        None,
        False,
    )
    assert (fig.base_price_cents, fig.sale_price_cents, fig.stock_quantity, fig.tags) == (
        3000,
        1999,
        12,
        ["fall", "bestseller"],
    )
    (kept,) = session.exec(select(ProductImage).where(ProductImage.product_id == fig.id)).all()
    assert (kept.image_url, kept.is_primary, kept.display_order, kept.width) == (
        "/media/products/b.webp",
        True,
        0,
        600,
    )


def test_one_bad_row_means_nothing_is_written_and_every_problem_is_reported(
    engine: Engine, session: Session, shop: dict[str, Any]
) -> None:
    before = snapshot(session)
    data = csv_bytes(
        {"name": "Good", "base_price": "5", "sku": "NEW-1"},
        {"id": "999999", "name": "Ghost", "base_price": "5"},
        {"name": "Dup", "base_price": "5", "sku": "NEW-1"},
        {"id": str(shop["formula"]), "name": "Thief", "base_price": "5", "sku": "AJ-FIG"},
        {"name": "Lost", "base_price": "5", "category": "soaps"},
        {"name": "Orphan", "base_price": "5", "subcategory": "hand-body-lotion"},
        {"name": "Misplaced", "base_price": "5", "category": "candles", "subcategory": "hand-body-lotion"},
        {"name": "", "base_price": "-2", "stock_quantity": "x"},
        {"id": str(shop["fig"]), "name": "Fig again", "base_price": "5"},
        {"sku": "AJ-FIG", "name": "Fig by SKU", "base_price": "5"},
        columns=("id", "name", "base_price", "sku", "category", "subcategory", "stock_quantity"),
    )

    report = import_catalog_csv(data, engine=engine)

    assert not report.ok and report.imported == 0
    assert [(i.row, i.column) for i in report.issues] == [
        (3, "id"),
        (4, "sku"),
        (5, "sku"),
        (6, "category"),
        (7, "subcategory"),
        (8, "subcategory"),
        (9, "name"),
        (9, "base_price"),
        (9, "stock_quantity"),
        (11, "sku"),
        (11, "id"),
    ]
    messages = {(i.row, i.column): i.message for i in report.issues}
    assert messages[(3, "id")] == "No product has the id 999999."
    assert messages[(4, "sku")] == "The SKU NEW-1 is also on row 2."
    assert messages[(5, "sku")] == f"The SKU AJ-FIG belongs to another product (id {shop['fig']})."
    assert messages[(6, "category")] == "No main category has the slug 'soaps'."
    assert messages[(7, "subcategory")] == "A subcategory needs its main category in the category column."
    assert messages[(8, "subcategory")] == "No subcategory of 'candles' has the slug 'hand-body-lotion'."
    assert messages[(11, "id")] == "The id {} is also on row 10.".format(shop["fig"])
    assert snapshot(session) == before


def test_a_file_that_cannot_be_read_is_reported(
    engine: Engine, session: Session, shop: dict[str, Any]
) -> None:
    report = import_catalog_csv(b"colour\nred\n", engine=engine)

    assert report.issues == [
        CsvIssue(1, "colour", "Unknown column 'colour'."),
        CsvIssue(1, "name", "The column 'name' is missing."),
        CsvIssue(1, "base_price", "The column 'base_price' is missing."),
    ]


def test_a_conflict_while_writing_rolls_everything_back(
    engine: Engine, session: Session, shop: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(session)
    real_write = catalog_csv._write

    def write_then_conflict(db: Session, plans: list) -> tuple[int, int]:
        real_write(db, plans)
        raise sa.exc.IntegrityError("INSERT", {}, ValueError("duplicate key"))

    monkeypatch.setattr(catalog_csv, "_write", write_then_conflict)

    report = import_catalog_csv(
        csv_bytes({"name": "New", "base_price": "1"}, columns=("name", "base_price")), engine=engine
    )

    assert report.issues == [
        CsvIssue(0, "", "The import could not be saved (ValueError); nothing was imported.")
    ]
    assert snapshot(session) == before
