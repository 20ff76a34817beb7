"""Fixtures of the Square tests: a fresh simulator per test, SDK clients whose every request and
answer is checked against Square's OpenAPI subset, and fast SDK retries."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import square.core.http_client
from square import Square
from starlette.applications import Starlette

from shop_app.services.square.client import IN_PROCESS_BASE_URL, square_client_for_app
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import SimulatorLedger
from shop_app.square_simulator.transport import SimulatorTransport
from tests.unit.square.builders import PUBLIC_URL
from tests.unit.square.openapi import SpecChecker

SDK_WARNING = "ignore::pydantic.warnings.PydanticDeprecatedSince20:square"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The SDK's models use pydantic's deprecated ``__fields__``: not ours to fix."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.filterwarnings(SDK_WARNING))


@pytest.fixture(scope="session")
def spec() -> SpecChecker:
    """Square's OpenAPI subset, loaded once."""
    return SpecChecker()


@pytest.fixture(autouse=True)
def _fast_sdk_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The SDK waits 1 s, 2 s … between its own retries; tests do not."""
    monkeypatch.setattr(square.core.http_client, "_retry_timeout", lambda response, retries: 0.0)


@pytest.fixture
def ledger() -> SimulatorLedger:
    """A fresh ledger, with short fault delays."""
    return SimulatorLedger(fault_delay_s=0.5)


@pytest.fixture
def app(ledger: SimulatorLedger) -> Starlette:
    """A simulator on that ledger."""
    return create_simulator(ledger, public_url=PUBLIC_URL)


@pytest.fixture
def sdk(app: Starlette, spec: SpecChecker) -> Square:
    """The real SDK, in-process, with every exchange validated against the subset."""
    return square_client_for_app(app, timeout_s=5, event_hooks=spec.hooks())


@pytest.fixture
def raw(app: Starlette, spec: SpecChecker) -> Iterator[httpx.Client]:
    """Plain HTTP to the simulator (for requests the SDK would not send); answers are validated."""

    def check(response: httpx.Response) -> None:
        response.read()
        spec.check_response(response)

    with httpx.Client(
        transport=SimulatorTransport(app),
        base_url=IN_PROCESS_BASE_URL,
        headers={"Authorization": "Bearer test-token"},
        timeout=5,
        event_hooks={"response": [check]},
    ) as client:
        yield client
