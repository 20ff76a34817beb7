"""Run the Alembic migrations programmatically (used by the CLI, the run command and tests)."""

from __future__ import annotations

from alembic.config import Config
from sqlalchemy.engine import Engine

from alembic import command
from shop_app.db import get_engine
from shop_app.settings import PROJECT_ROOT


def alembic_config(*, configure_logging: bool = False) -> Config:
    """The project's Alembic configuration (``alembic.ini`` at the repository root)."""
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "alembic"))
    config.attributes["configure_logging"] = configure_logging
    return config


def upgrade(revision: str = "head", *, engine: Engine | None = None) -> None:
    """Upgrade the database to ``revision`` (default: the newest)."""
    _run(command.upgrade, revision, engine)


def downgrade(revision: str = "base", *, engine: Engine | None = None) -> None:
    """Downgrade the database to ``revision`` (default: empty)."""
    _run(command.downgrade, revision, engine)


def _run(action, revision: str, engine: Engine | None) -> None:
    config = alembic_config()
    with (engine or get_engine()).begin() as connection:
        config.attributes["connection"] = connection
        action(config, revision)
