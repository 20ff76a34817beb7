"""The simulator's fault switch: a client in another process (a browser test driving the running
shop) makes Square misbehave for real, with the simulator's token only."""

from __future__ import annotations

import warnings

from shop_app.square_simulator.app import FAULTS_PATH, create_simulator

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TOKEN = {"Authorization": "Bearer the-secret"}
ITEM = {
    "idempotency_key": "k-1",
    "object": {
        "type": "ITEM",
        "id": "#item",
        "item_data": {
            "name": "Fault Candle",
            "variations": [
                {
                    "type": "ITEM_VARIATION",
                    "id": "#variation",
                    "item_variation_data": {
                        "name": "Regular",
                        "pricing_type": "FIXED_PRICING",
                        "price_money": {"amount": 500, "currency": "CAD"},
                    },
                }
            ],
        },
    },
}


def _client() -> TestClient:
    return TestClient(create_simulator(access_token="the-secret"))


def test_a_fault_makes_the_next_matching_requests_fail_then_they_work_again() -> None:
    client = _client()

    switched = client.post(
        FAULTS_PATH, json={"path": "/v2/catalog/object", "method": "POST", "times": 2}, headers=TOKEN
    )

    assert switched.status_code == 200
    assert client.post("/v2/catalog/object", json=ITEM, headers=TOKEN).status_code == 500
    assert client.post("/v2/catalog/object", json=ITEM, headers=TOKEN).status_code == 500
    assert client.post("/v2/catalog/object", json=ITEM, headers=TOKEN).status_code == 200


def test_a_template_path_matches_every_object_and_delete_forgets_the_faults() -> None:
    client = _client()
    created = client.post("/v2/catalog/object", json=ITEM, headers=TOKEN).json()["catalog_object"]["id"]
    client.post(
        FAULTS_PATH,
        json={"path": "/v2/catalog/object/{object_id}", "method": "DELETE", "times": 5},
        headers=TOKEN,
    )

    assert client.delete(f"/v2/catalog/object/{created}", headers=TOKEN).status_code == 500
    assert client.get(f"/v2/catalog/object/{created}", headers=TOKEN).status_code == 200  # only DELETE
    assert client.delete(FAULTS_PATH, headers=TOKEN).status_code == 200
    assert client.delete(f"/v2/catalog/object/{created}", headers=TOKEN).status_code == 200


def test_the_switch_needs_the_token_and_a_valid_fault() -> None:
    client = _client()

    assert client.post(FAULTS_PATH, json={"path": "/v2/payments"}).status_code == 401
    assert client.delete(FAULTS_PATH, headers={"Authorization": "Bearer guess"}).status_code == 401
    for wrong in (
        {"path": "/receipt/preview/x"},
        {"path": "/v2/payments", "kind": "explode"},
        {"path": "/v2/payments", "kind": ["timeout"]},
        {"path": "/v2/payments", "times": 0},
        {"path": "/v2/payments", "times": True},
        {"path": "/v2/payments", "method": "PATCH"},
    ):
        answer = client.post(FAULTS_PATH, json=wrong, headers=TOKEN)
        assert answer.status_code == 400, wrong
        assert answer.json()["errors"][0]["category"] == "INVALID_REQUEST_ERROR"
    assert client.post("/v2/catalog/object", json=ITEM, headers=TOKEN).status_code == 200  # none was set
