"""Discount Codes' handlers: admins only, and what the screen shows for each change (issue 19,
acceptance 3). Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import reflex as rx
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_messages import DiscountAdminMessage as M
from shop_app.domain.discount_form import CODE, ENDS, KIND, MAX_USES, STARTS, VALUE
from shop_app.models import AdminRole, Category, DiscountCode, Product, User
from shop_app.services import sessions
from shop_app.services.admin import discounts as service
from shop_app.state.admin.discounts import DiscountsState
from shop_app.state.auth import AuthState


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


async def _screen(session_key: str | None) -> DiscountsState:
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_key = session_key or ""
    return await root.get_state(DiscountsState)


def _stored(session: Session) -> list[DiscountCode]:
    session.commit()  # a fresh read
    session.expire_all()
    return list(session.exec(select(DiscountCode).order_by(DiscountCode.id)).all())


async def test_the_handlers_refuse_customers_and_visitors(
    people: dict[str, Any], engine: Engine, session: Session
) -> None:
    service.create_code({CODE: "SPRING-10", KIND: "percent", VALUE: "10"}, engine=engine)
    code_id = _stored(session)[0].id or 0
    session.add(Product(name="Cedar Jar", base_price_cents=100))
    session.commit()
    for who in (None, people["customer"]):
        screen = await _screen(who)
        await screen.load()
        await screen.open_new()
        await screen.open_edit(code_id)
        await screen.search_products("cedar")
        screen.editing_id = 0
        await screen.save({CODE: "HACKED", VALUE: "100"})
        screen.editing_id, screen._version_seen = code_id, "anything"
        await screen.save({CODE: "SPRING-10", VALUE: "100"})
        await screen.set_active(code_id, False)

        assert screen.rows == [] and not screen.loaded and not screen.dialog_open
        assert screen.values == {} and screen.product_results == [] and screen.categories == []
    stored = _stored(session)
    assert [(c.code, c.value, c.is_active) for c in stored] == [("SPRING-10", 1000, True)]


async def test_an_admin_creates_lists_edits_and_switches_off_a_code(
    people: dict[str, Any], engine: Engine, session: Session
) -> None:
    candles = Category(name="Candles", slug="candles")
    session.add_all([candles, Product(name="Cedar Jar", sku="CJ-1", base_price_cents=100)])
    session.commit()
    screen = await _screen(people["admin"])
    await screen.load()
    assert screen.loaded and screen.rows == []

    await screen.open_new()
    assert screen.dialog_open and screen.dialog_title == "New Discount Code" and screen.kind == "percent"
    assert [c.label for c in screen.categories] == ["Candles"]
    await screen.set_kind("fixed")
    await screen.search_products("cedar")
    assert [c.label for c in screen.product_results] == ["Cedar Jar (CJ-1)"]
    await screen.add_product(screen.product_results[0].id)
    await screen.add_product(999_999)  # never offered: ignored
    await screen.set_category(candles.id or 0, True)
    await screen.set_category(999_998, True)  # not offered: ignored
    result = await screen.save({CODE: " jar-5 ", VALUE: "5", STARTS: "2020-12-01", ENDS: "2999-12-31"})

    assert M.CREATED.format(code="JAR-5") in str(result) and not screen.dialog_open
    row = screen.rows[0]
    assert (row.code, row.gives, row.status, row.orders, row.revenue) == (
        "JAR-5",
        "$5.00 off",
        "Active",
        0,
        "$0.00",
    )
    assert row.limits == "Dec 1, 2020 – Dec 31, 2999 · 1 product · 1 category"
    stored = _stored(session)[0]
    assert (stored.product_ids, stored.category_ids) == ([screen.chosen_products[0].id], [candles.id])

    # Edit: the stored values in the dialog; a bad field keeps everything typed.
    await screen.open_edit(row.id)
    assert screen.dialog_title == "Edit Discount Code" and screen.kind == "fixed"
    assert (screen.values[VALUE], screen.values[STARTS], screen.values[ENDS]) == (
        "5.00",
        "2020-12-01",
        "2999-12-31",
    )
    typed = {**screen.values, VALUE: "0", MAX_USES: "many"}
    result = await screen.save(typed)
    assert M.FIX_FIELDS.value in str(result) and screen.dialog_open
    assert set(screen.errors) == {VALUE, MAX_USES} and screen.values[MAX_USES] == "many"

    await screen.set_kind("percent")
    assert set(screen.errors) == {MAX_USES}  # the value's message went with the kind
    result = await screen.save({**typed, VALUE: "12.5", MAX_USES: "50"})
    assert M.UPDATED.format(code="JAR-5") in str(result) and not screen.dialog_open
    assert (screen.rows[0].gives, screen.rows[0].limits.split(" · ")[1]) == ("12.5% off", "0 / 50 uses")

    result = await screen.set_active(row.id, False)
    assert M.DEACTIVATED.format(code="JAR-5") in str(result)
    assert (screen.rows[0].status, screen.rows[0].is_active) == ("Off", False)
    await screen.set_active(row.id, True)
    assert screen.rows[0].status == "Active"


async def test_a_stale_dialog_and_a_taken_code_say_so_and_keep_the_typing(
    people: dict[str, Any], engine: Engine, session: Session
) -> None:
    service.create_code({CODE: "SPRING-10", KIND: "percent", VALUE: "10"}, engine=engine)
    service.create_code({CODE: "SUMMER-10", KIND: "percent", VALUE: "10"}, engine=engine)
    spring = _stored(session)[0].id or 0
    first, second = await _screen(people["admin"]), await _screen(people["admin"])
    await first.open_edit(spring)
    await second.open_edit(spring)

    result = await first.save({**first.values, CODE: "summer-10"})
    assert first.errors == {CODE: M.CODE_TAKEN.format(code="SUMMER-10")} and M.FIX_FIELDS.value in str(result)
    await first.save({**first.values, CODE: "SPRING-15", VALUE: "15"})
    assert not first.dialog_open

    result = await second.save({**second.values, VALUE: "5"})
    assert (
        second.dialog_open
        and second.error == M.CHANGED_ELSEWHERE.value
        and M.CHANGED_ELSEWHERE.value in str(result)
    )
    assert second.values[VALUE] == "5"
    assert [(c.code, c.value) for c in _stored(session)] == [("SPRING-15", 1500), ("SUMMER-10", 1000)]

    result = await second.open_edit(999_999)
    assert M.NOT_FOUND.value in str(result)


async def test_a_server_failure_shows_a_plain_message(
    people: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = await _screen(people["admin"])
    await screen.open_new()

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(service, "create_code", broken)
    result = await screen.save({CODE: "SPRING-10", VALUE: "10"})

    assert screen.error == M.SAVE_FAILED.value and M.SAVE_FAILED.value in str(result)
    assert screen.dialog_open and screen.values[CODE] == "SPRING-10" and not screen.saving
    assert isinstance(result, rx.event.EventSpec)
