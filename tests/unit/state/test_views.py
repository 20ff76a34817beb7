"""View models the states send to the browser."""

from __future__ import annotations

import pytest

from shop_app.services.catalog import ProductCard, Variation
from shop_app.state.media import media_src
from shop_app.state.views import PLACEHOLDER_IMAGE, card_views, variation_view


def _variation(**overrides: object) -> Variation:
    fields = {
        "id": 7,
        "name": "8oz Amber Soy Candle - Vanilla Bean",
        "scent": "Vanilla Bean",
        "vessel": "Amber",
        "description": "x" * 100,
        "base_price_cents": 3200,
        "sale_price_cents": None,
        "stock_quantity": 12,
        "is_new": False,
        "is_featured": False,
        "image_url": "",
        "image_width": None,
        "has_options": False,
    }
    return Variation(**{**fields, **overrides})


@pytest.fixture(autouse=True)
def prod_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFLEX_ENV_MODE", "prod")


def test_variation_on_sale_shows_both_prices_and_the_sale_badge() -> None:
    view = variation_view(_variation(sale_price_cents=2500, is_new=True, stock_quantity=3))

    assert (view.price, view.compare_at_price) == ("$25.00", "$32.00")
    assert view.badge == "On Sale"
    assert view.stock_text == "Only 3 left"
    assert view.url == "/product/7"
    assert len(view.description) == 80


def test_a_sale_price_that_is_not_a_discount_is_ignored() -> None:
    view = variation_view(_variation(sale_price_cents=3200, is_featured=True, stock_quantity=0))

    assert (view.price, view.compare_at_price, view.badge) == ("$32.00", "", "Featured")
    assert not view.in_stock
    assert view.stock_text == "Out of Stock"


def test_images_use_the_placeholder_when_missing_and_a_srcset_when_the_width_is_known() -> None:
    assert variation_view(_variation()).image_url == PLACEHOLDER_IMAGE
    stored = variation_view(_variation(image_url="/media/products/" + "a" * 32 + ".webp", image_width=800))
    assert stored.image_url.endswith(".webp")
    assert stored.image_srcset.endswith(" 800w") and "-320w.webp 320w" in stored.image_srcset
    assert variation_view(_variation(image_url="/media/p/a.webp", image_width=None)).image_srcset == ""


def test_grouped_card_lists_scents_and_names_the_vessel_when_a_scent_repeats() -> None:
    card = ProductCard(
        key="8oz|soy candle",
        title="8oz Soy Candle",
        variations=(
            _variation(id=1),
            _variation(id=2, name="8oz Blush Soy Candle - Vanilla Bean", vessel="Blush"),
            _variation(id=3, name="8oz Amber Soy Candle - Rose", scent="Rose"),
        ),
        variation_count=3,
    )

    view, product_ids = card_views(card)

    assert view.scents == ["Vanilla Bean (Amber)", "Vanilla Bean (Blush)", "Rose"]
    assert view.selected_scent == "Vanilla Bean (Amber)"
    assert (view.current.product_id, view.current.label) == (1, "Vanilla Bean (Amber)")
    assert view.has_variants
    assert product_ids == [1, 2, 3]


def test_a_range_whose_first_scent_is_sold_out_starts_on_the_first_in_stock_and_marks_it() -> None:
    """Issue 15 item 3: "Mandle" read "Out of Stock" with four of its five scents in stock."""
    card = ProductCard(
        key="mandle",
        title="Mandle",
        variations=(
            _variation(id=1, name="Mandle - Amber", scent="Amber", stock_quantity=0),
            _variation(id=2, name="Mandle - Cedar", scent="Cedar", stock_quantity=4),
            _variation(id=3, name="Mandle - Rose", scent="Rose", stock_quantity=0),
        ),
        variation_count=3,
    )

    view, product_ids = card_views(card)

    assert (view.current.product_id, view.current.label, view.current.in_stock) == (2, "Cedar", True)
    assert view.selected_scent == "Cedar" and product_ids == [1, 2, 3]
    assert [(o.value, o.text) for o in view.scent_options] == [
        ("Amber", "Amber (sold out)"),
        ("Cedar", "Cedar"),
        ("Rose", "Rose (sold out)"),
    ]


def test_a_range_sold_out_everywhere_shows_its_first_scent_out_of_stock() -> None:
    card = ProductCard(
        key="gone",
        title="Gone",
        variations=(_variation(id=1, stock_quantity=0), _variation(id=2, scent="Rose", stock_quantity=0)),
        variation_count=2,
    )

    view, _ = card_views(card)

    assert view.current.product_id == 1 and view.current.stock_text == "Out of Stock"


def test_single_product_card_has_no_scent_selector() -> None:
    card = ProductCard(key="p7", title="Room Spray - Rose", variations=(_variation(),), variation_count=1)

    view, _ = card_views(card)

    assert view.scents == [] and not view.has_variants


def test_media_paths_point_at_the_backend_in_the_development_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFLEX_ENV_MODE", "dev")

    assert media_src("/media/products/a.webp").endswith(":8000/media/products/a.webp")
    assert media_src("/placeholder.svg") == "/placeholder.svg"


def test_a_notification_is_forgotten_on_the_next_page_once_its_time_is_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from shop_app.state import notify  # noqa: PLC0415

    state = notify.NotificationState()
    clock = iter([100.0, 101.0, 110.0])
    monkeypatch.setattr(notify.time, "monotonic", lambda: next(clock))
    state.show("Added to wishlist", "success")

    state.expire()  # 1 s later: still showing
    assert state.message == "Added to wishlist"
    state.expire()  # 10 s later: gone
    assert state.message == ""
