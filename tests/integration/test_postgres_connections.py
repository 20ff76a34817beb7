"""The shop's PostgreSQL connections (``shop_app.db.create_db_engine``): no JIT, and a plan for
the values at hand every time.

psycopg prepares a statement run five times, and PostgreSQL may then settle on one generic plan
for every value: for a search's LIKE pattern that plan was the trigram index, which a one- or
two-letter pattern makes read in full (a back-office keystroke "la": 46 ms, then 130-320 ms).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine

from shop_app.db import create_db_engine

SETTINGS = {"plan_cache_mode": "force_custom_plan", "jit": "off"}


class _Asked(Exception):
    """Stops the connection attempt once its parameters are known."""


def _options_sent(url: str) -> str:
    """The ``options`` the shop's engine gives psycopg for ``url`` (nothing is connected)."""
    engine = create_db_engine(url)
    seen: dict[str, Any] = {}

    @event.listens_for(engine, "do_connect")
    def _capture(_dialect: Any, _record: Any, _args: Any, params: dict[str, Any]) -> None:
        seen.update(params)
        raise _Asked

    try:
        engine.connect()
    except _Asked:
        pass
    finally:
        engine.dispose()
    return seen["options"]


def test_the_shops_postgresql_connections_ask_for_custom_plans_and_no_jit(engine: Engine) -> None:
    options = _options_sent("postgresql+psycopg://shop@127.0.0.1:5432/shop")
    for name, value in SETTINGS.items():
        assert f"-c {name}={value}" in options
    if engine.dialect.name == "postgresql":  # the PostgreSQL pass of .ci/run: the server agrees
        shop_engine = create_db_engine(engine.url.render_as_string(hide_password=False))
        try:
            with shop_engine.connect() as connection:
                for name, value in SETTINGS.items():
                    assert connection.execute(sa.text(f"SHOW {name}")).scalar_one() == value
        finally:
            shop_engine.dispose()
