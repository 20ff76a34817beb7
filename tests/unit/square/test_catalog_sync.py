"""SquareCatalog through the real SDK against the simulator, every exchange checked against the
OpenAPI subset (the ``sdk`` fixture)."""

from __future__ import annotations

import pytest
from square import Square

from shop_app.services.square.catalog_sync import (
    COUNTS_PER_REQUEST,
    ITEMS_PER_BATCH,
    CatalogError,
    CatalogOutcome,
    CreatedItem,
    CreatedItems,
    ItemDraft,
    SquareCatalog,
    SquareItem,
    square_catalog,
)
from shop_app.services.square.client import SquareConfigError
from shop_app.settings import Settings, SquareEnvironment
from shop_app.square_simulator.app import shared_simulator, simulator_ledger
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from tests.unit.square.builders import item


@pytest.fixture
def catalog(sdk: Square) -> SquareCatalog:
    return SquareCatalog(sdk, location_id=DEFAULT_LOCATION_ID)


def create(catalog: SquareCatalog, **overrides: object) -> CreatedItem:
    arguments: dict = {
        "name": "Amber Jar - Vanilla",
        "description": "Hand-poured soy candle.",
        "sku": "AJ-VAN",
        "price_cents": 2450,
        "stock_quantity": 12,
        "idempotency_key": "create-1",
    }
    arguments.update(overrides)
    return catalog.create_item(**arguments)


def stock(ledger: SimulatorLedger, variation_id: str) -> str | None:
    found = [
        c["quantity"]
        for c in ledger.inventory_counts()
        if c["catalog_object_id"] == variation_id and c["state"] == "IN_STOCK"
    ]
    return found[0] if found else None


def test_create_makes_an_item_with_one_regular_variation_in_cad_cents_and_counts_stock(
    catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    created = create(catalog)

    assert created.ok and created.inventory_set and created.error == ""
    stored = {o["id"]: o for o in ledger.catalog_objects()}
    assert stored[created.item_id]["item_data"]["name"] == "Amber Jar - Vanilla"
    assert stored[created.item_id]["item_data"]["description"] == "Hand-poured soy candle."
    variation = stored[created.variation_id]["item_variation_data"]
    assert variation["item_id"] == created.item_id
    assert variation["name"] == "Regular"
    assert variation["sku"] == "AJ-VAN"
    assert variation["pricing_type"] == "FIXED_PRICING"
    assert variation["price_money"] == {"amount": 2450, "currency": "CAD"}
    assert stock(ledger, created.variation_id) == "12"
    (change,) = ledger.inventory_changes()
    assert change["type"] == "PHYSICAL_COUNT"
    assert change["physical_count"]["location_id"] == DEFAULT_LOCATION_ID


def test_create_without_sku_and_with_zero_stock(catalog: SquareCatalog, ledger: SimulatorLedger) -> None:
    created = create(catalog, sku=None, stock_quantity=0)

    assert created.ok and created.inventory_set
    variation = next(o for o in ledger.catalog_objects() if o["id"] == created.variation_id)
    assert "sku" not in variation["item_variation_data"]
    assert stock(ledger, created.variation_id) == "0"


def test_a_repeated_create_with_the_same_key_returns_the_same_item_and_counts_once(
    catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    first = create(catalog)
    again = create(catalog)

    assert again == first
    assert len([o for o in ledger.catalog_objects() if o["type"] == "ITEM"]) == 1
    assert len(ledger.inventory_changes()) == 1


def test_create_refused_by_square_answers_not_ok_with_squares_message(
    catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    create(catalog)
    reused = create(catalog, name="Something else")

    assert reused == CreatedItem(ok=False, error=reused.error)
    assert "idempotency key" in reused.error.lower()
    assert len([o for o in ledger.catalog_objects() if o["type"] == "ITEM"]) == 1


def test_create_when_square_cannot_be_reached(catalog: SquareCatalog, ledger: SimulatorLedger) -> None:
    ledger.fail_next("/v2/catalog/object", kind="drop_connection")

    created = create(catalog)

    assert created == CreatedItem(ok=False, error="Could not reach Square (RemoteProtocolError)")
    assert ledger.catalog_objects() == []


def test_a_failed_stock_count_keeps_the_item_and_says_why(
    catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    ledger.fail_next("/v2/inventory/changes/batch-create", kind="http_500", times=3)

    created = create(catalog)

    assert created.ok and created.item_id and created.variation_id
    assert created.inventory_set is False
    assert created.error == "An injected fault (simulator)."


@pytest.mark.parametrize(
    ("field", "value"),
    [("price_cents", 12.5), ("price_cents", -1), ("stock_quantity", -2), ("stock_quantity", True)],
)
def test_create_rejects_arguments_no_caller_should_send(
    catalog: SquareCatalog, field: str, value: object
) -> None:
    with pytest.raises(ValueError, match=field):
        create(catalog, **{field: value})


def test_create_rejects_an_idempotency_key_square_would_refuse(catalog: SquareCatalog) -> None:
    with pytest.raises(ValueError, match="idempotency_key"):
        create(catalog, idempotency_key="k" * 129)


DRAFTS = {
    "1": ItemDraft(name="Amber Jar - Fig", description="Fig and cedar.", sku="AJ-FIG", price_cents=2450),
    "2": ItemDraft(name="Tin - Rose", description="", sku=None, price_cents=1200),
}


def test_create_items_makes_each_item_with_its_regular_variation_in_one_batch(
    catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    created = catalog.create_items(DRAFTS, idempotency_key="push-1")

    assert created.ok and set(created.ids) == {"1", "2"}
    assert [r.path for r in ledger.requests()] == ["/v2/catalog/batch-upsert"]
    stored = {o["id"]: o for o in ledger.catalog_objects()}
    for ref, draft in DRAFTS.items():
        item_id, variation_id = created.ids[ref]
        assert stored[item_id]["item_data"] == {"name": draft.name, "description": draft.description}
        variation = stored[variation_id]["item_variation_data"]
        assert variation["item_id"] == item_id
        assert (variation["name"], variation["pricing_type"]) == ("Regular", "FIXED_PRICING")
        assert variation["price_money"] == {"amount": draft.price_cents, "currency": "CAD"}
        assert variation.get("sku") == draft.sku


def test_create_items_again_with_the_same_key_and_drafts_returns_the_same_items(
    catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    first = catalog.create_items(DRAFTS, idempotency_key="push-1")

    assert catalog.create_items(DRAFTS, idempotency_key="push-1") == first
    assert len(ledger.catalog_objects()) == 4
    refused = catalog.create_items({"3": DRAFTS["1"]}, idempotency_key="push-1")
    assert refused == CreatedItems(ok=False, ids={}, error=refused.error)
    assert "idempotency key" in refused.error.lower()


def test_create_items_when_square_cannot_be_reached(catalog: SquareCatalog, ledger: SimulatorLedger) -> None:
    ledger.fail_next("/v2/catalog/batch-upsert", kind="drop_connection")

    created = catalog.create_items(DRAFTS, idempotency_key="push-1")

    assert created == CreatedItems(ok=False, ids={}, error="Could not reach Square (RemoteProtocolError)")
    assert ledger.catalog_objects() == []


def test_create_items_keeps_to_one_batch_of_square(catalog: SquareCatalog) -> None:
    too_many = {str(n): DRAFTS["2"] for n in range(ITEMS_PER_BATCH + 1)}

    assert ITEMS_PER_BATCH * 2 == 1000  # an item and its variation count as two of Square's 1,000
    with pytest.raises(ValueError, match="drafts"):
        catalog.create_items(too_many, idempotency_key="k")
    with pytest.raises(ValueError, match="drafts"):
        catalog.create_items({}, idempotency_key="k")
    with pytest.raises(ValueError, match="idempotency_key"):
        catalog.create_items(DRAFTS, idempotency_key="k" * 129)
    with pytest.raises(ValueError, match="price_cents"):
        catalog.create_items(
            {"1": ItemDraft(name="A", description="", sku=None, price_cents=-1)}, idempotency_key="k"
        )


def test_count_stock_counts_several_variations_at_once(
    catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    created = catalog.create_items(DRAFTS, idempotency_key="push-1")
    (_, fig), (_, rose) = created.ids["1"], created.ids["2"]

    assert catalog.count_stock([(fig, 12), (rose, 0)]) == CatalogOutcome(ok=True)
    assert (stock(ledger, fig), stock(ledger, rose)) == ("12", "0")
    assert [r.path for r in ledger.requests()][-1] == "/v2/inventory/changes/batch-create"
    assert len(ledger.inventory_changes()) == 2


def test_count_stock_is_all_or_nothing_and_keeps_to_squares_limit(
    catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    _, fig = catalog.create_items(DRAFTS, idempotency_key="push-1").ids["1"]

    outcome = catalog.count_stock([(fig, 3), ("NOSUCHVARIATION", 1)])

    assert outcome == CatalogOutcome(ok=False, error="Item variation NOSUCHVARIATION not found.")
    assert ledger.inventory_counts() == []
    with pytest.raises(ValueError, match="counts"):
        catalog.count_stock([(fig, 1)] * (COUNTS_PER_REQUEST + 1))
    with pytest.raises(ValueError, match="quantity"):
        catalog.count_stock([(fig, -1)])


def test_delete_removes_the_item_and_its_variation(catalog: SquareCatalog, ledger: SimulatorLedger) -> None:
    created = create(catalog)

    assert catalog.delete_item(created.item_id) == CatalogOutcome(ok=True)
    assert ledger.catalog_objects() == []


def test_deleting_an_item_square_does_not_have_is_done(catalog: SquareCatalog) -> None:
    assert catalog.delete_item("NOSUCHITEM") == CatalogOutcome(ok=True)


def test_delete_when_square_fails(catalog: SquareCatalog, ledger: SimulatorLedger) -> None:
    created = create(catalog)
    ledger.fail_next("/v2/catalog/object/{object_id}", kind="http_500", times=3, method="DELETE")

    outcome = catalog.delete_item(created.item_id)

    assert outcome == CatalogOutcome(ok=False, error="An injected fault (simulator).")
    assert len(ledger.catalog_objects()) == 2


def test_set_stock_counts_the_variation(catalog: SquareCatalog, ledger: SimulatorLedger) -> None:
    created = create(catalog)

    assert catalog.set_stock(created.variation_id, 3) == CatalogOutcome(ok=True)
    assert catalog.set_stock(created.variation_id, 3) == CatalogOutcome(ok=True)  # a new count each time
    assert stock(ledger, created.variation_id) == "3"
    assert len(ledger.inventory_changes()) == 3


def test_set_stock_of_an_unknown_variation_answers_squares_message(catalog: SquareCatalog) -> None:
    outcome = catalog.set_stock("NOSUCHVARIATION", 3)

    assert outcome == CatalogOutcome(ok=False, error="Item variation NOSUCHVARIATION not found.")


def test_set_stock_when_square_times_out(sdk: Square, ledger: SimulatorLedger) -> None:
    created = create(SquareCatalog(sdk, location_id=DEFAULT_LOCATION_ID))
    ledger.fail_next("/v2/inventory/changes/batch-create", kind="timeout", delay_s=1)
    catalog = SquareCatalog(sdk, location_id=DEFAULT_LOCATION_ID, timeout_s=0.2)

    assert catalog.set_stock(created.variation_id, 1) == CatalogOutcome(
        ok=False, error="Square did not answer in time"
    )


def test_list_items_reads_every_page_with_the_first_variation(
    catalog: SquareCatalog, sdk: Square, ledger: SimulatorLedger
) -> None:
    created = [create(catalog, name=f"Candle {n}", sku=f"C-{n}", idempotency_key=f"k{n}") for n in range(105)]
    sdk.catalog.object.upsert(
        idempotency_key="two-variations",
        object=item("#pair", "Pair", ("#a", "First", 900), ("#b", "Second", 1900), description="Two"),
    )
    deleted = created.pop()
    catalog.delete_item(deleted.item_id)

    items = catalog.list_items()

    assert len(items) == 105
    assert len([r for r in ledger.requests() if r.path == "/v2/catalog/list"]) == 2  # two pages
    by_id = {i.item_id: i for i in items}
    assert by_id[created[0].item_id] == SquareItem(
        item_id=created[0].item_id,
        variation_id=created[0].variation_id,
        name="Candle 0",
        description="Hand-poured soy candle.",
        sku="C-0",
        price_cents=2450,
    )
    pair = next(i for i in items if i.name == "Pair")
    assert (pair.sku, pair.price_cents, pair.description) == ("SKU-FIRST", 900, "Two")
    assert deleted.item_id not in by_id


def test_list_items_of_an_empty_catalogue(catalog: SquareCatalog) -> None:
    assert catalog.list_items() == []


def test_list_items_raises_a_catalog_error_with_the_reason(
    catalog: SquareCatalog, ledger: SimulatorLedger
) -> None:
    ledger.fail_next("/v2/catalog/list", kind="http_500", times=3)

    with pytest.raises(CatalogError, match="An injected fault"):
        catalog.list_items()


def test_local_mode_uses_the_shared_simulator() -> None:
    settings = Settings(square_environment=SquareEnvironment.LOCAL, square_location_id="")
    ledger = simulator_ledger(shared_simulator())
    catalog = square_catalog(settings)
    key = "shared-simulator-test"

    created = catalog.create_item(
        name="Shared", description="", sku=None, price_cents=100, stock_quantity=1, idempotency_key=key
    )

    assert catalog.location_id == ledger.location_id
    assert created.item_id in {o["id"] for o in ledger.catalog_objects()}
    assert catalog.delete_item(created.item_id).ok


def test_remote_modes_need_a_token_and_a_location() -> None:
    with pytest.raises(SquareConfigError, match="SQUARE_LOCATION_ID"):
        square_catalog(Settings(square_environment=SquareEnvironment.SANDBOX, square_access_token="t"))
    with pytest.raises(SquareConfigError, match="SQUARE_ACCESS_TOKEN"):
        square_catalog(Settings(square_environment=SquareEnvironment.SANDBOX, square_location_id="L1"))
    remote = square_catalog(
        Settings(
            square_environment=SquareEnvironment.SANDBOX, square_access_token="t", square_location_id="L1"
        )
    )
    assert remote.location_id == "L1"
