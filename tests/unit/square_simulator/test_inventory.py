"""Inventory API of the simulator: changes (physical counts, adjustments) and counts, via the SDK."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from square import Square
from square.core.api_error import ApiError

from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from tests.unit.square.builders import count

LOC = DEFAULT_LOCATION_ID


@pytest.fixture
def variations(sdk: Square) -> list[str]:
    """Two item variations in the simulator's catalogue."""
    response = sdk.catalog.object.upsert(
        idempotency_key="seed",
        object={
            "type": "ITEM",
            "id": "#candle",
            "item_data": {
                "name": "Candle",
                "variations": [
                    {"type": "ITEM_VARIATION", "id": f"#v{i}", "item_variation_data": {"name": f"Size {i}"}}
                    for i in range(2)
                ],
            },
        },
    )
    return [v.id for v in response.catalog_object.item_data.variations]


def sale(variation_id: str, quantity: str, **location: str) -> dict[str, Any]:
    return {
        "type": "ADJUSTMENT",
        "adjustment": {
            "catalog_object_id": variation_id,
            "from_state": "IN_STOCK",
            "to_state": "SOLD",
            "quantity": quantity,
            "occurred_at": "2026-01-02T00:00:00Z",
            **(location or {"location_id": LOC}),
        },
    }


def stock(sdk: Square, *ids: str) -> dict[str, str]:
    return {
        c.catalog_object_id: c.quantity for c in sdk.inventory.batch_get_counts(catalog_object_ids=list(ids))
    }


def test_physical_count_then_counts(sdk: Square, variations: list[str], ledger: SimulatorLedger) -> None:
    response = sdk.inventory.batch_create_changes(
        idempotency_key="c-1", changes=[count(variations[0], "10"), count(variations[1], "2.5")]
    )

    assert [(c.catalog_object_id, c.state, c.quantity) for c in response.counts] == [
        (variations[0], "IN_STOCK", "10"),
        (variations[1], "IN_STOCK", "2.5"),
    ]
    assert response.counts[0].location_id == LOC
    assert response.counts[0].catalog_object_type == "ITEM_VARIATION"
    assert stock(sdk, *variations) == {variations[0]: "10", variations[1]: "2.5"}
    assert len(ledger.inventory_changes()) == 2
    assert all(change[change["type"].lower()]["id"] for change in ledger.inventory_changes())


@pytest.mark.parametrize(
    "location",
    [{"location_id": LOC}, {"from_location_id": LOC, "to_location_id": LOC}, {"from_location_id": LOC}],
)
def test_adjustments_move_stock_out_of_in_stock(
    sdk: Square, variations: list[str], location: dict[str, str]
) -> None:
    sdk.inventory.batch_create_changes(idempotency_key="c-1", changes=[count(variations[0], "10")])

    response = sdk.inventory.batch_create_changes(
        idempotency_key="c-2", changes=[sale(variations[0], "3", **location)]
    )

    assert [(c.state, c.quantity) for c in response.counts] == [("IN_STOCK", "7")]
    assert stock(sdk, variations[0]) == {variations[0]: "7"}


def test_replaying_a_change_applies_it_once(sdk: Square, variations: list[str]) -> None:
    sdk.inventory.batch_create_changes(idempotency_key="c-1", changes=[count(variations[0], "10")])
    for _ in range(2):
        sdk.inventory.batch_create_changes(idempotency_key="c-2", changes=[sale(variations[0], "4")])

    assert stock(sdk, variations[0]) == {variations[0]: "6"}
    with pytest.raises(ApiError) as caught:
        sdk.inventory.batch_create_changes(idempotency_key="c-2", changes=[sale(variations[0], "5")])
    assert caught.value.errors[0].code == "IDEMPOTENCY_KEY_REUSED"


def test_counts_filters_and_pages(sdk: Square, variations: list[str]) -> None:
    sdk.inventory.batch_create_changes(
        idempotency_key="c-1",
        changes=[count(variations[0], "1"), count(variations[1], "2"), count(variations[1], "5", "LSECOND")],
    )

    assert len(list(sdk.inventory.batch_get_counts(limit=1))) == 3
    by_location = sdk.inventory.batch_get_counts(location_ids=["LSECOND"])
    assert [(c.catalog_object_id, c.quantity) for c in by_location] == [(variations[1], "5")]
    assert list(sdk.inventory.batch_get_counts(states=["WASTE"])) == []
    assert list(sdk.inventory.batch_get_counts(updated_after="2999-01-01T00:00:00Z")) == []
    assert len(list(sdk.inventory.batch_get_counts(updated_after="2000-01-01T00:00:00Z"))) == 3


NO_OBJECT = {
    "type": "PHYSICAL_COUNT",
    "physical_count": {"state": "IN_STOCK", "location_id": LOC, "quantity": "1"},
}


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (count("UNKNOWNVARIATION", "1"), "INVALID_VALUE"),
        (NO_OBJECT, "MISSING_REQUIRED_PARAMETER"),
        ({"type": "TRANSFER", "transfer": {}}, "BAD_REQUEST"),
    ],
)
def test_bad_changes_are_refused_and_nothing_changes(
    sdk: Square, variations: list[str], ledger: SimulatorLedger, change: dict[str, Any], code: str
) -> None:
    with pytest.raises(ApiError) as caught:
        sdk.inventory.batch_create_changes(idempotency_key="bad", changes=[count(variations[0], "3"), change])

    assert caught.value.status_code == 400
    assert caught.value.errors[0].code == code
    assert ledger.inventory_counts() == []


@pytest.mark.parametrize("quantity", ["ten", "1.123456", "-1", "1e3"])
def test_quantities_are_decimal_strings(sdk: Square, variations: list[str], quantity: str) -> None:
    with pytest.raises(ApiError) as caught:
        sdk.inventory.batch_create_changes(idempotency_key="q", changes=[count(variations[0], quantity)])

    assert (caught.value.errors[0].code, caught.value.errors[0].field) == (
        "INVALID_VALUE",
        "changes[0].physical_count.quantity",
    )


def test_an_adjustment_of_zero_is_refused(sdk: Square, variations: list[str]) -> None:
    with pytest.raises(ApiError):
        sdk.inventory.batch_create_changes(idempotency_key="z", changes=[sale(variations[0], "0")])


def test_counts_limit_must_be_at_most_1000(raw: httpx.Client) -> None:
    response = raw.post("/v2/inventory/counts/batch-retrieve", json={"limit": 1001})

    assert response.status_code == 400
