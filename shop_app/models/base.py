"""Column helpers shared by every table."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

# JSON on every database, JSONB on PostgreSQL (indexable, compact).
JSONType = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def utcnow() -> datetime:
    """Current time, timezone-aware UTC (SQLModel refuses naive datetimes)."""
    return datetime.now(UTC)
