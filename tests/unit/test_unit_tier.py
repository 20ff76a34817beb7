"""The unit tier refuses the network and the database (tests/unit/conftest.py)."""

from __future__ import annotations

import socket
import sqlite3

import pytest
from pytest_socket import SocketBlockedError
from sqlalchemy import create_engine, text

from tests.unit.conftest import DatabaseRefusedError


def test_a_unit_test_cannot_open_a_network_connection() -> None:
    with pytest.raises(SocketBlockedError):
        socket.create_connection(("127.0.0.1", 5432), timeout=1)


def test_a_unit_test_cannot_open_a_database(tmp_path) -> None:
    with pytest.raises(DatabaseRefusedError):
        sqlite3.connect(tmp_path / "shop.db")
    engine = create_engine(f"sqlite:///{tmp_path / 'shop.db'}")
    with pytest.raises(DatabaseRefusedError), engine.connect() as connection:
        connection.execute(text("select 1"))
