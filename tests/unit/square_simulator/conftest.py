"""Fixtures of the simulator tests: those of the Square tests (``tests/unit/square/conftest.py``),
a fresh simulator per test and SDK clients whose every request and answer is checked against
Square's OpenAPI subset."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.square.conftest import SDK_WARNING, _fast_sdk_retries, app, ledger, raw, sdk, spec

__all__ = ["_fast_sdk_retries", "app", "ledger", "raw", "sdk", "spec"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The SDK's models use pydantic's deprecated ``__fields__``: not ours to fix."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.filterwarnings(SDK_WARNING))
