"""A throw-away, migrated and seeded database for the benchmarks.

SQLite: a file in a temporary folder. PostgreSQL: a new database created next to the one the
given URL names (which only serves as the admin connection) and dropped at the end, so nothing
depends on what the server holds.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session

import shop_app.models  # noqa: F401 - registers every table
from shop_app import migrate
from shop_app.db import create_db_engine, throwaway_database
from shop_app.services import seeding


@dataclass(frozen=True, slots=True)
class SeededDatabase:
    """A migrated database holding a synthetic catalogue."""

    url: str
    engine: Engine
    media_dir: Path
    products: int
    seed_seconds: float  # load_synthetic + commit
    migrate_seconds: float
    analyzed: bool  # statistics gathered (ANALYZE) after the load

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name


@contextmanager
def seeded_database(
    *, products: int, admin_url: str | None = None, seed: int = 0, analyze: bool | None = None
) -> Iterator[SeededDatabase]:
    """A fresh database migrated to head with ``products`` synthetic products.

    ``analyze``: gather planner statistics after the load. The default (None) does it on
    PostgreSQL (``VACUUM (ANALYZE)``: what autovacuum does shortly after a bulk load, which also
    enables index-only scans), not on SQLite, which never gathers statistics by itself (a shop
    seeded with ``seed --products`` has none).
    """
    with (
        tempfile.TemporaryDirectory(prefix="shop-bench-") as tmp,
        throwaway_database(admin_url, sqlite_dir=Path(tmp), prefix="shop_bench") as url,
    ):
        media_dir = Path(tmp) / "media"
        media_dir.mkdir()
        engine = create_db_engine(url)
        try:
            started = time.perf_counter()
            migrate.upgrade(engine=engine)
            migrated = time.perf_counter()
            with Session(engine) as session:
                report = seeding.load_synthetic(session, count=products, media_dir=media_dir, seed=seed)
                session.commit()
            seeded = time.perf_counter()
            if analyze is None:
                analyze = engine.dialect.name == "postgresql"
            if analyze:
                _gather_statistics(engine)
            yield SeededDatabase(
                url=url,
                engine=engine,
                media_dir=media_dir,
                products=report.products,
                seed_seconds=seeded - migrated,
                migrate_seconds=migrated - started,
                analyzed=analyze,
            )
        finally:
            engine.dispose()


def _gather_statistics(engine: Engine) -> None:
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(sa.text("VACUUM (ANALYZE)"))
    else:
        with engine.begin() as connection:
            connection.execute(sa.text("ANALYZE"))
