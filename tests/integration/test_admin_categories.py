"""Manage Categories: every rule and message of the service, the storefront reading the result,
and the screen's handlers refusing non-admins (seed 001 §2-§5, §7, §8).

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import reflex as rx
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import CategoryMessage
from shop_app.domain.categories import CategoryError, CategoryInput, category_input
from shop_app.domain.grouping import group_key
from shop_app.models import AdminRole, Category, Product, User
from shop_app.services import sessions
from shop_app.services.admin import categories as service
from shop_app.services.catalog import ShopQuery, category_counts, search, shop_page
from shop_app.services.catalog.filters import code_slug
from shop_app.state.admin.categories import ADD_SUB, CategoriesState
from shop_app.state.auth import AuthState


@pytest.fixture(autouse=True)
def _emptied_after(session: Session) -> None:
    """Every test starts on an empty database (the session fixture empties it afterwards)."""


def _data(name: str, parent: int | None = None, **fields: object) -> CategoryInput:
    return category_input(name=name, parent=parent, **fields)


def _add(engine: Engine, name: str, parent: int | None = None, **fields: object) -> int:
    return service.create_category(_data(name, parent, **fields), engine=engine).id


def _product(session: Session, name: str, category: int | None, sub: int | None = None, **fields) -> Product:
    product = Product(
        name=name,
        group_key=group_key(name),
        base_price_cents=2800,
        stock_quantity=5,
        category_id=category,
        subcategory_id=sub,
        **fields,
    )
    session.add(product)
    session.commit()
    return product


def _refused(call: Callable[[], object]) -> str:
    with pytest.raises(CategoryError) as refused:
        call()
    return str(refused.value)


# --------------------------------------------------------------------------- create


def test_create_main_and_subcategory_with_the_seed_slug(engine: Engine, session: Session) -> None:
    candles = service.create_category(
        _data("Candles", description=" Soy ", sort_order="2", is_active=False), engine=engine
    )
    fall = service.create_category(_data("Fall Candle Collection", candles.id), engine=engine)

    assert (candles.slug, candles.description, candles.sort_order, candles.is_active) == (
        "candles",
        "Soy",
        2,
        False,
    )
    assert (fall.slug, fall.parent_id, fall.sort_order, fall.is_active) == (
        "fall-candle-collection",
        candles.id,
        0,
        True,
    )
    stored = session.exec(select(Category).order_by(Category.id)).all()
    assert [(c.name, c.parent_id) for c in stored] == [
        ("Candles", None),
        ("Fall Candle Collection", candles.id),
    ]


def test_a_duplicate_slug_is_refused_with_a_clear_message(engine: Engine, session: Session) -> None:
    _add(engine, "Hand & Body Lotion")

    message = _refused(lambda: _add(engine, "Hand Body Lotion!"))

    assert message == 'A category with the slug "hand-body-lotion" already exists'
    assert message == CategoryMessage.SLUG_TAKEN.format(slug="hand-body-lotion")
    assert len(session.exec(select(Category)).all()) == 1


def test_a_subcategory_goes_under_an_existing_main_category_only(engine: Engine) -> None:
    candles = _add(engine, "Candles")
    fall = _add(engine, "Fall", candles)

    assert _refused(lambda: _add(engine, "Deeper", fall)) == CategoryMessage.PARENT_NOT_MAIN
    assert _refused(lambda: _add(engine, "Nowhere", 9999)) == CategoryMessage.PARENT_NOT_FOUND


# --------------------------------------------------------------------------- update


def test_update_renames_and_the_slug_follows(engine: Engine, session: Session) -> None:
    candles = _add(engine, "Candles")

    updated = service.update_category(
        candles, _data("Soy Candles", description="New", sort_order="5"), engine=engine
    )

    assert (updated.name, updated.slug, updated.description, updated.sort_order) == (
        "Soy Candles",
        "soy-candles",
        "New",
        5,
    )
    row = session.get(Category, candles)
    assert row.slug == "soy-candles" and row.updated_at >= row.created_at
    # Keeping its own name is not a duplicate.
    service.update_category(candles, _data("Soy Candles", sort_order="6"), engine=engine)


def test_update_to_another_categorys_slug_is_refused(engine: Engine, session: Session) -> None:
    _add(engine, "Candles")
    body = _add(engine, "Body Care")

    message = _refused(lambda: service.update_category(body, _data("candles"), engine=engine))

    assert message == 'A category with the slug "candles" already exists'
    assert session.get(Category, body).name == "Body Care"


def test_a_category_cannot_be_its_own_parent(engine: Engine, session: Session) -> None:
    candles = _add(engine, "Candles")

    message = _refused(lambda: service.update_category(candles, _data("Candles", candles), engine=engine))

    assert message == CategoryMessage.OWN_PARENT
    assert session.get(Category, candles).parent_id is None


def test_a_main_category_with_subcategories_cannot_become_a_subcategory(
    engine: Engine, session: Session
) -> None:
    candles = _add(engine, "Candles")
    _add(engine, "Fall", candles)
    gifts = _add(engine, "Gifts")

    message = _refused(lambda: service.update_category(candles, _data("Candles", gifts), engine=engine))

    assert message == CategoryMessage.HAS_SUBCATEGORIES.format(name="Candles")
    assert "two levels" in message
    assert session.get(Category, candles).parent_id is None


def test_update_refuses_a_missing_category_or_parent(engine: Engine) -> None:
    candles = _add(engine, "Candles")

    assert (
        _refused(lambda: service.update_category(9999, _data("X"), engine=engine))
        == CategoryMessage.NOT_FOUND
    )
    assert (
        _refused(lambda: service.update_category(candles, _data("Candles", 9999), engine=engine))
        == CategoryMessage.PARENT_NOT_FOUND
    )


def test_moving_a_subcategory_refiles_its_products(engine: Engine, session: Session) -> None:
    candles, gifts = _add(engine, "Candles"), _add(engine, "Gifts")
    fall = _add(engine, "Fall", candles)
    in_fall = _product(session, "8oz Jar - Apple", candles, fall)
    only_candles = _product(session, "8oz Jar - Pine", candles)

    service.update_category(fall, _data("Fall", gifts), engine=engine)

    session.expire_all()
    assert (
        session.get(Product, in_fall.id).category_id,
        session.get(Product, in_fall.id).subcategory_id,
    ) == (
        gifts,
        fall,
    )
    assert session.get(Product, only_candles.id).category_id == candles
    # "fall" is also a legacy storefront code (Fall Candle Collection): the exact slug wins.
    assert [p.title for p in shop_page(session, ShopQuery(category="gifts", subcategory="fall")).cards] == [
        "8oz Jar - Apple"
    ]


def test_a_main_category_becoming_a_subcategory_takes_its_products_along(
    engine: Engine, session: Session
) -> None:
    candles, seasonal = _add(engine, "Candles"), _add(engine, "Seasonal")
    product = _product(session, "8oz Jar - Apple", seasonal)

    service.update_category(seasonal, _data("Seasonal", candles), engine=engine)

    session.expire_all()
    row = session.get(Product, product.id)
    assert (row.category_id, row.subcategory_id) == (candles, seasonal)


def test_a_subcategory_becoming_a_main_category_takes_its_products_along(
    engine: Engine, session: Session
) -> None:
    candles = _add(engine, "Candles")
    fall = _add(engine, "Fall", candles)
    product = _product(session, "8oz Jar - Apple", candles, fall)

    service.update_category(fall, _data("Fall", "none"), engine=engine)

    session.expire_all()
    row = session.get(Product, product.id)
    assert (row.category_id, row.subcategory_id) == (fall, None)


# --------------------------------------------------------------------------- delete


def test_delete_an_empty_category(engine: Engine, session: Session) -> None:
    gifts = _add(engine, "Gift Sets")

    service.delete_category(gifts, engine=engine)

    assert session.get(Category, gifts) is None
    assert _refused(lambda: service.delete_category(gifts, engine=engine)) == CategoryMessage.NOT_FOUND


def test_delete_refuses_a_category_with_subcategories(engine: Engine, session: Session) -> None:
    candles = _add(engine, "Candles")
    _add(engine, "Fall", candles)
    _add(engine, "Summer", candles)

    message = _refused(lambda: service.delete_category(candles, engine=engine))

    assert message == CategoryMessage.DELETE_HAS_SUBCATEGORIES.format(
        name="Candles", subcategories="2 subcategories"
    )
    assert session.get(Category, candles) is not None


def test_delete_refuses_a_category_with_products_even_archived_ones(engine: Engine, session: Session) -> None:
    candles = _add(engine, "Candles")
    fall = _add(engine, "Fall", candles)
    _product(session, "8oz Jar - Apple", candles, fall, is_active=False)

    message = _refused(lambda: service.delete_category(fall, engine=engine))

    assert message == (
        '"Fall" still has 1 product. Move them to another category first, or deactivate the category '
        "to hide it from the shop."
    )
    assert service.category_usage(session, candles) == service.CategoryUsage(subcategories=1, products=1)
    assert session.get(Category, fall) is not None


def test_list_categories_includes_inactive_ones(engine: Engine, session: Session) -> None:
    _add(engine, "Candles", sort_order="2")
    _add(engine, "Custom", is_active=False, sort_order="1")

    assert [(c.name, c.is_active) for c in service.list_categories(session)] == [
        ("Custom", False),
        ("Candles", True),
    ]


# --------------------------------------------------------------------------- storefront


def test_the_shop_pills_follow_renames_deactivation_and_order(engine: Engine, session: Session) -> None:
    candles, body = _add(engine, "Candles", sort_order="1"), _add(engine, "Body Care", sort_order="2")
    fall = _add(engine, "Fall", candles)
    _product(session, "8oz Jar - Apple", candles, fall)
    _product(session, "Lotion - Rose", body)

    service.update_category(fall, _data("Autumn", candles), engine=engine)
    service.update_category(body, _data("Body Care", sort_order="0"), engine=engine)

    counts = category_counts(session)
    assert [(c.name, c.count) for c in counts if c.parent_id is None] == [("Body Care", 1), ("Candles", 1)]
    assert [(c.name, c.slug, c.parent_id) for c in counts if c.parent_id] == [("Autumn", "autumn", candles)]
    session.rollback()  # a new snapshot (SQLite WAL)
    service.update_category(body, _data("Body Care", is_active=False), engine=engine)
    assert [c.name for c in category_counts(session)] == ["Autumn", "Candles"]


def test_without_active_categories_the_products_categories_stand_in(engine: Engine, session: Session) -> None:
    candles = _add(engine, "Candles", is_active=False)
    _add(engine, "Empty", is_active=False)
    _product(session, "8oz Jar - Apple", candles)

    assert [(c.name, c.count) for c in category_counts(session)] == [("Candles", 1)]


def test_a_renamed_category_is_in_the_search_vocabulary_at_once(engine: Engine, session: Session) -> None:
    candles = _add(engine, "Candles")
    _product(session, "8oz Jar - Apple", candles)
    assert "luminaries" not in " ".join(search.vocabulary(session))

    session.rollback()  # the next reads see the update (SQLite WAL snapshot)
    service.update_category(candles, _data("Luminaries"), engine=engine)

    # One typo away from the new name: corrected through the (refreshed) vocabulary.
    assert [c.title for c in shop_page(session, ShopQuery(search="luminaires")).cards] == ["8oz Jar - Apple"]


# --------------------------------------------------------------------------- the screen's handlers


@pytest.fixture
def people(app_env: Callable[..., None], session: Session) -> dict[str, int]:
    """A customer's and an admin's session ids."""
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan", last_name="Shopper")
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner", last_name="Admin")
    session.add_all([customer, admin])
    session.commit()
    session.add(AdminRole(user_id=admin.id))
    customer_session, _ = sessions.start(session, user=customer, remember_me=False)
    admin_session, _ = sessions.start(session, user=admin, remember_me=False)
    session.commit()
    return {"customer": customer_session.id, "admin": admin_session.id}


async def _screen(session_id: int | None) -> CategoriesState:
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_id = session_id
    return await root.get_state(CategoriesState)


async def test_the_handlers_refuse_non_admins(
    people: dict[str, int], engine: Engine, session: Session
) -> None:
    candles = _add(engine, "Candles")
    for who in (None, people["customer"]):
        screen = await _screen(who)
        await screen.load()
        await screen.open_add_main()
        await screen.open_edit(candles)
        screen.name, screen.mode, screen.editing_id = "Hacked", "edit", candles
        await screen.save()
        screen.delete_id = candles
        await screen.confirm_delete()
        await screen.ask_delete(candles)

        assert (
            screen.branches == [] and screen.total == 0 and not screen.dialog_open and not screen.delete_open
        )
    session.expire_all()
    assert [c.name for c in session.exec(select(Category)).all()] == ["Candles"]


async def test_an_admin_adds_edits_and_deletes_through_the_screen(
    people: dict[str, int], engine: Engine, session: Session
) -> None:
    screen = await _screen(people["admin"])
    await screen.load()
    assert screen.loaded and screen.total == 0

    await screen.open_add_main()
    assert screen.dialog_title == "Add Main Category" and not screen.can_save
    screen.set_name("Candles")
    result = await screen.save()
    assert CategoryMessage.CREATED.value in str(result) and not screen.dialog_open
    candles = screen.branches[0].category.id

    await screen.open_add_subcategory(candles)
    assert (screen.mode, screen.fixed_parent_name, screen.dialog_title) == (
        ADD_SUB,
        "Candles",
        "Add Subcategory",
    )
    screen.set_name("Fall")
    await screen.save()
    assert [s.name for s in screen.branches[0].subcategories] == ["Fall"]
    assert (screen.total, screen.mains, screen.subcategories, screen.active) == (2, 1, 1, 2)

    # A duplicate keeps the dialog open with everything typed.
    await screen.open_add_main()
    screen.set_name("Fall!")
    screen.set_description("Kept")
    result = await screen.save()
    assert screen.dialog_open and screen.description == "Kept"
    assert screen.error == 'A category with the slug "fall" already exists' and screen.error in str(result)

    # Editing a main category with subcategories: it is not offered as its own parent, and stays main.
    await screen.open_edit(candles)
    assert screen.keeps_subcategories and [o.label for o in screen.parent_options] == ["None (main category)"]
    screen.set_name("Soy Candles")
    result = await screen.save()
    assert CategoryMessage.UPDATED.value in str(result)
    assert screen.branches[0].category.name == "Soy Candles"

    await screen.ask_delete(candles)
    assert screen.delete_open and screen.delete_blocker.startswith('"Soy Candles" still has 1 subcategory.')
    fall = screen.branches[0].subcategories[0].id
    await screen.ask_delete(fall)
    assert screen.delete_blocker == ""
    result = await screen.confirm_delete()
    assert CategoryMessage.DELETED.value in str(result) and not screen.delete_open
    assert screen.subcategories == 0


async def test_a_server_failure_shows_the_seeds_generic_message(
    people: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = await _screen(people["admin"])
    await screen.open_add_main()
    screen.set_name("Candles")

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(service, "create_category", broken)
    result = await screen.save()

    assert screen.error == "Failed to create category" and "Failed to create category" in str(result)
    assert screen.dialog_open and screen.name == "Candles"
    assert isinstance(result, rx.event.EventSpec)


def test_a_url_code_means_the_category_with_that_slug_before_a_legacy_one() -> None:
    assert code_slug("fall", {"fall", "fall-candle-collection"}) == "fall"
    assert code_slug("Fall", {"fall-candle-collection"}) == "fall-candle-collection"
    assert code_slug("bodycare", {"body-care"}) == "body-care"
