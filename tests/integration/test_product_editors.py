"""The three product editors save through their services under one rule set
(docs/spec/admin-products.md#one-editor; issue 17, acceptance 4).

On the demo catalogue as ``python -m shop_app seed --demo`` loads it (SQLite, and PostgreSQL when
TEST_DATABASE_URL is set): every product saves unchanged through the Edit Product dialog's and the
full-page form's save path and is created as it is through the wizard's; each editor refuses a
sale price at or above the price and a missing collection with the same message and writes
nothing; the full-page form (the low-stock mail's "Restock" link) saves the stock, and an editor
that did not change the stock does not undo a sale made while it was open, and an editor opened
before another one saved is refused instead of undoing that save. Then the same through the
screens' handlers, as an administrator's browser calls them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from reflex.istate.data import ReflexURL
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.demo import demo_catalog
from shop_app.domain.admin_messages import ProductAdminMessage, ProductDraftText, ProductFormMessage
from shop_app.domain.money import format_plain
from shop_app.domain.product_draft import DraftField
from shop_app.domain.product_editing import DraftInvalid, ProductDraft, draft_from_form
from shop_app.domain.slugs import category_slug
from shop_app.models import AdminRole, Category, Product, ProductImage, User
from shop_app.services import sessions
from shop_app.services.admin.product_creation import create_product
from shop_app.services.admin.product_form import (
    ProductForEdit,
    ProductUpdateError,
    product_for_edit,
    read_product_for_edit,
    update_product,
)
from shop_app.services.admin.products import AdminProductRow, admin_products
from shop_app.services.seeding import load_demo
from shop_app.state.admin.product_form import ProductFormState
from shop_app.state.admin.products import ManageProductsState, ProductEditState
from shop_app.state.auth import AuthState

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")

REFUSED = [
    (DraftField.SALE_PRICE, ProductFormMessage.SALE_NOT_BELOW_PRICE.value),
    (DraftField.SUBCATEGORY, ProductDraftText.COLLECTION_REQUIRED.value),
]
"""What every editor says to a sale price equal to the price and no collection in Candles."""

UNSTABLE = {"updated_at", "low_stock_alerted_at"}


@pytest.fixture(scope="module")
def demo_media(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One media folder for the module: the demo artwork is drawn once."""
    return tmp_path_factory.mktemp("demo-media")


@pytest.fixture
def demo(session: Session, demo_media: Path) -> Session:
    """The demo catalogue, as ``seed --demo`` loads it (its products, vessels and images)."""
    report = load_demo(session, media_dir=demo_media)
    session.commit()
    assert not report.skipped
    return session


def snapshot(engine: Engine) -> dict[int, dict[str, Any]]:
    """Every product's stored columns (but when it was last saved) and its gallery."""
    with Session(engine) as session:
        products = {
            row.id: {key: value for key, value in row.model_dump().items() if key not in UNSTABLE}
            for row in session.exec(select(Product))
        }
        for image in session.exec(select(ProductImage).order_by(ProductImage.id)):
            products[image.product_id].setdefault("images", []).append(
                (image.image_url, image.display_order, image.is_primary, image.alt_text, image.width)
            )
    return products


def _money(cents: int | None) -> str:
    return format_plain(cents) if cents else ""


def dialog_draft(row: AdminProductRow, **changes: str) -> ProductDraft:
    """What Edit Product shows for a row of the list (``ProductEditState.open_edit``), as its draft."""
    form = {
        "name": row.name,
        "description": row.description,
        "base_price": format_plain(row.base_price_cents),
        "sale_price": _money(row.sale_price_cents),
        "category": str(row.category_id or ""),
        "subcategory": str(row.subcategory_id or ""),
        "stock_quantity": str(row.stock_quantity),
        **changes,
    }
    return draft_from_form(
        form, is_featured=row.is_featured, is_new_arrival=row.is_new_arrival, is_active=row.is_active
    )


def form_draft(product: ProductForEdit, **changes: str) -> ProductDraft:
    """What the full-page form shows in edit mode (``ProductFormState.load``), as its draft (the
    Product ID is locked: not part of an edit)."""
    form = {
        "name": product.name,
        "description": product.description,
        "category": str(product.category_id or ""),
        "subcategory": str(product.subcategory_id or ""),
        "base_price": format_plain(product.base_price_cents),
        "sale_price": _money(product.sale_price_cents),
        "stock_quantity": str(product.stock_quantity),
        "size": product.size,
        "burn_time": product.burn_time,
        "ingredients": ", ".join(product.ingredients),
        **changes,
    }
    return draft_from_form(
        form,
        is_featured=product.is_featured,
        is_new_arrival=product.is_new_arrival,
        scent_notes=product.scent_notes,
    )


def save_in_dialog(engine: Engine, media: Path, row: AdminProductRow, **changes: str) -> None:
    update_product(
        row.id,
        dialog_draft(row, **changes),
        None,
        media_dir=media,
        stock_seen=row.stock_quantity,
        engine=engine,
    )


def save_in_form(engine: Engine, media: Path, product: ProductForEdit, **changes: str) -> None:
    update_product(
        product.product_id,
        form_draft(product, **changes),
        list(product.images),
        media_dir=media,
        stock_seen=product.stock_quantity,
        version_seen=product.version,
        engine=engine,
    )


# ----------------------------------------------------------------------------- unchanged


def test_every_demo_product_saves_unchanged_in_the_edit_dialog(
    demo: Session, engine: Engine, tmp_path: Path
) -> None:
    before = snapshot(engine)
    rows = admin_products(demo)
    assert len(rows) == len(before) > len(demo_catalog.PRODUCTS)  # the builder's vessels too

    for row in rows:
        save_in_dialog(engine, tmp_path, row)

    assert snapshot(engine) == before


def test_every_demo_product_saves_unchanged_in_the_full_page_form(
    demo: Session, engine: Engine, demo_media: Path
) -> None:
    before = snapshot(engine)
    without_notes = 0

    for product_id in sorted(before):
        product = product_for_edit(demo, product_id)
        assert product is not None
        without_notes += not product.scent_notes
        save_in_form(engine, demo_media, product)

    assert snapshot(engine) == before
    assert without_notes  # products the old form refused to save: scent notes are optional
    assert all(
        (demo_media / url.removeprefix("/media/")).is_file()
        for p in before.values()
        for url, *_ in p["images"]
    )


def test_every_demo_product_is_created_as_it_is_by_the_wizard(
    session: Session, engine: Engine, tmp_path: Path
) -> None:
    ids: dict[str, int] = {}
    for spec in sorted(demo_catalog.CATEGORIES, key=lambda c: c.parent is not None):  # parents first
        category = Category(
            name=spec.name, slug=category_slug(spec.name), parent_id=ids.get(spec.parent or "")
        )
        session.add(category)
        session.flush()
        ids[spec.name] = int(category.id or 0)
    session.commit()

    for demo_product in demo_catalog.PRODUCTS:
        form = {
            "name": demo_product.name,
            "description": demo_product.description,
            "sku": demo_product.sku,
            "base_price": format_plain(demo_product.base_price_cents),
            "sale_price": _money(demo_product.sale_price_cents),
            "cost_price": "",
            "category": str(ids[demo_product.category]),
            "subcategory": str(ids[demo_product.subcategory]) if demo_product.subcategory else "",
            "tags": "",
            "stock_quantity": str(demo_product.stock_quantity),
            "weight": demo_product.weight_oz or "",
            "dimensions": demo_product.dimensions or "",
            "care_instructions": demo_product.care_instructions or "",
            "ingredients": ", ".join(demo_product.ingredients),
            "seo_title": "",
            "seo_description": "",
        }
        draft = draft_from_form(
            form, is_featured=demo_product.is_featured, is_new_arrival=demo_product.is_new
        )
        create_product(draft, [], media_dir=tmp_path, catalog=None, engine=engine)

    session.commit()
    created = {p.sku: p for p in session.exec(select(Product))}
    assert len(created) == len(demo_catalog.PRODUCTS)
    for demo_product in demo_catalog.PRODUCTS:
        product = created[demo_product.sku]
        assert (product.name, product.description, product.is_active) == (
            demo_product.name,
            demo_product.description,
            True,
        )
        assert (product.base_price_cents, product.sale_price_cents, product.stock_quantity) == (
            demo_product.base_price_cents,
            demo_product.sale_price_cents,
            demo_product.stock_quantity,
        )
        assert (product.category_id, product.subcategory_id) == (
            ids[demo_product.category],
            ids[demo_product.subcategory] if demo_product.subcategory else None,
        )
        assert (product.is_featured, product.is_new_arrival) == (
            demo_product.is_featured,
            demo_product.is_new,
        )
        assert (product.dimensions, product.care_instructions) == (
            demo_product.dimensions,
            demo_product.care_instructions,
        )
        assert product.ingredients == (list(demo_product.ingredients) or None)
        assert product.weight_oz == (Decimal(demo_product.weight_oz) if demo_product.weight_oz else None)
        if demo_product.category != "Custom":  # the type follows a main category that names one
            assert product.product_type == demo_product.product_type


# ----------------------------------------------------------------------------- one rule set


def _candle_on_sale(demo: Session) -> int:
    row = next(r for r in admin_products(demo) if r.on_sale and r.category_name == "Candles")
    return row.id


@pytest.mark.parametrize("editor", ["dialog", "form", "wizard"])
def test_each_editor_refuses_a_sale_at_the_price_and_no_collection_alike(
    demo: Session, engine: Engine, demo_media: Path, editor: str
) -> None:
    product_id = _candle_on_sale(demo)
    before = snapshot(engine)
    row = next(r for r in admin_products(demo) if r.id == product_id)
    price = format_plain(row.base_price_cents)

    with pytest.raises(DraftInvalid) as refused:
        if editor == "dialog":
            save_in_dialog(engine, demo_media, row, sale_price=price, subcategory="")
        elif editor == "form":
            product = product_for_edit(demo, product_id)
            assert product is not None
            save_in_form(engine, demo_media, product, sale_price=price, subcategory="")
        else:
            draft = dialog_draft(row, sale_price=price, subcategory="", name="Brand New Candle")
            create_product(draft, [], media_dir=demo_media, catalog=None, engine=engine)

    assert list(refused.value.problems) == REFUSED
    assert str(refused.value) == "Sale price must be less than regular price"
    assert snapshot(engine) == before


@pytest.mark.parametrize("editor", ["dialog", "form"])
def test_a_sale_above_the_price_is_refused_where_the_dashboard_would_say_sale(
    demo: Session, engine: Engine, demo_media: Path, editor: str
) -> None:
    row = admin_products(demo)[0]
    above = format_plain(row.base_price_cents + 100)

    with pytest.raises(DraftInvalid) as refused:
        if editor == "dialog":
            save_in_dialog(engine, demo_media, row, sale_price=above)
        else:
            product = product_for_edit(demo, row.id)
            assert product is not None
            save_in_form(engine, demo_media, product, sale_price=above)

    assert list(refused.value.problems) == REFUSED[:1]


# ----------------------------------------------------------------------------- stock


def _set_stock(engine: Engine, product_id: int, stock: int) -> None:
    """A sale (or anything else) changing the stock behind the editor's back."""
    with engine.begin() as connection:
        connection.execute(sa.update(Product).where(Product.id == product_id).values(stock_quantity=stock))


def _stock(engine: Engine, product_id: int) -> int:
    with Session(engine) as session:
        product = session.get(Product, product_id)
        assert product is not None
        return product.stock_quantity


def test_the_full_page_form_restocks(demo: Session, engine: Engine, demo_media: Path) -> None:
    product = product_for_edit(demo, admin_products(demo)[0].id)
    assert product is not None

    save_in_form(engine, demo_media, product, stock_quantity="120")

    assert _stock(engine, product.product_id) == 120


@pytest.mark.parametrize("editor", ["dialog", "form"])
def test_an_editor_that_left_the_stock_alone_keeps_a_sale_made_meanwhile(
    demo: Session, engine: Engine, demo_media: Path, editor: str
) -> None:
    row = next(r for r in admin_products(demo) if r.stock_quantity > 2)
    product = product_for_edit(demo, row.id)
    assert product is not None
    _set_stock(engine, row.id, row.stock_quantity - 2)  # two sold while the editor is open

    if editor == "dialog":
        save_in_dialog(engine, demo_media, row, name=f"{row.name} (renamed)")
    else:
        save_in_form(engine, demo_media, product, name=f"{row.name} (renamed)")

    assert _stock(engine, row.id) == row.stock_quantity - 2


def _stored(engine: Engine, product_id: int) -> Product:
    with Session(engine) as session:
        product = session.get(Product, product_id)
        assert product is not None
        return product


def test_an_editor_opened_before_another_save_is_refused_and_writes_nothing(
    demo: Session, engine: Engine, demo_media: Path
) -> None:
    product_id = admin_products(demo)[0].id
    first, second = product_for_edit(demo, product_id), product_for_edit(demo, product_id)
    assert first is not None and second is not None
    save_in_form(engine, demo_media, first, name=f"{first.name} (renamed)")
    after_first = snapshot(engine)

    with pytest.raises(ProductUpdateError, match="changed elsewhere") as refused:
        save_in_form(engine, demo_media, second, base_price="99.00")

    assert str(refused.value) == ProductAdminMessage.CHANGED_ELSEWHERE.value
    assert snapshot(engine) == after_first
    assert _stored(engine, product_id).name == f"{first.name} (renamed)"


@pytest.mark.parametrize("change", ["sale", "square push"])
def test_a_sale_or_a_push_to_square_does_not_stop_an_open_editor(
    demo: Session, engine: Engine, demo_media: Path, change: str
) -> None:
    row = next(r for r in admin_products(demo) if r.stock_quantity > 2)
    product = product_for_edit(demo, row.id)
    assert product is not None
    with Session(engine) as session:
        stored = session.get(Product, row.id)
        assert stored is not None
        if change == "sale":
            stored.stock_quantity -= 2
        else:
            stored.square_item_id, stored.square_fingerprint = "ITEM-E2E", "f" * 64
        session.add(stored)
        session.commit()

    save_in_form(engine, demo_media, product, name=f"{row.name} (renamed)")

    assert _stored(engine, row.id).name == f"{row.name} (renamed)"


def test_a_stock_typed_in_an_editor_opened_before_the_stock_changed_is_refused(
    demo: Session, engine: Engine, demo_media: Path
) -> None:
    """Two admins set the stock from editors opened at 29: the later one undid the earlier one."""
    product_id = next(row.id for row in admin_products(demo) if row.stock_quantity > 2)
    first, second = (read_product_for_edit(product_id, engine) for _ in range(2))
    assert first is not None and second is not None
    save_in_form(engine, demo_media, first, stock_quantity=str(first.stock_quantity + 21))

    with pytest.raises(ProductUpdateError, match="changed elsewhere"):
        save_in_form(engine, demo_media, second, stock_quantity=str(second.stock_quantity - 9))

    assert _stock(engine, product_id) == first.stock_quantity + 21


def test_the_content_version_follows_the_gallery(demo: Session, engine: Engine, demo_media: Path) -> None:
    product_id = next(row.id for row in admin_products(demo) if row.image_url)
    product = read_product_for_edit(product_id, engine)
    assert product is not None and product.images
    save_in_form(engine, demo_media, product)  # saved unchanged: the same version
    assert (again := read_product_for_edit(product_id, engine)) is not None
    assert again.version == product.version

    save_in_form(engine, demo_media, dataclasses.replace(product, images=product.images[1:]))

    assert (after := read_product_for_edit(product_id, engine)) is not None
    assert after.version != product.version


# ----------------------------------------------------------------------------- the screens


@pytest.fixture
def admin_key(app_env: Callable[..., None], demo: Session) -> Iterator[str]:
    """The demo shop, and an administrator's session (the key a tab holds)."""
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner")
    demo.add(admin)
    demo.flush()
    demo.add(AdminRole(user_id=admin.id))
    opened = sessions.start(demo, user=admin, remember_me=False)
    demo.commit()
    yield opened.state_key


async def _tab(session_key: str, *classes: type) -> list[Any]:
    root = State(_reflex_internal_init=True)
    (await root.get_state(AuthState))._session_key = session_key
    return [await root.get_state(cls) for cls in classes]


async def _drain(handler: Any) -> list[Any]:
    if hasattr(handler, "__aiter__"):
        return [item async for item in handler]
    return [await handler]


async def test_the_screens_save_every_demo_product_unchanged(admin_key: str, engine: Engine) -> None:
    before = snapshot(engine)
    products, edit, form = await _tab(admin_key, ManageProductsState, ProductEditState, ProductFormState)
    await products.load()

    for product_id in sorted(before):
        await edit.open_edit(product_id)
        assert edit.edit_open
        await edit.save_edit()
        assert not edit.edit_open and edit.edit_errors == {}

        url = ReflexURL(f"http://localhost:3000/admin/products/edit/{product_id}")
        form.router = dataclasses.replace(form.router, url=url)
        await _drain(form.load())
        assert form.form["stock_quantity"] == str(before[product_id]["stock_quantity"])
        events = await _drain(form.save())
        assert "Product updated successfully" in str(events), (product_id, form.errors, events)

    assert snapshot(engine) == before


async def test_the_dialog_shows_the_message_next_to_its_field(
    admin_key: str, demo: Session, engine: Engine
) -> None:
    product_id = _candle_on_sale(demo)
    before = snapshot(engine)
    products, edit = await _tab(admin_key, ManageProductsState, ProductEditState)
    await products.load()
    await edit.open_edit(product_id)

    await edit.set_edit_field("sale_price", edit.edit_base_price)
    await edit.set_edit_subcategory("none")
    await edit.save_edit()

    assert edit.edit_errors == {field.value: message for field, message in REFUSED}
    assert edit.edit_open and snapshot(engine) == before


async def test_two_tabs_editing_one_product_the_later_save_is_refused_not_undoing_the_first(
    admin_key: str, demo: Session, engine: Engine
) -> None:
    """A stranger renamed a product in one tab, then saved Edit Product opened earlier in a second
    tab: the rename was silently undone."""
    product_id = admin_products(demo)[0].id
    products_a, edit_a = await _tab(admin_key, ManageProductsState, ProductEditState)
    products_b, edit_b = await _tab(admin_key, ManageProductsState, ProductEditState)
    await products_a.load()
    await products_b.load()
    await edit_a.open_edit(product_id)
    await edit_b.open_edit(product_id)
    renamed = f"{edit_a.edit_name} (renamed)"

    await edit_a.set_edit_field("name", renamed)
    await edit_a.save_edit()
    await edit_b.set_edit_field("base_price", "99.00")
    refused = await edit_b.save_edit()

    assert ProductAdminMessage.CHANGED_ELSEWHERE.value in str(refused)
    assert edit_b.edit_open and edit_b.edit_base_price == "99.00"  # what was typed is kept
    stored = _stored(engine, product_id)
    assert stored.name == renamed and stored.base_price_cents != 9900

    await edit_b.open_edit(product_id)  # opened again: the current values, and the save goes through
    assert edit_b.edit_name == renamed
    await edit_b.set_edit_field("base_price", "99.00")
    await edit_b.save_edit()
    assert not edit_b.edit_open and _stored(engine, product_id).base_price_cents == 9900


async def test_a_dialog_opened_while_the_product_could_not_be_read_never_writes_over_it(
    admin_key: str, demo: Session, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database failed as Edit Product opened: the dialog shows the list's row, and its save is
    refused (once the database is back) rather than writing values it never read."""
    product_id = admin_products(demo)[0].id
    products, edit = await _tab(admin_key, ManageProductsState, ProductEditState)
    await products.load()
    before = snapshot(engine)

    def failing(*_args: Any, **_kwargs: Any) -> None:
        raise sa.exc.OperationalError("SELECT", {}, Exception("no such table: products"))

    monkeypatch.setattr("shop_app.state.admin.products.read_product_for_edit", failing)
    await edit.open_edit(product_id)
    monkeypatch.undo()
    assert edit.edit_open and edit.edit_name == before[product_id]["name"]

    await edit.set_edit_field("base_price", "99.00")
    refused = await edit.save_edit()

    assert ProductAdminMessage.CHANGED_ELSEWHERE.value in str(refused)
    assert snapshot(engine) == before


async def test_a_second_click_on_update_does_nothing(admin_key: str, demo: Session, engine: Engine) -> None:
    """A stranger double-clicked Update: the save was made, then the second click said it was not."""
    product_id = admin_products(demo)[0].id
    products, edit = await _tab(admin_key, ManageProductsState, ProductEditState)
    await products.load()
    await edit.open_edit(product_id)
    await edit.set_edit_field("base_price", "16.25")

    saved = await edit.save_edit()
    again = await edit.save_edit()

    assert ProductAdminMessage.UPDATED.value in str(saved) and again is None
    assert _stored(engine, product_id).base_price_cents == 1625


async def test_the_full_page_form_refused_as_stale_shows_the_product_as_stored_when_opened_again(
    admin_key: str, demo: Session, engine: Engine
) -> None:
    """A stranger reloaded the refused form: it kept the stale values and refused every save."""
    product_id = admin_products(demo)[0].id
    url = ReflexURL(f"http://localhost:3000/admin/products/edit/{product_id}")
    (form,) = await _tab(admin_key, ProductFormState)
    form.router = dataclasses.replace(form.router, url=url)
    await _drain(form.load())
    products, edit = await _tab(admin_key, ManageProductsState, ProductEditState)
    await products.load()
    await edit.open_edit(product_id)
    await edit.set_edit_field("base_price", "31.00")
    await edit.save_edit()

    form.form["description"] = "Typed in the stale form"
    refused = await _drain(form.save())
    assert ProductAdminMessage.CHANGED_ELSEWHERE.value in str(refused)
    assert form.form["description"] == "Typed in the stale form"  # kept until opened again

    await _drain(form.load())  # a reload of the page
    assert form.form["base_price"] == "31.00"
    saved = await _drain(form.save())
    assert "Product updated successfully" in str(saved)
