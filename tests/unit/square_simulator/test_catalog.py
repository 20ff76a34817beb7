"""Catalog API of the simulator (upsert, batch, list, search, retrieve, delete, images), via the SDK."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from square import Square
from square.core.api_error import ApiError

from shop_app.square_simulator.state import SimulatorLedger
from shop_app.square_simulator.transport import SimulatorTransport
from tests.unit.square.builders import PNG, PUBLIC_URL, category, item


def upsert(sdk: Square, obj: dict[str, Any], key: str = "u-1"):
    return sdk.catalog.object.upsert(idempotency_key=key, object=obj)


def test_upsert_maps_temporary_ids_and_embeds_variations(sdk: Square, ledger: SimulatorLedger) -> None:
    response = upsert(
        sdk, item("#candle", "Cedar Candle", ("#small", "Small", 1800), ("#large", "Large", 3200))
    )

    obj = response.catalog_object
    mappings = {m.client_object_id: m.object_id for m in response.id_mappings}
    assert set(mappings) == {"#candle", "#small", "#large"}
    assert obj.id == mappings["#candle"]
    assert not obj.id.startswith("#")
    assert obj.version > 1_600_000_000_000  # epoch milliseconds
    assert obj.is_deleted is False
    variations = obj.item_data.variations
    assert [v.id for v in variations] == [mappings["#small"], mappings["#large"]]
    assert [v.item_variation_data.item_id for v in variations] == [obj.id, obj.id]
    assert [v.item_variation_data.ordinal for v in variations] == [1, 2]
    assert variations[1].item_variation_data.price_money.amount == 3200
    stored = {o["type"] for o in ledger.catalog_objects()}
    assert stored == {"ITEM", "ITEM_VARIATION"}


def test_upsert_is_idempotent_per_key(sdk: Square, ledger: SimulatorLedger) -> None:
    first = upsert(sdk, item("#a", "A", ("#v", "One", 100)))
    again = upsert(sdk, item("#a", "A", ("#v", "One", 100)))

    assert again.catalog_object.id == first.catalog_object.id
    assert len(ledger.catalog_objects()) == 2
    with pytest.raises(ApiError) as caught:
        upsert(sdk, item("#a", "B", ("#v", "One", 100)))
    assert caught.value.errors[0].code == "IDEMPOTENCY_KEY_REUSED"


def test_update_needs_the_current_version(sdk: Square) -> None:
    created = upsert(sdk, item("#a", "A", ("#v", "One", 100))).catalog_object
    variation = created.item_data.variations[0]
    update = item(created.id, "A renamed")
    update["version"] = created.version
    update["item_data"]["variations"] = [
        {
            "type": "ITEM_VARIATION",
            "id": variation.id,
            "version": variation.version,
            "item_variation_data": {
                "name": "One",
                "pricing_type": "FIXED_PRICING",
                "price_money": {"amount": 150, "currency": "CAD"},
            },
        }
    ]

    updated = upsert(sdk, update, key="u-2").catalog_object

    assert updated.id == created.id
    assert updated.version > created.version
    assert updated.item_data.name == "A renamed"
    assert updated.item_data.variations[0].item_variation_data.price_money.amount == 150
    with pytest.raises(ApiError) as caught:
        upsert(sdk, update, key="u-3")  # the old version again
    assert caught.value.status_code == 400
    assert [(e.code, e.field) for e in caught.value.errors] == [("CONFLICT", "object.version")]


def test_an_item_needs_a_variation(sdk: Square) -> None:
    with pytest.raises(ApiError) as caught:
        upsert(sdk, item("#tea", "Tea"))

    assert caught.value.status_code == 400
    assert caught.value.errors[0].code == "BAD_REQUEST"
    assert "must have at least one variation" in caught.value.errors[0].detail


def test_references_must_resolve(sdk: Square) -> None:
    with pytest.raises(ApiError) as caught:
        upsert(sdk, item("#a", "A", ("#v", "One", 100), category_id="#nowhere"))

    assert caught.value.errors[0].code == "INVALID_VALUE"
    assert "#nowhere" in caught.value.errors[0].detail


def test_unknown_object_type_and_missing_id(raw: httpx.Client) -> None:
    bad_type = raw.post(
        "/v2/catalog/object", json={"idempotency_key": "k", "object": {"type": "CANDLE", "id": "#c"}}
    )
    no_id = raw.post("/v2/catalog/object", json={"idempotency_key": "k2", "object": {"type": "CATEGORY"}})

    assert (bad_type.status_code, bad_type.json()["errors"][0]["code"]) == (400, "INVALID_ENUM_VALUE")
    assert no_id.json()["errors"][0]["field"] == "object.id"


def test_batch_upsert_resolves_ids_within_a_batch_and_fails_batches_alone(sdk: Square) -> None:
    response = sdk.catalog.batch_upsert(
        idempotency_key="b-1",
        batches=[
            {
                "objects": [
                    category("#cat", "Candles"),
                    item("#a", "A", ("#av", "One", 100), category_id="#cat"),
                ]
            },
            {"objects": [item("#broken", "Broken")]},
        ],
    )

    assert [o.type for o in response.objects] == ["CATEGORY", "ITEM"]
    cat_id = response.objects[0].id
    assert response.objects[1].item_data.category_id == cat_id
    assert {m.client_object_id for m in response.id_mappings} == {"#cat", "#a", "#av"}
    assert [e.code for e in response.errors] == ["BAD_REQUEST"]
    assert response.updated_at


def test_batch_upsert_with_every_batch_failing_is_400(sdk: Square, ledger: SimulatorLedger) -> None:
    with pytest.raises(ApiError) as caught:
        sdk.catalog.batch_upsert(idempotency_key="b-1", batches=[{"objects": [item("#x", "X")]}])

    assert caught.value.status_code == 400
    assert ledger.catalog_objects() == []


def _seed(sdk: Square) -> dict[str, str]:
    response = sdk.catalog.batch_upsert(
        idempotency_key="seed",
        batches=[
            {
                "objects": [
                    category("#candles", "Candles"),
                    {"type": "TAX", "id": "#gst", "tax_data": {"name": "GST", "percentage": "5"}},
                    item(
                        "#cedar",
                        "Cedar Candle",
                        ("#c1", "Small", 1800),
                        category_id="#candles",
                        tax_ids=["#gst"],
                        description="Hand poured soy wax",
                    ),
                    item("#lavender", "Lavender Soap", ("#l1", "Bar", 900)),
                    item("#cider", "Cider Candle", ("#d1", "Large", 3200), category_id="#candles"),
                ]
            }
        ],
    )
    return {m.client_object_id: m.object_id for m in response.id_mappings}


def test_list_by_type_hides_deleted_objects(sdk: Square) -> None:
    ids = _seed(sdk)

    assert {o.id for o in sdk.catalog.list(types="ITEM")} == {ids["#cedar"], ids["#lavender"], ids["#cider"]}
    assert {o.id for o in sdk.catalog.list(types="item,category")} >= {ids["#candles"]}
    assert {o.id for o in sdk.catalog.list(types="ITEM_VARIATION")} == {ids["#c1"], ids["#l1"], ids["#d1"]}
    default = {o.type for o in sdk.catalog.list()}
    assert default == {"ITEM", "CATEGORY", "TAX"}

    deleted = sdk.catalog.object.delete(ids["#cedar"])

    assert set(deleted.deleted_object_ids) == {ids["#cedar"], ids["#c1"]}
    assert deleted.deleted_at
    assert ids["#cedar"] not in {o.id for o in sdk.catalog.list(types="ITEM")}
    assert ids["#c1"] not in {o.id for o in sdk.catalog.list(types="ITEM_VARIATION")}


def test_list_pages_by_100(sdk: Square) -> None:
    sdk.catalog.batch_upsert(
        idempotency_key="many", batches=[{"objects": [category(f"#c{i}", f"Cat {i}") for i in range(130)]}]
    )

    first = sdk.catalog.list(types="CATEGORY")
    assert len(first.items) == 100
    assert first.has_next
    assert len(list(sdk.catalog.list(types="CATEGORY"))) == 130


def test_list_refuses_unknown_types(raw: httpx.Client) -> None:
    response = raw.get("/v2/catalog/list", params={"types": "ITEM,CANDLE"})

    assert (response.status_code, response.json()["errors"][0]["code"]) == (400, "INVALID_ENUM_VALUE")


def _search(sdk: Square, **arguments: Any) -> list[str]:
    response = sdk.catalog.search(**arguments)
    assert response.latest_time
    return [o.item_data.name if o.type == "ITEM" else o.id for o in response.objects or []]


def test_search_queries(sdk: Square) -> None:
    ids = _seed(sdk)
    items = {"object_types": ["ITEM"]}

    assert sorted(_search(sdk, **items)) == ["Cedar Candle", "Cider Candle", "Lavender Soap"]
    assert _search(sdk, **items, query={"text_query": {"keywords": ["cand", "ced"]}}) == ["Cedar Candle"]
    assert _search(sdk, **items, query={"text_query": {"keywords": ["soy"]}}) == ["Cedar Candle"]
    assert _search(
        sdk, **items, query={"prefix_query": {"attribute_name": "name", "attribute_prefix": "ci"}}
    ) == ["Cider Candle"]
    exact = {"exact_query": {"attribute_name": "name", "attribute_value": "lavender soap"}}
    assert _search(sdk, **items, query=exact) == ["Lavender Soap"]
    in_category = {"exact_query": {"attribute_name": "category_id", "attribute_value": ids["#candles"]}}
    assert sorted(_search(sdk, **items, query=in_category)) == ["Cedar Candle", "Cider Candle"]
    named = {"set_query": {"attribute_name": "name", "attribute_values": ["Cider Candle", "Lavender Soap"]}}
    assert sorted(_search(sdk, **items, query=named)) == ["Cider Candle", "Lavender Soap"]
    by_name = {"sorted_attribute_query": {"attribute_name": "name", "sort_order": "DESC"}}
    assert _search(sdk, **items, query=by_name) == ["Lavender Soap", "Cider Candle", "Cedar Candle"]
    assert _search(sdk, **items, query={"items_for_tax_query": {"tax_ids": [ids["#gst"]]}}) == [
        "Cedar Candle"
    ]
    by_sku = {"exact_query": {"attribute_name": "sku", "attribute_value": "SKU-BAR"}}
    assert _search(sdk, object_types=["ITEM_VARIATION"], query=by_sku) == [ids["#l1"]]
    # Each part of a query keeps its own attribute.
    candles_ci = {
        "exact_query": {"attribute_name": "category_id", "attribute_value": ids["#candles"]},
        "prefix_query": {"attribute_name": "name", "attribute_prefix": "ci"},
    }
    assert _search(sdk, **items, query=candles_ci) == ["Cider Candle"]


def test_search_pages_and_related_objects(sdk: Square) -> None:
    ids = _seed(sdk)

    page = sdk.catalog.search(object_types=["ITEM"], limit=2, include_related_objects=True)
    assert len(page.objects) == 2
    assert page.cursor
    related = {o.id for o in page.related_objects}
    assert {ids["#candles"], ids["#gst"]} <= related
    rest = sdk.catalog.search(object_types=["ITEM"], limit=2, cursor=page.cursor)
    assert len(rest.objects) == 1
    assert rest.cursor is None


def test_search_deleted_objects_and_begin_time(sdk: Square) -> None:
    ids = _seed(sdk)
    sdk.catalog.object.delete(ids["#lavender"])

    assert "Lavender Soap" not in _search(sdk, object_types=["ITEM"])
    with_deleted = sdk.catalog.search(object_types=["ITEM"], include_deleted_objects=True).objects
    lavender = next(o for o in with_deleted if o.id == ids["#lavender"])
    assert lavender.is_deleted is True
    latest = sdk.catalog.search(object_types=["ITEM"]).latest_time
    assert _search(sdk, object_types=["ITEM"], begin_time=latest) == []


def test_search_refuses_unsupported_queries(raw: httpx.Client) -> None:
    response = raw.post(
        "/v2/catalog/search", json={"query": {"items_for_modifier_list_query": {"modifier_list_ids": ["x"]}}}
    )

    assert (response.status_code, response.json()["errors"][0]["code"]) == (400, "BAD_REQUEST")


def test_retrieve_with_related_objects(raw: httpx.Client, sdk: Square) -> None:
    ids = _seed(sdk)

    answer = raw.get(f"/v2/catalog/object/{ids['#cedar']}", params={"include_related_objects": "true"}).json()

    assert answer["object"]["item_data"]["variations"][0]["id"] == ids["#c1"]
    assert {o["id"] for o in answer["related_objects"]} == {ids["#candles"], ids["#gst"]}
    assert raw.get("/v2/catalog/object/nope").status_code == 404


def test_delete_unknown_object_is_404(sdk: Square) -> None:
    with pytest.raises(ApiError) as caught:
        sdk.catalog.object.delete("nope")

    assert (caught.value.status_code, caught.value.errors[0].code) == (404, "NOT_FOUND")


def test_batch_delete_reports_what_it_deleted(sdk: Square) -> None:
    ids = _seed(sdk)

    response = sdk.catalog.batch_delete(object_ids=[ids["#cider"], "nope", ids["#candles"]])

    assert set(response.deleted_object_ids) == {ids["#cider"], ids["#d1"], ids["#candles"]}
    assert response.deleted_at


def test_image_upload_attaches_to_an_item_and_is_served(sdk: Square, app: Any) -> None:
    ids = _seed(sdk)

    image = sdk.catalog.images.create(
        request={
            "idempotency_key": "img-1",
            "object_id": ids["#cedar"],
            "is_primary": True,
            "image": {
                "type": "IMAGE",
                "id": "#img",
                "image_data": {"name": "cedar", "caption": "Cedar candle"},
            },
        },
        image_file=("cedar.png", PNG, "image/png"),
    ).image

    assert image.type == "IMAGE"
    assert image.image_data.caption == "Cedar candle"
    assert image.image_data.url == f"{PUBLIC_URL}/files/{image.id}/original.png"
    cedar = next(o for o in sdk.catalog.list(types="ITEM") if o.id == ids["#cedar"])
    assert cedar.item_data.image_ids == [image.id]
    with httpx.Client(transport=SimulatorTransport(app), base_url="http://sim") as plain:
        served = plain.get(f"/files/{image.id}/original.png")
    assert (served.status_code, served.headers["content-type"], served.content) == (200, "image/png", PNG)


def test_image_upload_is_idempotent_and_checks_the_file(sdk: Square, ledger: SimulatorLedger) -> None:
    request = {
        "idempotency_key": "img-1",
        "image": {"type": "IMAGE", "id": "#img", "image_data": {"name": "x"}},
    }
    first = sdk.catalog.images.create(request=request, image_file=("x.png", PNG, "image/png")).image
    again = sdk.catalog.images.create(request=request, image_file=("x.png", PNG, "image/png")).image
    assert again.id == first.id
    assert len(ledger.catalog_objects()) == 1

    with pytest.raises(ApiError) as caught:
        sdk.catalog.images.create(
            request={**request, "idempotency_key": "img-2"}, image_file=("x.png", b"GIF89a...", "image/png")
        )
    assert (caught.value.status_code, caught.value.errors[0].code) == (400, "INVALID_CONTENT_TYPE")

    with pytest.raises(ApiError) as caught:
        sdk.catalog.images.create(
            request={**request, "idempotency_key": "img-3", "object_id": "nope"},
            image_file=("x.png", PNG, "image/png"),
        )
    assert caught.value.status_code == 404
