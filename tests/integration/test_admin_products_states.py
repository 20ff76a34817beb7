"""The Manage Products screens' handlers: admins only, re-checked on the server, thin over the services.

Handlers are called the way Reflex calls them, on state instances, as a signed-out client, as a
customer and as an admin. A refused call changes nothing, even when the tab's state was tampered
with (a target id set by hand).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.models import AdminRole, Category, Product, User
from shop_app.services import sessions
from shop_app.services.admin.variants import NEW_GROUP
from shop_app.state.admin.products import (
    ManageProductsState,
    ProductConvertState,
    ProductDeleteState,
    ProductEditState,
)
from shop_app.state.admin.products_grouped import GroupedProductsState
from shop_app.state.auth import AuthState
from tests.support.admin_products import add_order_for, add_product

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")


@pytest.fixture
def people(app_env: Callable[..., None], engine: Engine, session: Session) -> dict[str, Any]:
    """A customer and an admin with their session ids, three products (one ordered) and Candles."""
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan")
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner")
    session.add_all([customer, admin])
    session.flush()
    session.add(AdminRole(user_id=admin.id))
    candles = Category(name="Candles", slug="candles")
    session.add(candles)
    session.flush()
    session.add(Category(name="Signature Candle Collection", slug="signature", parent_id=candles.id))
    lavender = add_product(session, "Matte White - Lavender", stock_quantity=3)
    cedar = add_product(session, "Cedar Candle", stock_quantity=12)
    ordered = add_product(session, "Best Seller", stock_quantity=8)
    add_order_for(session, ordered)
    customer_session = sessions.start(session, user=customer, remember_me=False)
    admin_session = sessions.start(session, user=admin, remember_me=False)
    session.commit()
    return {
        None: None,
        "customer": customer_session.state_key,
        "admin": admin_session.state_key,
        "lavender": lavender.id,
        "cedar": cedar.id,
        "ordered": ordered.id,
        "candles": candles.id,
    }


async def _state(session_key: str | None, cls: type) -> Any:
    return (await _states(session_key, cls))[0]


async def _states(session_key: str | None, *classes: type) -> list[Any]:
    """States of one tab (one root): the list's and its dialogs'."""
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_key = session_key or ""
    return [await root.get_state(cls) for cls in classes]


SCREEN = (ManageProductsState, ProductEditState, ProductConvertState, ProductDeleteState)


def notice(result: Any) -> tuple[str, str]:
    """The kind and text of the notification a handler returned (first event of a list)."""
    spec = result[0] if isinstance(result, list) else result
    (_, message), (_, kind) = spec.args
    return kind._var_value, message._var_value


def _snapshot(session: Session) -> list[tuple]:
    session.rollback()  # a fresh snapshot: the handlers wrote through their own sessions
    return [
        (p.id, p.name, p.is_active, p.base_price_cents, p.stock_quantity)
        for p in session.exec(select(Product).order_by(Product.id))
    ]


@pytest.mark.parametrize("who", [None, "customer"])
async def test_non_admins_read_nothing_and_change_nothing_individual(
    people: dict[str, Any], session: Session, who: str | None
) -> None:
    before = _snapshot(session)
    state, edit, convert, delete = await _states(people[who], *SCREEN)

    await state.load()
    await state.set_search("Cedar")
    await state.go_to_page(2)
    await state.toggle_active(people["cedar"])
    await edit.open_edit(people["cedar"])
    delete.delete_id = edit.edit_id = convert.convert_id = people["cedar"]
    edit.edit_name, edit.edit_base_price = "Hacked", "1"
    await edit.save_edit()
    convert.convert_group, convert.convert_new_vessel, convert.convert_scent = NEW_GROUP, "Evil", "Oops"
    await convert.save_convert()
    await delete.confirm_delete()
    delete.archive_id = people["ordered"]
    await delete.confirm_archive()

    assert state.rows == [] and state.total == 0 and not state.loaded
    assert not edit.edit_open
    assert _snapshot(session) == before


@pytest.mark.parametrize("who", [None, "customer"])
async def test_non_admins_read_nothing_and_change_nothing_grouped(
    people: dict[str, Any], session: Session, who: str | None
) -> None:
    before = _snapshot(session)
    state = await _state(people[who], GroupedProductsState)

    await state.load()
    await state.go_to_page(2)
    await state.toggle_group("matte white")
    await state.show_more("matte white")
    await state.open_add_scent("Matte White")
    state.scent_group, state.scent_name = "Matte White", "Rose"
    await state.save_scent()
    state.target_id = people["lavender"]
    await state.confirm_single()
    await state.deactivate(people["lavender"])
    await state.confirm_delete()

    assert state.groups == [] and state.group_count == 0 and not state.scent_open
    assert _snapshot(session) == before


async def test_an_admin_filters_edits_converts_and_archives(people: dict[str, Any], session: Session) -> None:
    state, edit, convert, _ = await _states(people["admin"], *SCREEN)

    await state.load()
    assert (state.total, state.active, state.low_stock) == (3, 3, 1)
    assert state.rows[0].name == "Best Seller"
    await state.set_search("cedar")
    assert [r.name for r in state.rows] == ["Cedar Candle"]
    await state.clear_filters()
    assert len(state.rows) == 3

    await edit.open_edit(people["cedar"])
    assert (edit.edit_name, edit.edit_base_price, edit.edit_stock) == ("Cedar Candle", "20.00", "12")
    await edit.set_edit_field("sale_price", "20")
    await edit.set_edit_field("stock", "4")
    result = await edit.save_edit()  # the editors' one rule set: each message under its field
    assert notice(result) == ("error", "Description is required")
    assert edit.edit_errors == {
        "description": "Description is required",
        "sale_price": "Sale price must be less than regular price",
        "category": "Category is required",
    }
    assert edit.edit_open
    await edit.set_edit_field("description", "Cedar and smoke.")
    await edit.set_edit_field("sale_price", "0")
    await edit.set_edit_category(str(people["candles"]))
    assert "category" not in edit.edit_errors and "description" not in edit.edit_errors
    assert notice(await edit.save_edit()) == ("error", "Collection is required")
    assert edit.edit_errors == {"subcategory": "Collection is required"}
    await edit.set_edit_subcategory(edit.edit_subcategories[0].value)
    await edit.set_edit_field("base_price", "12.345")  # not a price: Update says so
    assert edit.can_update
    kind, message = notice(await edit.save_edit())
    assert kind == "error" and edit.edit_errors == {"base_price": message} and edit.edit_open
    await edit.set_edit_field("base_price", "20.00")
    result = await edit.save_edit()
    assert notice(result) == ("success", "Product updated successfully")
    assert not edit.edit_open and edit.edit_errors == {}
    assert [r.stock for r in state.rows if r.name == "Cedar Candle"] == [4]  # the list re-read
    assert [r.subcategory for r in state.rows if r.name == "Cedar Candle"] == ["Signature Candle Collection"]

    await convert.open_convert(people["cedar"])
    assert "Matte White" in convert.group_names
    await convert.set_convert_field("group", "Matte White")
    await convert.set_convert_field("scent", "Cedar")
    result = await convert.save_convert()
    assert notice(result) == ("success", 'Product converted to variant "Cedar" in Matte White')
    assert "Matte White - Cedar" in [r.name for r in state.rows]

    result = await state.toggle_active(people["cedar"])
    assert notice(result) == ("success", "Product archived")
    assert not session.get(Product, people["cedar"]).is_active


async def test_convert_refusals_show_the_seed_messages(people: dict[str, Any]) -> None:
    state, convert = await _states(people["admin"], ManageProductsState, ProductConvertState)
    await state.load()
    await convert.open_convert(people["cedar"])

    assert notice(await convert.save_convert()) == (
        "error",
        "Please select or create a vessel group and provide a scent name",
    )
    await convert.set_convert_field("group", NEW_GROUP)
    await convert.set_convert_field("scent", "Rose")
    assert notice(await convert.save_convert()) == ("error", "Please provide a name for the new vessel")
    await convert.set_convert_field("group", "Vanished")
    assert notice(await convert.save_convert()) == ("error", "Selected vessel group not found")
    assert convert.convert_open


async def test_deleting_an_ordered_product_offers_to_archive_it(
    people: dict[str, Any], session: Session
) -> None:
    state, delete = await _states(people["admin"], ManageProductsState, ProductDeleteState)
    await state.load()

    await delete.ask_delete(people["ordered"])
    assert delete.delete_id == people["ordered"] and delete.delete_name == "Best Seller"
    assert await delete.confirm_delete() is None
    assert delete.archive_id == people["ordered"] and not delete.delete_id
    assert delete.archive_question.startswith('Cannot delete "Best Seller" because it has been ordered')
    result = await delete.confirm_archive()

    assert notice(result) == ("success", 'Product "Best Seller" has been archived successfully')
    assert not session.get(Product, people["ordered"]).is_active
    assert [r.is_active for r in state.rows if r.name == "Best Seller"] == [False]

    await delete.ask_delete(people["cedar"])
    result = await delete.confirm_delete()
    assert notice(result) == ("success", "Product deleted successfully")  # it was never in Square
    session.rollback()  # a fresh snapshot: the handlers wrote through their own sessions
    assert session.get(Product, people["cedar"]) is None


async def test_an_admin_works_the_grouped_view(people: dict[str, Any], session: Session) -> None:
    state = await _state(people["admin"], GroupedProductsState)
    await state.load()
    assert (state.group_count, state.variant_count, state.in_stock, state.low_stock) == (3, 3, 3, 1)

    await state.set_search("lavender")
    assert [g.base_name for g in state.groups] == ["Matte White"]
    await state.open_add_scent("Matte White")
    assert notice(await state.save_scent()) == ("error", "Please fill in all required fields")
    await state.set_scent_field("name", "Fig")
    assert notice(await state.save_scent()) == ("success", 'New variant "Fig" added successfully')
    assert [g.label for g in state.groups] == ["2 scent variants"]

    await state.open_single(people["lavender"])
    assert state.single_preview == "Matte Lavender White"
    result = await state.confirm_single()
    assert notice(result) == ("success", 'Product converted to standalone: "Matte Lavender White"')
    assert result[1] == GroupedProductsState.reload_soon  # the seed reloads after 1 s
    assert session.get(Product, people["lavender"]).name == "Matte Lavender White"

    assert notice(await state.deactivate(people["cedar"])) == ("success", "Product deactivated successfully")
    assert notice(await state.activate(people["cedar"])) == (
        "error",
        "Category is required",
    )  # not for sale so
    session.rollback()
    cedar = session.get(Product, people["cedar"])
    cedar.category_id = session.exec(select(Category.id).where(Category.slug == "candles")).one()
    session.commit()
    assert notice(await state.activate(people["cedar"])) == ("success", "Product activated")
    session.expire_all()
    assert session.get(Product, people["cedar"]).is_active
    assert notice(await state.deactivate(people["cedar"])) == ("success", "Product deactivated successfully")
    await state.open_delete(people["ordered"])
    assert notice(await state.confirm_delete()) == (
        "error",
        "Cannot delete this product - it has been ordered by customers. You can deactivate it instead.",
    )
    await state.open_delete(people["cedar"])
    assert notice(await state.confirm_delete()) == ("success", "Product variant deleted successfully")
    session.rollback()  # a fresh snapshot: the handlers wrote through their own sessions
    assert session.get(Product, people["ordered"]) is not None
    assert session.get(Product, people["cedar"]) is None


async def test_an_opened_group_shows_at_most_a_hundred_variants_and_one_group_is_open_at_a_time(
    people: dict[str, Any], session: Session
) -> None:
    """Stranger-found: with every group of a page opened, or one big group shown whole by "Show
    more", an admin's tab held 49 to 121 KB of variants (budget: one page, 64 KB a tab)."""
    for number in range(130):
        add_product(session, f"Glossy - Scent {number:03d}", stock_quantity=3)
    for scent in ("Rose", "Cedar"):
        add_product(session, f"Amber Jar - {scent}", stock_quantity=3)
    session.commit()
    grouped = await _state(people["admin"], GroupedProductsState)
    await grouped.load()
    other = next(g for g in grouped.groups if g.key == "amber jar")

    await grouped.toggle_group("glossy")
    for _ in range(6):  # 20 → 40 → … → 100, then no further
        await grouped.show_more("glossy")
    glossy = next(g for g in grouped.groups if g.key == "glossy")
    assert (len(glossy.variants), glossy.more) == (100, "")
    assert glossy.held == "100 of 130 variants shown: Individual View lists every one"
    assert (glossy.variants[0].name, glossy.variants[-1].name) == ("Glossy - Scent 129", "Glossy - Scent 030")

    await grouped.toggle_group(other.key)  # opening another group closes the first
    assert grouped.expanded == [other.key]
    assert [len(g.variants) for g in grouped.groups if g.key == "glossy"] == [0]
    assert [len(g.variants) for g in grouped.groups if g.key == other.key] == [2]


async def test_the_lists_hold_one_page_and_page_in_the_database(
    people: dict[str, Any], session: Session
) -> None:
    for number in range(45):
        add_product(session, f"Glossy - Scent {number:02d}", stock_quantity=number % 9)
    session.commit()
    state, edit = await _states(people["admin"], ManageProductsState, ProductEditState)
    grouped = await _state(people["admin"], GroupedProductsState)

    await state.load()
    assert (state.total, len(state.rows), state.page, state.pages) == (48, 20, 1, 3)
    assert state.page_text == "Page 1 of 3 · 48 products"
    assert state.rows[0].name == "Glossy - Scent 44"  # newest first
    await state.go_to_page(9)
    assert (state.page, [r.name for r in state.rows][-1]) == (3, "Matte White - Lavender")
    await state.set_search("scent 4")
    assert (state.page, state.matches) == (1, 5) and state.page_text == "Page 1 of 1 · 5 products"
    await state.set_search("")
    await state.go_to_page(2)
    glossy = state.rows[0].id
    await state.toggle_active(glossy)  # the current page is read again, the cards too
    assert state.page == 2 and state.active == 47
    await edit.open_edit(glossy)  # a product of another page than the first
    assert edit.edit_open and edit.edit_name == state.rows[0].name

    await grouped.load()
    assert (grouped.group_count, grouped.variant_count, grouped.matches) == (4, 48, 4)
    glossy_group = grouped.groups[0]
    assert (glossy_group.base_name, glossy_group.label, glossy_group.variants) == (
        "Glossy",
        "45 scent variants",
        [],
    )
    await grouped.toggle_group("glossy")
    assert len(grouped.groups[0].variants) == 20 and grouped.groups[0].more == "Show more (20 of 45 shown)"
    await grouped.show_more("glossy")
    await grouped.show_more("glossy")
    assert len(grouped.groups[0].variants) == 45 and grouped.groups[0].more == ""
    await grouped.toggle_group("glossy")
    assert grouped.groups[0].variants == [] and grouped.expanded == []
    await grouped.set_search("scent 07")
    assert [g.base_name for g in grouped.groups] == [
        "Glossy"
    ] and grouped.page_text == "Page 1 of 1 · 1 group"
