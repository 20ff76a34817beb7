"""Fixtures shared by the unit and integration suites."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy.engine import Engine
from sqlmodel import Session

import shop_app.models  # noqa: F401 - registers every table
from shop_app.db import reset_engine
from shop_app.settings import get_settings
from tests.support.databases import delete_all_rows, migrated_engine, temporary_database

# The machines are shared and slow at times (2 cores, other jobs beside ours): a property test
# must fail on its property, never on how long one example took (hypothesis' 200 ms deadline).
settings.register_profile("shop", deadline=None)
settings.load_profile("shop")


TESTS = Path(__file__).resolve().parent
TIERS = ("unit", "integration", "e2e", "production")


pytest_plugins = ["tests.support.square_fixtures"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier, from its folder (``-m unit``, ``-m "not e2e"``…)."""
    for item in items:
        tier = item.path.relative_to(TESTS).parts[0]
        if tier in TIERS:
            item.add_marker(tier)


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database for this test session (PostgreSQL when TEST_DATABASE_URL is set)."""
    with temporary_database(tmp_path_factory.mktemp("db")) as url:
        yield url


@pytest.fixture(scope="session")
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on the session's database, migrated to head."""
    with migrated_engine(database_url) as engine:
        yield engine


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    """A session on a database that is emptied after the test."""
    with Session(engine, expire_on_commit=False) as session:
        yield session
    delete_all_rows(engine)


@pytest.fixture
def media_dir(tmp_path: Path) -> Path:
    """A folder for rendered images."""
    path = tmp_path / "media"
    path.mkdir()
    return path


@pytest.fixture
def app_env(
    engine: Engine, database_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Callable[..., None]]:
    """Point the app's own settings and engine at the test database (and a media folder).

    Yields a function that sets more settings, e.g. ``app_env(SITE_URL="https://shop.example")``.
    """

    def configure(**settings: str) -> None:
        defaults = {"DATABASE_URL": database_url, "MEDIA_DIR": str(tmp_path / "media")}
        for name, value in {**defaults, **settings}.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()
        reset_engine()

    configure()
    yield configure
    reset_engine()
    get_settings.cache_clear()
