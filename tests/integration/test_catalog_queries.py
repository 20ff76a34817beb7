"""Storefront catalogue queries: filters, search (with one typo), grouping, paging, product pages.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session

from shop_app.domain.grouping import group_key
from shop_app.models import Category, Product, ProductImage
from shop_app.services.catalog import ShopQuery, category_counts, featured_cards, get_product, shop_page
from shop_app.services.catalog.filters import escape_like

T0 = datetime(2026, 11, 1, tzinfo=UTC)


class Catalogue:
    """A small catalogue: two candle groups, a lotion, a diffuser, an archived product."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.candles = self._category("Candles", "candles")
        self.signature = self._category(
            "Signature Candle Collection", "signature-candle-collection", self.candles
        )
        self.body = self._category("Body Care", "body-care")
        self.lotion_cat = self._category("Hand & Body Lotion", "hand-body-lotion", self.body)
        self.minute = 0

    def _category(self, name: str, slug: str, parent: Category | None = None) -> Category:
        category = Category(name=name, slug=slug, parent_id=parent.id if parent else None)
        self.session.add(category)
        self.session.flush()
        return category

    def add(self, name: str, **fields: object) -> Product:
        self.minute += 1
        product = Product(
            name=name,
            group_key=group_key(name),
            base_price_cents=2800,
            stock_quantity=5,
            created_at=T0 + timedelta(minutes=self.minute),
            **fields,
        )
        self.session.add(product)
        self.session.flush()
        return product


@pytest.fixture
def shop(session: Session) -> Catalogue:
    catalogue = Catalogue(session)
    c = catalogue
    c.add("8oz Amber Soy Candle - Vanilla Bean", category_id=c.candles.id, subcategory_id=c.signature.id)
    c.add(
        "8oz Matte White Soy Candle - Lavender Fields",
        category_id=c.candles.id,
        subcategory_id=c.signature.id,
    )
    c.add("8oz Amber Soy Candle - Cedar & Sage", category_id=c.candles.id, subcategory_id=c.signature.id)
    c.add("16oz Frosted Soy Candle - Vanilla Bean", category_id=c.candles.id)
    c.add(
        "8oz Hand & Body Lotion - Coconut Lime",
        category_id=c.body.id,
        subcategory_id=c.lotion_cat.id,
        description="Whipped with shea butter and a hint of vanilla",
    )
    c.add("100ml Reed Diffuser - Fresh Linen", is_featured=True)
    c.add("8oz Blush Soy Candle - Rose", category_id=c.candles.id, is_active=False)
    return catalogue


def _titles(page) -> list[str]:
    return [card.title for card in page.cards]


def test_grouped_view_makes_one_card_per_size_and_type_newest_first(
    session: Session, shop: Catalogue
) -> None:
    page = shop_page(session, ShopQuery())

    assert _titles(page) == [
        "100ml Reed Diffuser - Fresh Linen",
        "8oz Hand & Body Lotion - Coconut Lime",
        "16oz Frosted Soy Candle - Vanilla Bean",
        "8oz Soy Candle",
    ]
    assert page.total == 4
    candle = page.cards[-1]
    assert [v.scent for v in candle.variations] == ["Cedar & Sage", "Vanilla Bean", "Lavender Fields"]
    assert [v.vessel for v in candle.variations] == ["Amber", "Amber", "Matte White"]
    assert candle.variation_count == 3 and candle.has_variants
    assert not page.cards[0].has_variants


def test_individual_view_makes_one_card_per_active_product(session: Session, shop: Catalogue) -> None:
    page = shop_page(session, ShopQuery(grouped=False))

    assert page.total == 6
    assert _titles(page)[0] == "100ml Reed Diffuser - Fresh Linen"
    assert "8oz Blush Soy Candle - Rose" not in _titles(page)


def test_pages_through_groups(session: Session, shop: Catalogue) -> None:
    first = shop_page(session, ShopQuery(limit=3))
    second = shop_page(session, ShopQuery(limit=3, offset=3))

    assert len(first.cards) == 3
    assert _titles(second) == ["8oz Soy Candle"]
    assert first.total == second.total == 4


def test_category_and_subcategory_filters_accept_slugs_and_the_storefront_codes(
    session: Session, shop: Catalogue
) -> None:
    body = shop_page(session, ShopQuery(category="bodycare", grouped=False))
    signature = shop_page(session, ShopQuery(category="candles", subcategory="core", grouped=False))
    sub_as_category = shop_page(session, ShopQuery(category="signature-candle-collection", grouped=False))

    assert _titles(body) == ["8oz Hand & Body Lotion - Coconut Lime"]
    assert signature.total == sub_as_category.total == 3
    assert shop_page(session, ShopQuery(category="no-such-thing")).total == 0
    assert shop_page(session, ShopQuery(category="candles", subcategory="nope")).total == 0


def test_search_matches_every_word_in_name_description_or_category(session: Session, shop: Catalogue) -> None:
    vanilla = shop_page(session, ShopQuery(search="VANILLA", grouped=False))
    vanilla_candles = shop_page(session, ShopQuery(search="Vanilla Candles", grouped=False))
    lotion = shop_page(session, ShopQuery(search="lotion", grouped=False))

    assert sorted(_titles(vanilla)) == [
        "16oz Frosted Soy Candle - Vanilla Bean",
        "8oz Amber Soy Candle - Vanilla Bean",
        "8oz Hand & Body Lotion - Coconut Lime",
    ]  # description
    assert sorted(_titles(vanilla_candles)) == [
        "16oz Frosted Soy Candle - Vanilla Bean",
        "8oz Amber Soy Candle - Vanilla Bean",
    ]
    assert _titles(lotion) == ["8oz Hand & Body Lotion - Coconut Lime"]


def test_search_tolerates_one_typo_and_plurals(session: Session, shop: Catalogue) -> None:
    assert shop_page(session, ShopQuery(search="vanila", grouped=False)).total == 3
    assert shop_page(session, ShopQuery(search="Diffusers", grouped=False)).total == 1
    assert shop_page(session, ShopQuery(search="lavendr feilds", grouped=False)).total == 1
    assert shop_page(session, ShopQuery(search="gift sets")).total == 0


def test_search_uses_words_so_wildcards_and_punctuation_match_nothing_special(
    session: Session, shop: Catalogue
) -> None:
    shop.add("Percent Soy Candle - 100% Rose")

    assert _titles(shop_page(session, ShopQuery(search="100% rose", grouped=False))) == [
        "Percent Soy Candle - 100% Rose"
    ]
    assert shop_page(session, ShopQuery(search="%_%", grouped=False)).total == 7  # no words: no filter
    assert escape_like("50%_off\\") == "50\\%\\_off\\\\"


def test_category_counts_count_active_products_in_main_and_subcategories(
    session: Session, shop: Catalogue
) -> None:
    counts = {c.slug: c.count for c in category_counts(session)}

    assert counts == {"candles": 4, "signature-candle-collection": 3, "body-care": 1, "hand-body-lotion": 1}


def test_featured_cards_group_at_most_twelve_featured_variations(session: Session, shop: Catalogue) -> None:
    for n in range(14):
        shop.add(f"8oz Glossy Soy Candle - Scent {n:02d}", is_featured=True)

    cards = featured_cards(session)

    assert sum(len(card.variations) for card in cards) == 12
    assert [card.title for card in cards] == ["8oz Soy Candle"]


def test_product_page_has_images_categories_and_sibling_variations(session: Session, shop: Catalogue) -> None:
    vanilla = shop_page(session, ShopQuery(search="vanilla bean amber", grouped=False)).cards[0].variations[0]
    session.add_all(
        [
            ProductImage(product_id=vanilla.id, image_url="/media/b.webp", display_order=2, alt_text="Side"),
            ProductImage(product_id=vanilla.id, image_url="/media/a.webp", display_order=1, is_primary=True),
        ]
    )
    session.flush()

    detail = get_product(session, vanilla.id)

    assert detail.name == "8oz Amber Soy Candle - Vanilla Bean"
    assert (detail.group_title, detail.scent, detail.vessel) == ("8oz Soy Candle", "Vanilla Bean", "Amber")
    assert (detail.category_slug, detail.subcategory_name) == ("candles", "Signature Candle Collection")
    assert [i.url for i in detail.images] == ["/media/a.webp", "/media/b.webp"]
    assert detail.images[0].alt == detail.name  # no alt text stored: the name
    assert [(s.vessel, s.scent) for s in detail.siblings] == [
        ("Amber", "Cedar & Sage"),
        ("Amber", "Vanilla Bean"),
        ("Matte White", "Lavender Fields"),
    ]


def test_unknown_and_archived_products_have_no_page(session: Session, shop: Catalogue) -> None:
    archived = shop.add("8oz Blush Soy Candle - Peony", is_active=False)

    assert get_product(session, archived.id) is None
    assert get_product(session, 10_000_000) is None
