"""A Square catalogue on a fresh simulator for service and API tests: the real SDK in-process,
every exchange checked against Square's OpenAPI subset."""

from __future__ import annotations

from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.services.square.client import square_client_for_app
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from tests.unit.square.openapi import SpecChecker

_SPEC: SpecChecker | None = None


def spec_checker() -> SpecChecker:
    """Square's OpenAPI subset, loaded once per test session."""
    global _SPEC  # noqa: PLW0603 - loading the subset takes a while; one per session
    if _SPEC is None:
        _SPEC = SpecChecker()
    return _SPEC


def checked_catalog(ledger: SimulatorLedger) -> SquareCatalog:
    """A ``SquareCatalog`` on a simulator with ``ledger``, its exchanges checked against the spec."""
    client = square_client_for_app(create_simulator(ledger), timeout_s=5, event_hooks=spec_checker().hooks())
    return SquareCatalog(client, location_id=DEFAULT_LOCATION_ID)
