"""Storefront catalogue queries: filters, search (with one typo), grouping, paging, product pages.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from shop_app import migrate
from shop_app.db import create_db_engine
from shop_app.domain.grouping import group_key
from shop_app.models import Category, Product, ProductImage
from shop_app.models.catalog import product_search_text
from shop_app.services.catalog import (
    ShopQuery,
    category_counts,
    featured_cards,
    filters,
    get_product,
    search,
    shop_page,
    variation,
)
from shop_app.services.catalog.filters import escape_like
from shop_app.services.catalog.listing import MAX_VARIATIONS_PER_CARD
from tests.support.databases import temporary_database

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


@pytest.fixture(autouse=True)
def fresh_vocabulary() -> None:
    """Each test's searches correct typos against its own catalogue (the cache outlives tests)."""
    search.refresh_vocabulary()


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


@pytest.mark.parametrize("grouped", [False, True])
def test_counts_with_a_search_are_what_each_pill_leads_to(
    session: Session, shop: Catalogue, grouped: bool
) -> None:
    """A stranger's find: with a search the pills still counted every product ("Candles (7)"
    leading to "Showing 0 products")."""
    for words in ("lotion", "candle", "nothing-like-this"):
        counts = category_counts(session, grouped=grouped, search=words)
        for count in counts:
            listing = shop_page(session, ShopQuery(category=count.slug, search=words, grouped=grouped))
            assert count.count == listing.total, (words, count.slug)
    assert {c.slug: c.count for c in category_counts(session, search="lotion")}["candles"] == 0


def test_grouped_counts_count_the_cards_the_grouped_shop_shows(session: Session, shop: Catalogue) -> None:
    """Issue 15: the pills counted variations while the grid showed groups."""
    counts = {c.slug: c.count for c in category_counts(session, grouped=True)}
    candles = shop_page(session, ShopQuery(category="candles", grouped=True))

    assert counts["candles"] == candles.total == len(candles.cards)
    assert counts["candles"] < {c.slug: c.count for c in category_counts(session)}["candles"]


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


def _layout(page) -> list[tuple[str, int, list[int]]]:
    return [(card.key, card.variation_count, [v.id for v in card.variations]) for card in page.cards]


def test_a_term_found_only_in_a_subcategory_name_matches_its_products(
    session: Session, shop: Catalogue
) -> None:
    page = shop_page(session, ShopQuery(search="signature", grouped=False))

    assert sorted(_titles(page)) == [
        "8oz Amber Soy Candle - Cedar & Sage",
        "8oz Amber Soy Candle - Vanilla Bean",
        "8oz Matte White Soy Candle - Lavender Fields",
    ]


def test_search_text_follows_every_change_of_the_name_and_description(
    session: Session, shop: Catalogue
) -> None:
    product = shop.add("8oz Glossy Soy Candle - CRÈME Brûlée", description="Burnt SUGAR")
    assert product.search_text == product_search_text(product.name, product.description)
    assert product.search_text == "8oz glossy soy candle - crème brûlée\nburnt sugar"

    product.description = "Caramelised sugar and vanilla bean"
    session.flush()
    session.refresh(product)

    assert "caramelised" in product.search_text and "burnt" not in product.search_text
    assert _titles(shop_page(session, ShopQuery(search="CARAMELISED", grouped=False))) == [product.name]
    assert _titles(shop_page(session, ShopQuery(search="crème", grouped=False))) == [product.name]
    assert shop_page(session, ShopQuery(search="burnt", grouped=False)).total == 0


@pytest.mark.parametrize(
    "query",
    [
        ShopQuery(search="vanilla"),
        ShopQuery(search="vanila candles", grouped=False),
        ShopQuery(search="soy", category="candles"),
        ShopQuery(search="lotion signature"),
        ShopQuery(search="candle", limit=1, offset=1),
    ],
)
def test_a_broad_search_finds_the_same_page_as_a_narrow_one(
    session: Session, shop: Catalogue, monkeypatch: pytest.MonkeyPatch, query: ShopQuery
) -> None:
    narrow = shop_page(session, query)
    monkeypatch.setattr(filters, "MAX_RESOLVED_MATCHES", 0)  # every search counts as broad

    broad = shop_page(session, query)

    assert (broad.total, _layout(broad)) == (narrow.total, _layout(narrow))


def test_a_card_shows_the_first_variations_by_name_and_counts_them_all(
    session: Session, shop: Catalogue, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in reversed(range(30)):
        shop.add(f"8oz Glossy Soy Candle - Scent {n:02d}", description="A sweet scent")
    expected_first = sorted(
        ["8oz Amber Soy Candle - Cedar & Sage", "8oz Amber Soy Candle - Vanilla Bean"]
        + [f"8oz Glossy Soy Candle - Scent {n:02d}" for n in range(30)]
        + ["8oz Matte White Soy Candle - Lavender Fields"]
    )[:MAX_VARIATIONS_PER_CARD]

    listed = shop_page(session, ShopQuery()).cards[0]  # walks the group's name index
    searched = shop_page(session, ShopQuery(search="candle")).cards[0]  # ranks the few matches
    monkeypatch.setattr(filters, "MAX_RESOLVED_MATCHES", 0)
    broad = shop_page(session, ShopQuery(search="candle")).cards[0]  # walks, matching the text

    for card in (listed, searched, broad):
        assert card.title == "8oz Soy Candle"
        assert [v.name for v in card.variations] == expected_first
        assert card.variation_count == 33
    sweet = shop_page(session, ShopQuery(search="sweet")).cards[0]
    assert (len(sweet.variations), sweet.variation_count) == (MAX_VARIATIONS_PER_CARD, 30)


def test_a_page_past_the_last_still_tells_how_many_cards_there_are(session: Session, shop: Catalogue) -> None:
    page = shop_page(session, ShopQuery(offset=10))

    assert page.cards == [] and page.total == 4
    assert shop_page(session, ShopQuery(search="nothing-like-this")).total == 0


def test_variation_is_one_active_product_as_a_card_shows_it(session: Session, shop: Catalogue) -> None:
    lotion = shop_page(session, ShopQuery(search="lotion", grouped=False)).cards[0].variations[0]
    session.add(ProductImage(product_id=lotion.id, image_url="/media/l.webp", width=800, is_primary=True))
    session.flush()
    archived = shop.add("8oz Blush Soy Candle - Peony", is_active=False)

    found = variation(session, lotion.id)

    assert found is not None
    assert (found.id, found.scent, found.vessel) == (lotion.id, "Coconut Lime", "")
    assert (found.image_url, found.image_width, found.base_price_cents) == ("/media/l.webp", 800, 2800)
    assert variation(session, archived.id) is None
    assert variation(session, 10_000_000) is None


def test_typo_corrections_see_catalogue_changes_after_a_few_seconds_or_on_refresh(
    session: Session, shop: Catalogue
) -> None:
    now = [1000.0]

    def clock() -> float:
        return now[0]

    assert "zanzibar" not in search.vocabulary(session, clock=clock)
    shop.add("8oz Amber Soy Candle - Zanzibar Clove")

    assert "zanzibar" not in search.vocabulary(session, clock=clock)  # not re-checked yet
    now[0] += search.RECHECK_SECONDS
    assert "zanzibar" in search.vocabulary(session, clock=clock)

    shop.add("8oz Amber Soy Candle - Yuzu Blossom")
    search.refresh_vocabulary()
    assert "yuzu" in search.vocabulary(session, clock=clock)


def test_the_migration_makes_existing_products_searchable(tmp_path: Path) -> None:
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade("9839596b79f3", engine=engine)  # before products.search_text
            with engine.begin() as connection:
                connection.execute(
                    sa.text(
                        "INSERT INTO products (name, description, group_key, base_price_cents, "
                        "stock_quantity, is_active, is_featured, is_new_arrival, scent_notes, details, "
                        "variants, pricing, created_at, updated_at) VALUES ('Room Spray - ROSE', "
                        "'Fresh PETALS', 'room spray', 1600, 3, TRUE, FALSE, FALSE, '[]', '{}', '{}', '{}', "
                        "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                    )
                )
            migrate.upgrade(engine=engine)

            with Session(engine) as session:
                page = shop_page(session, ShopQuery(search="petals", grouped=False))
                stored = session.execute(sa.select(Product.search_text)).scalar_one()
        finally:
            engine.dispose()

    assert _titles(page) == ["Room Spray - ROSE"]
    assert stored == "room spray - rose\nfresh petals"
