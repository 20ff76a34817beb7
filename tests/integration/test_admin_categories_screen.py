"""Manage Categories' handlers: admins only, and what the screen shows for each change
(docs/spec/admin-categories.md#screen, #rules, #messages). Runs on SQLite, and on PostgreSQL when
TEST_DATABASE_URL is set."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import reflex as rx
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import CategoryMessage
from shop_app.domain.categories import category_input
from shop_app.models import AdminRole, Category, User
from shop_app.services import sessions
from shop_app.services.admin import categories as service
from shop_app.state.admin.categories import ADD_SUB, NO_PARENT, CategoriesState
from shop_app.state.auth import AuthState


def _add(engine: Engine, name: str, parent: int | None = None) -> int:
    return service.create_category(category_input(name=name, parent=parent), engine=engine).id


@pytest.fixture
def people(app_env: Callable[..., None], session: Session) -> dict[str, Any]:
    """A customer's and an admin's session ids."""
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan", last_name="Shopper")
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner", last_name="Admin")
    session.add_all([customer, admin])
    session.commit()
    session.add(AdminRole(user_id=admin.id))
    customer_session = sessions.start(session, user=customer, remember_me=False)
    admin_session = sessions.start(session, user=admin, remember_me=False)
    session.commit()
    return {"customer": customer_session.state_key, "admin": admin_session.state_key}


async def _screen(session_key: str | None) -> CategoriesState:
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_key = session_key or ""
    return await root.get_state(CategoriesState)


async def test_the_handlers_refuse_non_admins(
    people: dict[str, Any], engine: Engine, session: Session
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
    people: dict[str, Any], engine: Engine, session: Session
) -> None:
    screen = await _screen(people["admin"])
    await screen.load()
    assert screen.loaded and screen.total == 0

    await screen.open_add_main()
    assert screen.dialog_title == "Add Main Category" and not screen.can_save
    await screen.set_name("Candles")
    result = await screen.save()
    assert CategoryMessage.CREATED.value in str(result) and not screen.dialog_open
    candles = screen.branches[0].category.id

    await screen.open_add_subcategory(candles)
    assert (screen.mode, screen.fixed_parent_name, screen.dialog_title) == (
        ADD_SUB,
        "Candles",
        "Add Subcategory",
    )
    await screen.set_name("Fall")
    await screen.save()
    assert [s.name for s in screen.branches[0].subcategories] == ["Fall"]
    assert (screen.total, screen.mains, screen.subcategories, screen.active) == (2, 1, 1, 2)

    # A duplicate keeps the dialog open with everything typed.
    await screen.open_add_main()
    await screen.set_name("Fall!")
    await screen.set_description("Kept")
    result = await screen.save()
    assert screen.dialog_open and screen.description == "Kept"
    assert screen.error == 'A category with the slug "fall" already exists' and screen.error in str(result)

    # Editing a main category with subcategories: it is not offered as its own parent, and stays main.
    await screen.open_edit(candles)
    assert screen.keeps_subcategories and [o.label for o in screen.parent_options] == ["None (main category)"]
    await screen.set_name("Soy Candles")
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
    people: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = await _screen(people["admin"])
    await screen.open_add_main()
    await screen.set_name("Candles")

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(service, "create_category", broken)
    result = await screen.save()

    assert screen.error == "Failed to create category" and "Failed to create category" in str(result)
    assert screen.dialog_open and screen.name == "Candles"
    assert isinstance(result, rx.event.EventSpec)


async def test_an_orphans_editor_starts_without_a_parent(
    people: dict[str, Any], engine: Engine, session: Session
) -> None:
    candles = _add(engine, "Candles")
    fall = _add(engine, "Fall", candles)
    deep = Category(name="Too Deep", slug="too-deep", parent_id=fall)  # written outside the back office
    session.add(deep)
    session.commit()
    screen = await _screen(people["admin"])

    await screen.load()
    assert [o.name for o in screen.orphans] == ["Too Deep"]
    await screen.open_edit(deep.id)
    assert screen.parent == NO_PARENT and [o.label for o in screen.parent_options] == [
        "None (main category)",
        "Candles",
    ]
    await screen.set_parent(str(candles))
    await screen.save()

    assert screen.orphans == [] and [s.name for s in screen.branches[0].subcategories] == ["Fall", "Too Deep"]
