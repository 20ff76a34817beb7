"""The shop's SQLite connections (``shop_app.db``): a pooled connection starts each turn on today's
database, whatever the turn before it left behind.

A result read only in part keeps its statement, and with it the connection's read snapshot, alive
after the session ends (for instance while a logged exception's traceback holds it). Without the
pool's clean-up, the next session on that connection reads the past and cannot write.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from shop_app.db import create_db_engine, session_scope, write_transaction


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    # One pooled connection, so the second session surely gets the first one's connection.
    engine = create_db_engine(f"sqlite:///{tmp_path / 'shop.db'}", pool_size=1, max_overflow=0)
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        connection.exec_driver_sql("INSERT INTO notes (body) VALUES ('one'), ('two'), ('three')")
    yield engine
    engine.dispose()


def _someone_else_writes(engine: Engine, sql: str) -> None:
    other = create_db_engine(str(engine.url))
    try:
        with other.begin() as connection:
            connection.exec_driver_sql(sql)
    finally:
        other.dispose()


def test_a_half_read_result_does_not_leave_the_next_session_on_an_old_snapshot(engine: Engine) -> None:
    kept = []
    with session_scope(engine) as session:
        result = session.execute(sa.text("SELECT body FROM notes ORDER BY id"))
        assert result.fetchone() == ("one",)
        kept.append(result)  # still referenced, as a traceback would hold it

    _someone_else_writes(engine, "INSERT INTO notes (body) VALUES ('four')")

    with write_transaction(engine) as session:
        session.execute(sa.text("INSERT INTO notes (body) VALUES ('five')"))
    with session_scope(engine) as session:
        bodies = session.execute(sa.text("SELECT body FROM notes ORDER BY id")).scalars().all()
    assert bodies == ["one", "two", "three", "four", "five"]


def test_a_table_renamed_and_put_back_meanwhile_is_found_again(engine: Engine) -> None:
    kept = []
    _someone_else_writes(engine, "ALTER TABLE notes RENAME TO notes_aside")
    with session_scope(engine) as session:
        result = session.execute(sa.text("SELECT body FROM notes_aside ORDER BY id"))
        assert result.fetchone() == ("one",)
        kept.append(result)
    _someone_else_writes(engine, "ALTER TABLE notes_aside RENAME TO notes")

    with session_scope(engine) as session:
        assert session.execute(sa.text("SELECT count(*) FROM notes")).scalar_one() == 3


def test_a_transaction_that_read_writes_after_someone_else_committed(engine: Engine) -> None:
    """Read, someone else commits, then write: the transaction begins again with the write lock
    instead of failing with "database is locked" (SQLITE_BUSY_SNAPSHOT)."""
    with session_scope(engine) as session:
        seen = session.execute(sa.text("SELECT count(*) FROM notes")).scalar_one()
        _someone_else_writes(engine, "INSERT INTO notes (body) VALUES ('four')")
        session.execute(sa.text("INSERT INTO notes (body) VALUES (:body)"), {"body": f"after {seen}"})
        # The transaction now reads today's database, with the write lock held.
        assert session.execute(sa.text("SELECT count(*) FROM notes")).scalar_one() == 5
    with session_scope(engine) as session:
        bodies = session.execute(sa.text("SELECT body FROM notes ORDER BY id")).scalars().all()
    assert bodies == ["one", "two", "three", "four", "after 3"]


def test_a_transaction_that_already_wrote_is_not_begun_again(engine: Engine) -> None:
    """Once a transaction has written, starting it again would lose its writes: a conflict stays an
    error (the write lock it holds makes one impossible on SQLite: this checks the guard)."""
    with session_scope(engine) as session:
        session.execute(sa.text("INSERT INTO notes (body) VALUES ('mine')"))
        raw = session.connection().connection.dbapi_connection
        assert not raw.restart_for_write(sqlite3.OperationalError("database is locked"))
        assert raw.in_transaction
    with session_scope(engine) as session:
        assert session.execute(sa.text("SELECT count(*) FROM notes")).scalar_one() == 4


def test_the_write_lock_taken_up_front_is_not_begun_again(engine: Engine) -> None:
    with write_transaction(engine) as session:
        session.execute(sa.text("SELECT count(*) FROM notes")).scalar_one()
        raw = session.connection().connection.dbapi_connection
        assert not raw.restart_for_write(sqlite3.OperationalError("database is locked"))


def test_a_first_write_in_a_savepoint_keeps_its_savepoint_when_begun_again(engine: Engine) -> None:
    """As the wishlist and the mail outbox write (``session.begin_nested``): the savepoint is
    made again in the transaction begun again, so releasing or rolling back to it still works."""
    with session_scope(engine) as session:
        session.execute(sa.text("SELECT count(*) FROM notes")).scalar_one()
        _someone_else_writes(engine, "INSERT INTO notes (body) VALUES ('four')")
        with session.begin_nested():
            session.execute(sa.text("INSERT INTO notes (body) VALUES ('kept')"))
        try:
            with session.begin_nested():
                session.execute(sa.text("INSERT INTO notes (body) VALUES ('undone')"))
                raise LookupError
        except LookupError:
            pass
    with session_scope(engine) as session:
        bodies = session.execute(sa.text("SELECT body FROM notes ORDER BY id")).scalars().all()
    assert bodies == ["one", "two", "three", "four", "kept"]
