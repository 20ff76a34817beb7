"""The shop's API app mounts the simulator at ``/_square`` in local mode, and only there."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from shop_app.api import create_api
from shop_app.settings import get_settings
from shop_app.square_simulator.app import shared_simulator, simulator_ledger
from shop_app.square_simulator.local_token import local_token
from tests.unit.square.openapi import SpecChecker

with warnings.catch_warnings():
    # Starlette 1.x prefers the httpx2 package for its TestClient; httpx (installed) works alike.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

TOKEN = {"Authorization": f"Bearer {local_token()}"}  # the shop's own secret (local_token.py)
ApiFor = Callable[[str], "TestClient"]
BODY = {
    "source_id": "cnon:card-nonce-ok",
    "idempotency_key": "k-1",
    "amount_money": {"amount": 1500, "currency": "CAD"},
}


@pytest.fixture
def api_for(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[ApiFor]:
    """Builds ``create_api()`` for a Square mode, with fresh settings and a fresh shared simulator."""

    def build(mode: str) -> TestClient:
        monkeypatch.setenv("SQUARE_ENVIRONMENT", mode)
        monkeypatch.setenv("SITE_URL", "https://candles.example")
        monkeypatch.setenv("MEDIA_DIR", str(tmp_path / "media"))
        get_settings.cache_clear()
        shared_simulator.cache_clear()
        return TestClient(create_api(), base_url="https://candles.example")

    yield build
    get_settings.cache_clear()
    shared_simulator.cache_clear()


def test_local_mode_serves_the_simulator_under_square(api_for: ApiFor, spec: SpecChecker) -> None:
    client = api_for("local")

    response = client.post("/_square/v2/payments", json=BODY, headers=TOKEN)

    assert response.status_code == 200
    assert spec.request_errors(response.request, prefix="/_square") == []
    assert spec.response_errors(response, prefix="/_square") == []
    payment = response.json()["payment"]
    assert payment["status"] == "COMPLETED"
    assert payment["receipt_url"] == f"https://candles.example/_square/receipt/preview/{payment['id']}"
    assert [p["id"] for p in simulator_ledger(shared_simulator()).payments()] == [payment["id"]]
    assert response.headers["x-content-type-options"] == "nosniff"  # the shop's middleware still applies
    assert client.post("/_square/v2/payments", json=BODY).status_code == 401
    # The shop's card form sends the bare sandbox values for every order: they may be reused here.
    again = client.post("/_square/v2/payments", json={**BODY, "idempotency_key": "k-2"}, headers=TOKEN)
    assert (again.status_code, again.json()["payment"]["status"]) == (200, "COMPLETED")
    assert client.get("/_square/receipt/preview/" + payment["id"]).status_code == 200


def test_only_the_shops_secret_opens_the_mounted_simulator(api_for: ApiFor) -> None:
    """Its payments list names every buyer, order number and receipt: a visitor gets 401."""
    client = api_for("local")
    client.post("/_square/v2/payments", json=BODY, headers=TOKEN)

    for guess in ("x", "local-simulator", "e2e", local_token() + "x"):
        headers = {"Authorization": f"Bearer {guess}"}
        assert client.get("/_square/v2/payments", headers=headers).status_code == 401
        assert client.post("/_square/v2/refunds", json={}, headers=headers).status_code == 401
    assert client.get("/_square/v2/payments", headers=TOKEN).status_code == 200


@pytest.mark.parametrize("mode", ["sandbox", "production"])
def test_sandbox_and_production_mount_nothing(api_for: ApiFor, mode: str) -> None:
    client = api_for(mode)

    response = client.post("/_square/v2/payments", json=BODY, headers={"Authorization": "Bearer any-token"})

    assert response.status_code == 404
    assert client.get("/_square/v2/locations", headers={"Authorization": "Bearer t"}).status_code == 404


def test_other_routes_are_still_there(api_for: ApiFor) -> None:
    paths = {getattr(route, "path", None) for route in api_for("local").app.routes}

    assert {"/api/health", "/product/{id}", "/sitemap.xml", "/media", "/_square"} <= paths
