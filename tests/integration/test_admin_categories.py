"""Manage Categories: every rule and message of the service and the storefront reading the result
(docs/spec/admin-categories.md#screen, #rules, #messages, #records). The screen's handlers are in
``test_admin_categories_screen.py``.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import CategoryMessage
from shop_app.domain.categories import CategoryError, CategoryInput, category_input
from shop_app.domain.grouping import group_key
from shop_app.models import Category, Product
from shop_app.services.admin import categories as service
from shop_app.services.catalog import ShopQuery, category_counts, search, shop_page
from shop_app.services.catalog.filters import code_slug


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


def test_a_url_code_means_the_category_with_that_slug_before_a_legacy_one() -> None:
    assert code_slug("fall", {"fall", "fall-candle-collection"}) == "fall"
    assert code_slug("Fall", {"fall-candle-collection"}) == "fall-candle-collection"
    assert code_slug("bodycare", {"body-care"}) == "body-care"
