"""Alembic environment: migrates the database named by the shop's settings.

A caller may hand over an open connection in ``config.attributes["connection"]`` (the CLI and
the tests do), otherwise an engine is created from ``DATABASE_URL``.
"""

from __future__ import annotations

from logging.config import fileConfig

from sqlalchemy.engine import make_url
from sqlmodel import SQLModel

import shop_app.models  # noqa: F401 - registers every table on SQLModel.metadata
from alembic import context
from shop_app.db import create_db_engine
from shop_app.migrate import compared_on, is_modelled
from shop_app.settings import get_settings

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def _configure(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        include_name=is_modelled,
        include_object=compared_on(connection.dialect.name),
        render_as_batch=connection.dialect.name == "sqlite",
    )


def run_migrations_offline() -> None:
    """Emit SQL to stdout instead of running it."""
    context.configure(
        url=get_settings().database_url,
        target_metadata=target_metadata,
        literal_binds=True,
        compare_type=True,
        include_name=is_modelled,
        include_object=compared_on(make_url(get_settings().database_url).get_backend_name()),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run migrations on a live connection."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_db_engine(get_settings().database_url)
    try:
        with engine.connect() as connection:
            _configure(connection)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
