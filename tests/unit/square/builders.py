"""Request builders shared by the Square tests (unit and integration)."""

from __future__ import annotations

from typing import Any

from square import Square

from shop_app.square_simulator.state import DEFAULT_LOCATION_ID

PUBLIC_URL = "http://shop.test/_square"  # the simulator's address in the unit tests
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def item(temp_id: str, name: str, *variations: tuple[str, str, int], **data: Any) -> dict[str, Any]:
    """An ITEM with its variations, as the shop sends it."""
    return {
        "type": "ITEM",
        "id": temp_id,
        "item_data": {
            "name": name,
            **data,
            "variations": [
                {
                    "type": "ITEM_VARIATION",
                    "id": v_id,
                    "item_variation_data": {
                        "name": v_name,
                        "sku": f"SKU-{v_name.upper()}",
                        "pricing_type": "FIXED_PRICING",
                        "price_money": {"amount": price, "currency": "CAD"},
                    },
                }
                for v_id, v_name, price in variations
            ],
        },
    }


def category(temp_id: str, name: str) -> dict[str, Any]:
    """A CATEGORY."""
    return {"type": "CATEGORY", "id": temp_id, "category_data": {"name": name}}


def count(variation_id: str, quantity: str, location: str = DEFAULT_LOCATION_ID) -> dict[str, Any]:
    """A PHYSICAL_COUNT change (IN_STOCK)."""
    return {
        "type": "PHYSICAL_COUNT",
        "physical_count": {
            "catalog_object_id": variation_id,
            "state": "IN_STOCK",
            "location_id": location,
            "quantity": quantity,
            "occurred_at": "2026-01-01T00:00:00Z",
        },
    }


def run_every_operation(sdk: Square) -> None:
    """Calls each of the subset's 11 operations once through the SDK (also used over HTTP)."""
    payment = sdk.payments.create(
        source_id="cnon:card-nonce-ok",
        idempotency_key="every-pay",
        amount_money={"amount": 1200, "currency": "CAD"},
        reference_id="CE-EVERY",
    ).payment
    sdk.refunds.refund_payment(
        idempotency_key="every-refund", payment_id=payment.id, amount_money={"amount": 200, "currency": "CAD"}
    )
    single = sdk.catalog.object.upsert(
        idempotency_key="every-upsert", object=item("#one", "One", ("#v", "V", 100))
    )
    batch = sdk.catalog.batch_upsert(
        idempotency_key="every-batch",
        batches=[
            {"objects": [category("#cat", "Cat"), item("#two", "Two", ("#w", "W", 200), category_id="#cat")]}
        ],
    )
    list(sdk.catalog.list(types="ITEM,CATEGORY"))
    sdk.catalog.search(
        object_types=["ITEM"], query={"prefix_query": {"attribute_name": "name", "attribute_prefix": "t"}}
    )
    image = {"type": "IMAGE", "id": "#img", "image_data": {"name": "one"}}
    sdk.catalog.images.create(
        request={"idempotency_key": "every-image", "object_id": single.catalog_object.id, "image": image},
        image_file=("one.png", PNG, "image/png"),
    )
    variation_id = single.catalog_object.item_data.variations[0].id
    sdk.inventory.batch_create_changes(idempotency_key="every-stock", changes=[count(variation_id, "5")])
    list(sdk.inventory.batch_get_counts(catalog_object_ids=[variation_id]))
    sdk.catalog.object.delete(single.catalog_object.id)
    sdk.catalog.batch_delete(object_ids=[o.id for o in batch.objects])
    sdk.payments.get(payment.id)
    list(sdk.payments.list())
