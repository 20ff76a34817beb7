"""Fixtures for tests that talk to the Square simulator through the real SDK (a pytest plugin,
registered in tests/conftest.py).

- ``ledger``: a fresh simulator ledger of the test's own; ``catalog``: a ``SquareCatalog`` on it,
  every exchange checked against Square's OpenAPI subset;
- ``shared_ledger``: the process-wide simulator's ledger (the one the shop mounts and its local
  mode calls in-process), emptied before and after the test;
- ``fast_sdk_retries``: the SDK's own retries without their back-off wait (``usefixtures``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.square_simulator.app import shared_simulator, simulator_ledger
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.square import checked_catalog


@pytest.fixture
def ledger() -> SimulatorLedger:
    return SimulatorLedger()


@pytest.fixture
def catalog(ledger: SimulatorLedger) -> SquareCatalog:
    return checked_catalog(ledger)


@pytest.fixture
def shared_ledger() -> Iterator[SimulatorLedger]:
    ledger = simulator_ledger(shared_simulator())
    ledger.reset()
    yield ledger
    ledger.reset()


@pytest.fixture
def fast_sdk_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("square.core.http_client._retry_timeout", lambda response, retries: 0.0)
