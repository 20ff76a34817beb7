"""Editing a product from the local form: fields and gallery in one transaction (SQLite and PostgreSQL)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import sqlalchemy as sa
from PIL import Image
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.product_editing import ProductDraft, draft_from_form
from shop_app.models import Category, Product, ProductImage
from shop_app.services.admin import product_form
from shop_app.services.admin.product_form import ProductUpdateError, product_for_edit, update_product
from shop_app.services.admin.product_images import (
    STAGING_FOLDER,
    ImageRef,
    adopt,
    discard_all_staged,
    stage_upload,
)


def upload(media_dir: Path, colour: tuple[int, int, int]) -> ImageRef:
    buffer = io.BytesIO()
    Image.new("RGB", (300, 300), colour).save(buffer, format="PNG")
    return stage_upload(io.BytesIO(buffer.getvalue()), filename="p.png", size=None, media_dir=media_dir)


def on_disk(media_dir: Path, url: str) -> bool:
    return (media_dir / url.removeprefix("/media/")).is_file()


@pytest.fixture
def product(session: Session, media_dir: Path) -> tuple[int, list[ImageRef]]:
    """A product with two stored images, in the Candles category."""
    candles = Category(name="Candles", slug="candles")
    session.add(candles)
    session.flush()
    row = Product(
        name="Amber Jar - Fig",
        description="Old text",
        sku="AJ-FIG",
        category_id=candles.id,
        base_price_cents=2400,
        stock_quantity=7,
        scent_notes=["Fig"],
        details={"size": "8 oz", "volume": "240 ml"},
    )
    session.add(row)
    session.flush()
    uploads = [upload(media_dir, (255, 0, 0)), upload(media_dir, (0, 255, 0))]
    images = adopt(uploads, media_dir)
    discard_all_staged(uploads, media_dir)
    for position, image in enumerate(images):
        session.add(
            ProductImage(
                product_id=row.id, image_url=image.url, display_order=position, is_primary=position == 0
            )
        )
    session.commit()
    return int(row.id or 0), images


def edit(
    session: Session,
    product_id: int,
    *,
    notes: tuple[str, ...] = ("Fig",),
    featured: bool = False,
    **fields: str,
) -> ProductDraft:
    """The form's draft of an edit of the product (its category, its stock, no Product ID)."""
    product = session.get(Product, product_id)
    assert product is not None
    form = {
        "name": "Amber Jar - Fig & Cassis",
        "description": "New text",
        "category": str(product.category_id),
        "subcategory": "",
        "base_price": "26",
        "sale_price": "0",
        "stock_quantity": str(product.stock_quantity),
        "size": "8 oz",
        "burn_time": "",
        "ingredients": "soy wax",
        **fields,
    }
    return draft_from_form(form, is_featured=featured, is_new_arrival=featured, scent_notes=notes)


def test_the_form_reads_a_product_and_its_gallery_in_order(
    session: Session, product: tuple[int, list[ImageRef]]
) -> None:
    product_id, images = product

    loaded = product_for_edit(session, product_id)

    assert loaded is not None and loaded.sku == "AJ-FIG" and loaded.size == "8 oz"
    assert [i.url for i in loaded.images] == [i.url for i in images]
    assert product_for_edit(session, 999_999) is None


def test_saving_changes_fields_and_gallery_together(
    session: Session, engine: Engine, media_dir: Path, product: tuple[int, list[ImageRef]]
) -> None:
    product_id, (red, green) = product
    blue = upload(media_dir, (0, 0, 255))
    gallery = [blue, green]  # red removed, a new first image, green second
    draft = edit(session, product_id, notes=("Fig", "Cassis"), featured=True)

    update_product(product_id, draft, gallery, media_dir=media_dir, engine=engine)

    session.commit()
    saved = session.get(Product, product_id)
    assert saved is not None
    assert (saved.name, saved.description, saved.sku) == ("Amber Jar - Fig & Cassis", "New text", "AJ-FIG")
    assert (saved.base_price_cents, saved.sale_price_cents, saved.stock_quantity) == (2600, None, 7)
    assert saved.scent_notes == ["Fig", "Cassis"] and saved.is_featured and saved.is_new_arrival
    assert saved.details == {"size": "8 oz", "volume": "240 ml"} and saved.ingredients == ["soy wax"]
    assert saved.product_type == "candles"
    rows = session.exec(select(ProductImage).order_by(ProductImage.display_order)).all()
    assert [r.image_url for r in rows][1] == green.url and "staging" not in rows[0].image_url
    assert [(r.is_primary, r.alt_text) for r in rows] == [
        (True, "Amber Jar - Fig & Cassis Image 1"),
        (False, "Amber Jar - Fig & Cassis Image 2"),
    ]
    assert not on_disk(media_dir, red.url) and on_disk(media_dir, rows[0].image_url)
    assert not list((media_dir / STAGING_FOLDER).glob("*.webp"))


def test_a_removed_image_another_product_still_shows_keeps_its_file(
    session: Session, engine: Engine, media_dir: Path, product: tuple[int, list[ImageRef]]
) -> None:
    product_id, (red, green) = product
    sibling = Product(name="Amber Jar - Rose", base_price_cents=2400)
    session.add(sibling)
    session.flush()
    session.add(ProductImage(product_id=sibling.id, image_url=red.url, is_primary=True))  # Add Scent copies
    session.commit()
    draft = edit(session, product_id)

    update_product(product_id, draft, [green], media_dir=media_dir, engine=engine)

    assert on_disk(media_dir, red.url)


def test_a_failed_save_changes_nothing_and_removes_the_new_copies(
    session: Session,
    engine: Engine,
    media_dir: Path,
    product: tuple[int, list[ImageRef]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    product_id, (red, green) = product
    blue = upload(media_dir, (0, 0, 255))
    stored_before = sorted((media_dir / "products").glob("*.webp"))
    real_sync = product_form._sync_gallery

    def sync_then_fail(db: Session, pid: int, name: str, images: list[ImageRef]) -> list[str]:
        removed = real_sync(db, pid, name, images)
        db.flush()
        db.execute(sa.insert(ProductImage), [{"product_id": pid + 1000, "image_url": "/x"}])
        return removed

    monkeypatch.setattr(product_form, "_sync_gallery", sync_then_fail)
    draft = edit(session, product_id)

    with pytest.raises(ProductUpdateError) as failure:
        update_product(product_id, draft, [blue, green], media_dir=media_dir, engine=engine)

    assert str(failure.value) == "Failed to update product"
    session.commit()
    assert session.get(Product, product_id).name == "Amber Jar - Fig"
    urls = [r.image_url for r in session.exec(select(ProductImage).order_by(ProductImage.display_order))]
    assert urls == [red.url, green.url] and on_disk(media_dir, red.url)
    assert sorted((media_dir / "products").glob("*.webp")) == stored_before
    assert on_disk(media_dir, blue.url)  # the upload stays staged for another try


def test_a_product_deleted_meanwhile_is_reported(
    session: Session, engine: Engine, media_dir: Path, product: tuple[int, list[ImageRef]]
) -> None:
    draft = edit(session, product[0])

    with pytest.raises(ProductUpdateError) as failure:
        update_product(999_999, draft, [upload(media_dir, (1, 1, 1))], media_dir=media_dir, engine=engine)

    assert str(failure.value) == "This product no longer exists"
