"""Where a shop page request spends its time: per SQL statement, and the database's plans.

Statements are timed with SQLAlchemy's cursor events (from ``execute`` until the driver returns:
psycopg has fetched every row by then, sqlite3 only the first, which for sorted and grouped
queries is nearly all of the work). What is left of the request is Python: fetching and mapping
rows, building the cards, the session.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.services.catalog import ShopQuery, shop_page

from .timing import Mix

# (text the statement contains, label), first match wins.
_LABELS: tuple[tuple[str, str], ...] = (
    ("max(products.updated_at)", "search: vocabulary signature"),
    ("max(categories.updated_at)", "search: vocabulary signature (categories)"),
    ("SELECT products.name \nFROM products", "search: vocabulary rebuild"),
    ("SELECT categories.name", "search: vocabulary rebuild (categories)"),
    ("categories.slug, categories.id", "category lookup"),
    ("SELECT categories.id, categories.name", "search: category names"),
    ("AS kept", "search: matching products"),
    ("count(DISTINCT products.group_key)", "count groups (past the last page)"),
    ("GROUP BY products.group_key", "page of groups (+ number of groups)"),
    ("IN (SELECT anon_1.id", "first variations of those groups (+ images)"),
    ("row_number()", "first variations of those groups (+ images)"),
    ("SELECT count(*) AS count_1 \nFROM products", "count products (total)"),
    ("FROM products", "page of products (+ images)"),
)
_IGNORED = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def label_of(statement: str) -> str:
    """A short name for one of the shop page's statements."""
    for text, label in _LABELS:
        if text in statement:
            return label
    return " ".join(statement.split())[:60]


@dataclass(frozen=True, slots=True)
class Captured:
    """One executed statement."""

    statement: str
    parameters: Any
    ms: float


@contextmanager
def capture(engine: Engine) -> Iterator[list[Captured]]:
    """Record every statement ``engine`` executes inside the block, with its time."""
    captured: list[Captured] = []
    started: list[float] = []

    def before(_conn, _cursor, _statement, _parameters, _context, _many) -> None:
        started.append(time.perf_counter())

    def after(_conn, _cursor, statement, parameters, _context, _many) -> None:
        elapsed = (time.perf_counter() - started.pop()) * 1000
        if not statement.lstrip().upper().startswith(_IGNORED):
            captured.append(Captured(statement, parameters, elapsed))

    sa.event.listen(engine, "before_cursor_execute", before)
    sa.event.listen(engine, "after_cursor_execute", after)
    try:
        yield captured
    finally:
        sa.event.remove(engine, "before_cursor_execute", before)
        sa.event.remove(engine, "after_cursor_execute", after)


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Median time of each statement of one mix, and of the whole request."""

    mix: str
    statements: dict[str, float]  # label -> median ms (0 when a statement ran in some runs only)
    request_ms: float

    @property
    def python_ms(self) -> float:
        """The request minus its SQL."""
        return max(0.0, self.request_ms - sum(self.statements.values()))


def breakdown(engine: Engine, mixes: Sequence[Mix], *, runs: int = 20) -> list[Breakdown]:
    """Time each statement of each mix over ``runs`` requests (after one warm-up request)."""
    results = []
    for mix in mixes:
        per_label: dict[str, list[float]] = {}
        totals = []
        for run in range(runs + 1):
            with capture(engine) as captured:
                started = time.perf_counter()
                with Session(engine) as session:
                    shop_page(session, mix.query)
                elapsed = (time.perf_counter() - started) * 1000
            if run == 0:
                continue
            totals.append(elapsed)
            seen: dict[str, float] = {}
            for item in captured:
                label = label_of(item.statement)
                seen[label] = seen.get(label, 0.0) + item.ms
            for label, ms in seen.items():
                per_label.setdefault(label, []).append(ms)
        statements = {
            label: statistics.median(values + [0.0] * (runs - len(values)))
            for label, values in per_label.items()
        }
        results.append(Breakdown(mix.name, statements, statistics.median(totals)))
    return results


def explain(engine: Engine, query: ShopQuery) -> list[tuple[str, str, list[str]]]:
    """The plan of each statement of one request: (label, SQL, plan lines).

    SQLite: ``EXPLAIN QUERY PLAN``; PostgreSQL: ``EXPLAIN (ANALYZE, BUFFERS)`` (it runs them).
    """
    with capture(engine) as captured, Session(engine) as session:
        shop_page(session, query)
    sqlite = engine.dialect.name == "sqlite"
    prefix = "EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN (ANALYZE, BUFFERS) "
    plans = []
    with engine.connect() as connection:
        for item in captured:
            rows = connection.exec_driver_sql(prefix + item.statement, item.parameters).all()
            lines = [str(row[-1]) if sqlite else str(row[0]) for row in rows]
            plans.append((label_of(item.statement), item.statement, lines))
    return plans
