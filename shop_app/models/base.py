"""Column helpers shared by every table."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlmodel import SQLModel

# JSON on every database, JSONB on PostgreSQL (indexable, compact).
JSONType = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def utcnow() -> datetime:
    """Current time, timezone-aware UTC (SQLModel refuses naive datetimes)."""
    return datetime.now(UTC)


class HasId(Protocol):
    """A table row with an integer primary key (None until the row is first flushed)."""

    @property
    def id(self) -> int | None: ...


def saved_id(row: HasId) -> int:
    """The primary key of a row read from the database or flushed to it.

    Raises:
        ValueError: the row was never flushed (a bug: it has no key yet).
    """
    if row.id is None:
        raise ValueError(f"{type(row).__name__} has no id yet: flush it first")
    return row.id


def table_of(model: type[SQLModel]) -> sa.Table:
    """The Core table of a table model: its ``__table__``, which SQLModel's types do not declare."""
    table = sa.inspect(model).local_table
    if not isinstance(table, sa.Table):
        raise TypeError(f"{model.__name__} is not a table model")
    return table


def column_length(model: type[SQLModel], column: str) -> int:
    """The declared length of a string column of a table model (``max_length`` of its field)."""
    kind = table_of(model).c[column].type
    if isinstance(kind, sa.TypeDecorator):  # SQLModel's AutoString wraps a String
        kind = kind.impl_instance
    if not isinstance(kind, sa.String) or kind.length is None:
        raise TypeError(f"{model.__name__}.{column} is not a string column with a length")
    return kind.length
