"""GET /api/health for monitors and load balancers: the database and, when used, Redis (the
production tests see it answer 200 with Redis, and 503 while PostgreSQL is down)."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from shop_app.api import create_api
from tests.support.servers import free_port

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


def test_ok_without_redis(app_env: Callable[..., None], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REFLEX_REDIS_URL", raising=False)
    app_env()

    response = TestClient(create_api()).get("/api/health")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "not used"}
    assert response.headers["cache-control"] == "no-store"


def test_unavailable_when_redis_does_not_answer(app_env: Callable[..., None]) -> None:
    app_env(REFLEX_REDIS_URL=f"redis://127.0.0.1:{free_port()}")

    response = TestClient(create_api()).get("/api/health")

    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "ok", "redis": "unreachable"}


def test_unavailable_when_the_database_does_not_answer(app_env: Callable[..., None]) -> None:
    app_env(DATABASE_URL=f"postgresql+psycopg://shop@127.0.0.1:{free_port()}/shop", REFLEX_REDIS_URL="")

    response = TestClient(create_api()).get("/api/health")

    assert response.status_code == 503
    assert response.json()["database"] == "unreachable"
