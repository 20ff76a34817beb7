"""The product page's record of a product (services/catalog/product_view.py): what the page's
state holds and what the first HTML response is drawn from."""

from __future__ import annotations

from dataclasses import replace

from shop_app.services.catalog.card_views import PLACEHOLDER_IMAGE
from shop_app.services.catalog.product import Image, ProductDetail, Sibling
from shop_app.services.catalog.product_view import add_label, product_view

DETAIL = ProductDetail(
    id=7,
    name="8oz Amber Soy Candle - Lavender Fields",
    group_title="8oz Amber Soy Candle",
    description="Sun-warmed lavender.",
    base_price_cents=2800,
    sale_price_cents=None,
    stock_quantity=42,
    is_new=False,
    is_featured=False,
    scent="Lavender Fields",
    vessel="8oz Amber",
    category_name="Candles",
    category_slug="candles",
    subcategory_name="",
    subcategory_slug="",
    images=(),
    details={"size": "8 oz"},
    scent_notes=(),
    ingredients=("soy wax",),
    care_instructions="",
    option_scents=(),
    pricing={},
)


def test_a_lone_scented_product_has_no_scent_list() -> None:
    """A product with a scent and no other variation in its vessel (its page failed to load)."""
    view = product_view(DETAIL)

    assert view.scents == [] and view.scent == "Lavender Fields"
    assert view.images[0].src == PLACEHOLDER_IMAGE and view.images[0].alt == DETAIL.name
    assert [(row.label, row.value) for row in view.details] == [("Size", "8 oz"), ("Ingredients", "soy wax")]
    assert add_label(view) == "Add to Cart"


def test_a_variation_past_the_first_eight_scents_is_still_listed() -> None:
    scents = [f"Scent {n:02}" for n in range(12)]
    siblings = tuple(
        Sibling(id=n + 1, scent=s, vessel="8oz Amber", in_stock=n != 1) for n, s in enumerate(scents)
    )
    detail = replace(DETAIL, id=11, scent="Scent 10", siblings=siblings)

    view = product_view(detail)

    assert [c.label for c in view.scents] == [*scents[:8], "Scent 10"]
    assert view.scents[1].text == "Scent 01 (sold out)"
    assert view.scent_more == "+4 more" and len(view.all_scents) == 12


def test_a_scent_to_pick_disables_add_until_picked_and_a_sale_strikes_the_base_price() -> None:
    detail = replace(
        DETAIL,
        option_scents=("Vanilla", "Cedar"),
        sale_price_cents=2400,
        images=(Image("/media/products/" + "a" * 32 + ".webp", "Front", 800, 800),),
    )

    view = product_view(detail, src=lambda path: "https://cdn.example" + path)

    assert view.scent_is_option and view.scent == "" and add_label(view) == "Select a Scent"
    assert (view.price, view.compare_at_price, view.on_sale) == ("$24.00", "$28.00", True)
    assert view.images[0].src.startswith("https://cdn.example/media/products/")
    assert "https://cdn.example/media/products/" in view.images[0].srcset
    assert add_label(replace(view, in_stock=False)) == "Out of Stock"
