"""Throw-away databases for tests: an SQLite file, or a fresh PostgreSQL database.

Tests never rely on what a shared server holds: each run creates its own database and drops it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

from shop_app import migrate
from shop_app.db import create_db_engine, throwaway_database

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
    with throwaway_database(postgres_base_url(), sqlite_dir=tmp_dir, prefix="shop_test") as url:
        yield url


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
