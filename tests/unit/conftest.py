"""The unit tier: rules and pure code, checked without a database or a network.

Every test under ``tests/unit`` runs with sockets refused (``pytest-socket``; the Unix socket
pairs asyncio's event loop makes for itself stay allowed), with SQLite refused, and without the
database fixtures: a test that needs any of them belongs in ``tests/integration``. This keeps the
tier fast (under a minute on two cores) and its failures about the rule under test, never about a
server or a disk being slow.
"""

from __future__ import annotations

import sqlite3
import sqlite3.dbapi2
from collections.abc import Iterator

import pytest
from pytest_socket import disable_socket, enable_socket

NO_DATABASE = "a unit test uses no database: move this test to tests/integration"


class DatabaseRefusedError(RuntimeError):
    """A unit test opened a database."""


@pytest.fixture(autouse=True)
def _no_network_and_no_database(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(*_args: object, **_kwargs: object) -> sqlite3.Connection:
        raise DatabaseRefusedError(NO_DATABASE)

    monkeypatch.setattr(sqlite3, "connect", refuse)
    monkeypatch.setattr(sqlite3.dbapi2, "connect", refuse)  # what SQLAlchemy calls
    disable_socket(allow_unix_socket=True)
    yield
    enable_socket()


@pytest.fixture(scope="session")
def database_url() -> str:
    pytest.fail(NO_DATABASE)
