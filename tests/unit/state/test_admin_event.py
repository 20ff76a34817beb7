"""``admin_event``: the one way a back-office handler is written (state/admin/guard.py).

The decorated functions are called the way Reflex calls a handler (``fn(state, **payload)``) on a
stand-in state whose ``_admin_user_id()`` answers what the database would.
"""

from __future__ import annotations

import inspect
import logging
import typing
from typing import Any

import pytest

from shop_app.domain.messages import ServiceMessage
from shop_app.state import event_guard
from shop_app.state.admin.guard import ADMIN_EVENT_MARK, admin_event

SECRET = "password=hunter2 at db.internal"


class FakeState:
    """What ``admin_event`` needs of a state: the role check, and the lock of a background task."""

    def __init__(self, admin_id: int | None) -> None:
        self.admin_id = admin_id
        self.ran: list[Any] = []
        self.locked = False
        self.checked_locked: list[bool] = []

    async def _admin_user_id(self) -> int | None:
        self.checked_locked.append(self.locked)
        return self.admin_id

    async def __aenter__(self) -> FakeState:
        self.locked = True
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.locked = False

    @admin_event
    async def rename(self, name: str, admin_id: int) -> str:
        self.ran.append((name, admin_id))
        return f"renamed by {admin_id}"

    @admin_event
    def set_flag(self, value: bool) -> None:
        self.ran.append(value)

    @admin_event(failure="Failed to save settings")
    async def explode(self) -> None:
        self.ran.append("explode")
        raise RuntimeError(SECRET)

    @admin_event
    async def plain_explode(self) -> None:
        raise ValueError(SECRET)

    @admin_event
    async def steps(self, count: int, admin_id: int):
        for step in range(count):
            yield f"step {step}"
        self.ran.append(admin_id)

    @admin_event(failure="Sync failed")
    async def steps_then_explode(self):
        yield "started"
        raise RuntimeError(SECRET)

    @admin_event(background=True)
    async def in_background(self, admin_id: int) -> None:
        self.ran.append(admin_id)


def notice(result: Any) -> tuple[str, str]:
    """The kind and text of the notification a handler returned."""
    (_, message), (_, kind) = result.args
    return kind._var_value, message._var_value


async def test_a_non_admin_is_refused_and_the_handler_never_runs(caplog: pytest.LogCaptureFixture) -> None:
    state = FakeState(None)

    with caplog.at_level(logging.WARNING):
        assert await FakeState.rename(state, name="x") is None
        assert await FakeState.set_flag(state, value=True) is None
        assert [update async for update in FakeState.steps(state, count=3)] == []

    assert state.ran == []
    assert "refused" in caplog.text and "FakeState.rename" in caplog.text


async def test_the_handler_receives_the_admin_id() -> None:
    state = FakeState(42)

    assert await FakeState.rename(state, name="Cedar") == "renamed by 42"
    assert state.ran == [("Cedar", 42)]


async def test_a_plain_handler_runs_after_the_check() -> None:
    state = FakeState(7)

    await FakeState.set_flag(state, value=True)

    assert state.ran == [True]
    assert inspect.iscoroutinefunction(FakeState.set_flag)


async def test_an_async_generator_stays_one_and_gets_the_admin_id() -> None:
    state = FakeState(9)

    assert inspect.isasyncgenfunction(FakeState.steps)
    assert [update async for update in FakeState.steps(state, count=2)] == ["step 0", "step 1"]
    assert state.ran == [9]


async def test_a_failure_is_logged_and_shown_without_the_exception_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = FakeState(1)

    with caplog.at_level(logging.ERROR):
        result = await FakeState.explode(state)

    assert notice(result) == ("error", "Failed to save settings")
    assert state.ran == ["explode"]
    assert "FakeState.explode failed" in caplog.text
    assert SECRET in caplog.text  # the traceback is in the log, for us
    assert SECRET not in str(result)  # never on the screen


async def test_without_its_own_message_a_failure_says_try_again() -> None:
    result = await FakeState.plain_explode(FakeState(1))

    assert notice(result) == ("error", ServiceMessage.TRY_AGAIN.value)


async def test_a_generator_that_fails_ends_with_the_failure_message() -> None:
    updates = [update async for update in FakeState.steps_then_explode(FakeState(1))]

    assert updates[0] == "started"
    assert notice(updates[1]) == ("error", "Sync failed")
    assert SECRET not in str(updates)


async def test_a_background_handler_checks_the_role_holding_the_state_lock() -> None:
    state = FakeState(3)

    await FakeState.in_background(state)

    assert state.checked_locked == [True]
    assert state.ran == [3]
    assert inspect.iscoroutinefunction(FakeState.in_background)


def test_reflex_and_the_event_guard_never_see_the_admin_id_parameter() -> None:
    for handler in (FakeState.rename, FakeState.steps, FakeState.in_background):
        assert "admin_id" not in inspect.signature(handler).parameters
        assert "admin_id" not in typing.get_type_hints(handler)
        assert getattr(handler, ADMIN_EVENT_MARK) is True

    assert [p.name for p in event_guard.handler_params(FakeState.rename)] == ["name"]
    assert typing.get_type_hints(FakeState.steps) == {"count": int}


def test_a_sync_generator_is_refused_when_the_class_is_written() -> None:
    with pytest.raises(TypeError, match="must be async"):

        @admin_event
        def stepwise(self: Any):  # pragma: no cover - never called
            yield None
