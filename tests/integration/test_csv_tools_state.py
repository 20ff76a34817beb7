"""CsvToolsState.import_csv, called the way Reflex calls it: admins import (or read the problems),
anyone else changes nothing."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import reflex as rx
from reflex.state import State
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.models import AdminRole, Product, User
from shop_app.services import sessions
from shop_app.state.admin.csv_tools import SHOWN_ISSUES, CsvToolsState
from shop_app.state.auth import AuthState


@pytest.fixture
def people(app_env: Callable[..., None], engine: Engine, session: Session) -> dict[str, Any]:
    """Session ids of a customer and an admin."""
    customer = User(email="fan@example.com", password_hash="x", first_name="Fan", last_name="Shopper")
    admin = User(email="owner@example.com", password_hash="x", first_name="Owner", last_name="Admin")
    session.add_all([customer, admin])
    session.commit()
    session.add(AdminRole(user_id=admin.id))
    customer_session = sessions.start(session, user=customer, remember_me=False)
    admin_session = sessions.start(session, user=admin, remember_me=False)
    session.commit()
    return {"customer": customer_session.state_key, "admin": admin_session.state_key}


async def _tools(session_key: str | None) -> CsvToolsState:
    root = State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth._session_key = session_key or ""
    return await root.get_state(CsvToolsState)


def _file(text: str, name: str = "products.csv") -> rx.UploadFile:
    return rx.UploadFile(file=io.BytesIO(text.encode()), path=Path(name))


async def _run(tools: CsvToolsState, *files: rx.UploadFile) -> list[Any]:
    return [event async for event in tools.import_csv(list(files)) if event is not None]


def _notices(events: list[Any]) -> list[tuple[str, str]]:
    """(kind, message) of each notification among the events."""
    shown = [e for e in events if isinstance(e, rx.event.EventSpec) and e.handler.fn.__name__ == "show"]
    return [tuple(str(value._var_value) for _name, value in reversed(e.args)) for e in shown]


def _products(session: Session) -> list[str]:
    session.rollback()
    return [p.name for p in session.exec(select(Product).order_by(Product.id))]


async def test_an_admin_imports_a_good_file(people: dict[str, Any], session: Session) -> None:
    tools = await _tools(people["admin"])

    events = await _run(tools, _file("name,base_price,stock_quantity\nFig,12.50,3\nRose,9,0\n"))

    assert _notices(events) == [("success", "Imported 2 products (2 new, 0 updated)")]
    assert tools.issues == [] and not tools.importing
    assert _products(session) == ["Fig", "Rose"]


async def test_one_product_and_one_problem_are_counted_in_the_singular(
    people: dict[str, Any], session: Session
) -> None:
    tools = await _tools(people["admin"])

    events = await _run(tools, _file("name,base_price\nFig,-1\n"))
    assert _notices(events) == [
        ("error", "Nothing was imported: the file has 1 problem. Correct the file and import it again.")
    ]
    events = await _run(tools, _file("name,base_price\nFig,12.50\n"))
    assert _notices(events) == [("success", "Imported 1 product (1 new, 0 updated)")]
    assert _products(session) == ["Fig"]


async def test_an_admin_reads_every_problem_of_a_bad_file_and_nothing_is_imported(
    people: dict[str, Any], session: Session
) -> None:
    tools = await _tools(people["admin"])
    bad = "name,base_price\n" + "Good,1\n" + ",-1\n" * (SHOWN_ISSUES + 4)

    events = await _run(tools, _file(bad))

    problems = 2 * (SHOWN_ISSUES + 4)
    assert _notices(events) == [
        (
            "error",
            f"Nothing was imported: the file has {problems} problems. Correct the file and import it again.",
        )
    ]
    assert tools.issues[0] == {"row": "3", "column": "name", "message": "A value is required."}
    assert len(tools.issues) == SHOWN_ISSUES and tools.hidden_issues == SHOWN_ISSUES + 8
    assert _products(session) == []

    await tools.clear_issues()
    assert tools.issues == [] and tools.hidden_issues == 0


async def test_a_file_that_is_not_csv_is_refused(people: dict[str, Any], session: Session) -> None:
    tools = await _tools(people["admin"])

    assert _notices(await _run(tools, _file("name,base_price\nA,1\n", "products.xlsx"))) == [
        ("error", "products.xlsx is not a .csv file")
    ]
    # A drop the picker refused: on_drop comes with no file (silent), on_drop_rejected explains.
    assert _notices(await _run(tools)) == []
    assert _notices([await tools.rejected()]) == [("error", "Choose one .csv file of at most 2 MB.")]
    assert _products(session) == []


@pytest.mark.parametrize("who", [None, "customer"])
async def test_nobody_else_imports(people: dict[str, Any], session: Session, who: str | None) -> None:
    tools = await _tools(people[who] if who else None)

    events = await _run(tools, _file("name,base_price\nSneaky,1\n"))

    assert events == [] and tools.issues == []
    assert await tools.rejected([]) is None
    assert _products(session) == []
