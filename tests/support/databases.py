"""Throw-away databases for tests: an SQLite file, or a fresh PostgreSQL database.

Tests never rely on what a shared server holds: each run creates its own database and drops it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url
from sqlmodel import SQLModel

from shop_app import migrate
from shop_app.db import create_db_engine

TEST_DATABASE_URL_ENV = "TEST_DATABASE_URL"


def postgres_base_url() -> str | None:
    """The PostgreSQL server to test against, when configured."""
    return os.environ.get(TEST_DATABASE_URL_ENV) or None


@contextmanager
def temporary_database(tmp_dir: Path) -> Iterator[str]:
    """Yield the URL of a new, empty database; drop it afterwards.

    PostgreSQL when ``TEST_DATABASE_URL`` is set (failing loudly if the server is unreachable),
    otherwise an SQLite file under ``tmp_dir``.
    """
    base = postgres_base_url()
    if base is None:
        yield f"sqlite:///{tmp_dir / f'shop-{uuid.uuid4().hex[:8]}.db'}"
        return
    name = f"shop_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def migrated_engine(url: str) -> Iterator[Engine]:
    """An engine on ``url`` with every migration applied."""
    engine = create_db_engine(url)
    try:
        migrate.upgrade(engine=engine)
        yield engine
    finally:
        engine.dispose()


def delete_all_rows(engine: Engine) -> None:
    """Empty every table (children first), keeping the schema."""
    with engine.begin() as connection:
        for table in reversed(SQLModel.metadata.sorted_tables):
            connection.execute(table.delete())
