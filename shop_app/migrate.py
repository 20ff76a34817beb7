"""Run the Alembic migrations programmatically (used by the CLI, the run command and tests)."""

from __future__ import annotations

from collections.abc import Callable

from alembic.config import Config
from sqlalchemy.engine import Engine

from alembic import command
from shop_app.db import get_engine
from shop_app.settings import PROJECT_ROOT

# What the migrations make that autogenerate cannot compare with the models: the expression index
# of the display price (revisions 4b9a3f802bb3, c81d5e0f3a69; SQLite cannot reflect it, PostgreSQL
# reflects its own rewriting of it). tests/integration/test_vessel_groups.py checks that it is there and used.
UNCOMPARED_INDEXES = frozenset({"ix_products_display_price"})


def is_modelled(name: str | None, type_: str, _parent_names: object = None) -> bool:
    """Alembic's ``include_name``: False for :data:`UNCOMPARED_INDEXES`."""
    return not (type_ == "index" and name in UNCOMPARED_INDEXES)


def compared_on(dialect: str) -> Callable[[object, str | None, str, bool, object], bool]:
    """Alembic's ``include_object`` on ``dialect``: the models' side of :func:`is_modelled`, and
    none of the indexes the models make for another database only (``Index.ddl_if``)."""

    def is_compared(
        item: object, name: str | None, type_: str, _reflected: bool, _compare_to: object
    ) -> bool:
        only_on = getattr(getattr(item, "_ddl_if", None), "dialect", None)
        return is_modelled(name, type_) and only_on in (None, dialect)

    return is_compared


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
    """Run the migrations in one transaction. On SQLite, with foreign keys off meanwhile.

    SQLite alters a table in batch mode by copying it to a new table and dropping the old one;
    with foreign keys on (every connection of the shop: ``db.py``), dropping ``orders`` deleted
    every order's items, payments and refunds (ON DELETE CASCADE). So the checks are off while the
    migrations run (SQLite's own advice for altering tables; the pragma has no effect inside a
    transaction, so it is set before it begins), every reference is checked before the commit
    (``PRAGMA foreign_key_check``: a migration that broke one fails and changes nothing), and the
    checks are on again for whoever uses the connection next.
    """
    config = alembic_config()
    with (engine or get_engine()).connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        raw = connection.connection.driver_connection if sqlite else None
        if raw is not None:
            raw.execute("PRAGMA foreign_keys = OFF")
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                action(config, revision)
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        msg = f"the migration left references to missing rows: {broken[:5]}"
                        raise RuntimeError(msg)
        finally:
            if raw is not None:
                raw.execute("PRAGMA foreign_keys = ON")
