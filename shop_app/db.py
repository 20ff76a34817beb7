"""Database engine and sessions (plain SQLAlchemy/SQLModel, no Reflex).

One engine per process, created lazily so forked workers never share a connection pool.
SQLite runs with foreign keys enforced, WAL and a busy timeout; its transactions are started
explicitly so a writer can ask for ``BEGIN IMMEDIATE`` (see ``write_transaction``).
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
import uuid
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.settings import get_settings

log = logging.getLogger(__name__)

_SQLITE_BEGIN_OPTION = "sqlite_begin"
CONNECT_TIMEOUT_S = 5
_POSTGRESQL_SETTINGS = "-c jit=off -c plan_cache_mode=force_custom_plan"  # see create_db_engine

_engine: Engine | None = None
_engine_key: tuple[int, str] | None = None


def create_db_engine(url: str, **kwargs: Any) -> Engine:
    """Create an engine for ``url`` with the shop's connection settings."""
    if url.startswith("sqlite"):
        database = sa.engine.make_url(url).database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        connect_args = {"check_same_thread": False, "factory": _ShopSqliteConnection}
        engine = sa.create_engine(url, connect_args=connect_args, **kwargs)
        _configure_sqlite(engine)
        return engine
    if url.startswith("postgresql"):
        # No JIT: the planner starts it on its cost estimate, which grows with the catalogue; for
        # the shop's short statements the compilation (~10 ms a statement) costs more than it saves.
        # Always a plan for the values at hand: psycopg prepares a statement run five times, and
        # PostgreSQL may then settle on one generic plan for every value; for a search's LIKE
        # pattern that plan is the trigram index, which a one- or two-letter pattern makes read
        # the whole index (a back-office keystroke "la" went from 46 to 130-320 ms).
        # A connection attempt gives up after CONNECT_TIMEOUT_S instead of the operating system's
        # minutes, so a database that is down or unreachable fails a request quickly and clearly.
        # pool_pre_ping: a pooled connection that died with a database restart is replaced on
        # checkout instead of failing the first request after the restart.
        options = kwargs.pop("connect_args", {})
        kwargs["connect_args"] = {
            "connect_timeout": CONNECT_TIMEOUT_S,
            **options,
            "options": f"{_POSTGRESQL_SETTINGS} {options.get('options', '')}".strip(),
        }
    return sa.create_engine(url, pool_pre_ping=True, **kwargs)


_SAVEPOINT_STATEMENT = re.compile(
    r'\s*(SAVEPOINT|RELEASE|ROLLBACK\s+TO)\s+(?:SAVEPOINT\s+)?"?(\w+)"?\s*$', re.IGNORECASE
)


class _ShopSqliteConnection(sqlite3.Connection):
    """The shop's SQLite connection: it knows its open cursors, and a transaction that has only
    read so far starts again on today's database when its first write finds a newer one.

    **Open cursors.** A SELECT whose rows were not all read keeps its statement active, and an
    active statement keeps the connection's read snapshot, even after COMMIT or ROLLBACK (Python
    3.11 no longer resets cursors there). A result dropped half-read, say held by a logged
    exception's traceback until the garbage collector runs, would leave the pooled connection on
    an old snapshot: the next request on it reads a past database and cannot write. ``_on_checkin``
    closes them (``close_cursors``).

    **Read, then write.** A deferred transaction that read and then writes fails at once with
    "database is locked" (SQLITE_BUSY_SNAPSHOT, the busy timeout does not help) when another
    connection committed in between: its snapshot is older than the database. While it has
    written nothing, nothing is lost by starting it again, so ``restart_for_write`` rolls it back,
    begins it again with the write lock (``BEGIN IMMEDIATE``, which waits for the busy timeout),
    makes its open savepoints again (they hold nothing yet) and the write is run again. Reads made
    before stay what they were when they were made: the semantics of PostgreSQL's READ COMMITTED,
    which the shop's code already meets (a rule that must hold between a read and a write takes
    the lock up front, ``write_transaction``, or is a conditional update).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.open_cursors: weakref.WeakSet[sqlite3.Cursor] = weakref.WeakSet()
        self.deferred_from: int | None = None  # total_changes when a deferred transaction began
        self.savepoints: list[str] = []  # the transaction's open savepoints, outermost first

    def cursor(self, *args: Any, **kwargs: Any) -> Any:
        if not args and "factory" not in kwargs:
            kwargs["factory"] = _ShopSqliteCursor
        cursor = super().cursor(*args, **kwargs)
        self.open_cursors.add(cursor)
        return cursor

    def close_cursors(self) -> int:
        """Close every cursor still open on this connection; return how many there were."""
        cursors = list(self.open_cursors)
        self.open_cursors.clear()
        for cursor in cursors:
            cursor.close()
        return len(cursors)

    def began(self, mode: str) -> None:
        """A transaction began (``BEGIN {mode}``)."""
        self.deferred_from = self.total_changes if mode == "DEFERRED" else None
        self.savepoints = []

    def ran(self, sql: str) -> None:
        """Keep the list of open savepoints (``session.begin_nested``) up to date after ``sql``."""
        if (found := _SAVEPOINT_STATEMENT.match(sql)) is None:
            return
        verb, name = found.group(1).upper(), found.group(2)
        if verb == "SAVEPOINT":
            self.savepoints.append(name)
        elif name in self.savepoints:  # RELEASE drops it and those inside; ROLLBACK TO keeps it
            del self.savepoints[self.savepoints.index(name) + (verb == "RELEASE") :]

    def restart_for_write(self, error: sqlite3.OperationalError) -> bool:
        """After ``error``, start a deferred transaction that has written nothing again with the
        write lock, and say whether the statement may be run again."""
        if (
            str(error) != "database is locked"
            or not self.in_transaction
            or self.deferred_from is None
            or self.total_changes != self.deferred_from
        ):
            return False
        self.deferred_from = None
        sqlite3.Connection.execute(self, "ROLLBACK")
        sqlite3.Connection.execute(self, "BEGIN IMMEDIATE")
        for name in self.savepoints:  # empty so far: made again as they were
            sqlite3.Connection.execute(self, f'SAVEPOINT "{name}"')
        log.debug("a transaction that had only read began again with the write lock")
        return True


class _ShopSqliteCursor(sqlite3.Cursor):
    """Runs a statement again when its connection began its transaction again (see above)."""

    connection: _ShopSqliteConnection

    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        try:
            result = super().execute(sql, parameters)
        except sqlite3.OperationalError as error:
            if not self.connection.restart_for_write(error):
                raise
            result = super().execute(sql, parameters)
        self.connection.ran(sql)
        return result

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> Any:
        rows = list(seq_of_parameters)
        try:
            return super().executemany(sql, rows)
        except sqlite3.OperationalError as error:
            if not self.connection.restart_for_write(error):
                raise
        return super().executemany(sql, rows)


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA busy_timeout = 5000")
        if engine.url.database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        mode = connection.get_execution_options().get(_SQLITE_BEGIN_OPTION, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")
        if isinstance(raw := connection.connection.dbapi_connection, _ShopSqliteConnection):
            raw.began(mode)
        with _quiet:
            _open_transactions.add(id(connection.connection.dbapi_connection))

    def _ended(connection: sa.Connection) -> None:
        with _quiet:
            _open_transactions.discard(id(connection.connection.dbapi_connection))
            _quiet.notify_all()

    event.listen(engine, "commit", _ended)
    event.listen(engine, "rollback", _ended)

    @event.listens_for(engine, "checkin")
    def _on_checkin(dbapi_connection: Any, _record: Any) -> None:
        if isinstance(dbapi_connection, _ShopSqliteConnection) and (left := dbapi_connection.close_cursors()):
            log.info("closed %d cursor(s) left open on a pooled SQLite connection", left)
        with _quiet:
            _open_transactions.discard(id(dbapi_connection))
            _quiet.notify_all()


# SQLite: a transaction that read and then writes finds a newer database when another connection
# committed in between; it begins again with the write lock (``_ShopSqliteConnection``), which
# makes the click wait. A background writer (the Square outbox's pusher) waits for a quiet moment
# instead, so its commits do not land inside the transaction of a click.
_quiet = threading.Condition()
_open_transactions: set[int] = set()


def wait_for_quiet(engine: Engine | None = None, *, timeout_s: float = 2.0) -> None:
    """On SQLite, wait up to ``timeout_s`` until no transaction of this process is open (a
    background writer's courtesy, see above); elsewhere return at once."""
    if (engine or get_engine()).dialect.name != "sqlite":
        return
    with _quiet:
        _quiet.wait_for(lambda: not _open_transactions, timeout=timeout_s)


def get_engine() -> Engine:
    """Return this process's engine for the configured database URL."""
    global _engine, _engine_key  # noqa: PLW0603 - one lazily created engine per process
    key = (os.getpid(), get_settings().database_url)
    if _engine is None or _engine_key != key:
        _engine = create_db_engine(key[1])
        _engine_key = key
    return _engine


def reset_engine() -> None:
    """Dispose of the cached engine (tests switch databases with this)."""
    global _engine, _engine_key
    if _engine is not None:
        _engine.dispose()
    _engine, _engine_key = None, None


@contextmanager
def session_scope(engine: Engine | None = None) -> Iterator[Session]:
    """A session that commits when the block succeeds and rolls back when it raises."""
    with Session(engine or get_engine(), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


@contextmanager
def write_transaction(engine: Engine | None = None) -> Iterator[Session]:
    """A session whose transaction takes the write lock up front.

    On SQLite this is ``BEGIN IMMEDIATE``: a deferred read-then-write transaction can fail with
    SQLITE_BUSY at once under concurrency, whatever the busy timeout. On PostgreSQL it is an
    ordinary transaction (row locks and conditional updates do the work).
    """
    engine = engine or get_engine()
    if engine.dialect.name == "sqlite":
        engine = engine.execution_options(**{_SQLITE_BEGIN_OPTION: "IMMEDIATE"})
    with session_scope(engine) as session:
        yield session


def ping(engine: Engine | None = None) -> bool:
    """Whether the database answers a trivial query."""
    try:
        with (engine or get_engine()).connect() as connection:
            connection.execute(sa.text("SELECT 1"))
    except sa.exc.SQLAlchemyError:
        return False
    return True


@contextmanager
def throwaway_database(admin_url: str | None, *, sqlite_dir: Path, prefix: str = "shop_tmp") -> Iterator[str]:
    """Yield the URL of a new, empty database and drop it afterwards (tests and benchmarks).

    With ``admin_url`` (a PostgreSQL server) a database named ``{prefix}_<random>`` is created
    and dropped on it; without, the database is an SQLite file under ``sqlite_dir``.
    """
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    if not admin_url:
        yield f"sqlite:///{sqlite_dir / f'{name}.db'}"
        return
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield sa.engine.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
