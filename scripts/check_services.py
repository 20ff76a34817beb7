"""Exit non-zero unless the PostgreSQL and Redis servers named in the environment answer."""

from __future__ import annotations

import os
import sys

import redis
import sqlalchemy as sa


def main() -> int:
    """Check TEST_DATABASE_URL and REFLEX_REDIS_URL; print what is wrong."""
    problems = []
    database_url = os.environ.get("TEST_DATABASE_URL", "")
    redis_url = os.environ.get("REFLEX_REDIS_URL", "")
    if not database_url.startswith("postgresql"):
        problems.append(f"TEST_DATABASE_URL must name a PostgreSQL server, got {database_url!r}")
    else:
        try:
            with sa.create_engine(database_url).connect() as connection:
                connection.execute(sa.text("SELECT 1"))
        except sa.exc.SQLAlchemyError as error:
            problems.append(f"PostgreSQL at {database_url} is unreachable: {error.__class__.__name__}")
    if not redis_url:
        problems.append("REFLEX_REDIS_URL is not set")
    else:
        try:
            redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
        except redis.RedisError as error:
            problems.append(f"Redis at {redis_url} is unreachable: {error.__class__.__name__}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
