"""The product lists paged by the database (services.admin.product_listing; issue 17, acceptance 8).

Each query is checked against the reference the screens used before: the whole catalogue read
(``products.admin_products``), filtered (``filter_rows``), sorted (``domain.product_sort``) and
grouped (``variants.vessel_groups``) in Python. Runs on SQLite, and on PostgreSQL when
TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.admin_listing import page_count
from shop_app.domain.product_sort import ProductSort, sort_products
from shop_app.models import Category, Product, ProductImage
from shop_app.models.catalog import product_vessel_key
from shop_app.services.admin import product_listing as listing
from shop_app.services.admin import variants
from shop_app.services.admin.products import admin_products, filter_rows
from tests.support.admin_products import add_product
from tests.support.databases import delete_all_rows

NAMES = (
    "8oz Matte White Soy Candle - Lavender Fields",
    "8oz matte white soy candle - Vanilla",
    "8oz Matte White Soy Candle - Fig 100%",
    "Amber Jar - Vanilla_Bean",
    "AMBER JAR - Cedar",
    "Straße Candle",
    "Éclair Room Spray - Rose",
    "éclair room spray - Oud",
    "Cedar Candle",
    "Best  Seller",
    "Lotion - Coconut",
    "Lotion - coconut",
    "Wax Melt - 42",
    "  Spaced   Vessel  -  Pine ",
    "Blush - ",
    "- Lonely",
    "Zebra",
    "apple",
    "Apple",
    "Diffuser - Rose",
)
SEARCHES = (
    "", "a", "VANILLA", "vanilla_", "100%", "%", "_", "\\", "ss", "STRASSE", "éclair", "ÉCLAIR",
    "candles", "body", "care", "1", "2", "12", "  matte   white ", "rose", "zz", "-", " - ", "lotion - c",
)  # fmt: skip


@pytest.fixture(scope="module")
def catalogue(engine: Engine) -> Iterator[dict[str, Any]]:
    """Twenty products over two main categories and a subcategory, prices on and off sale."""
    with Session(engine, expire_on_commit=False) as session:
        candles = Category(name="Candles", slug="candles", sort_order=1)
        body = Category(name="Body Care", slug="body-care", sort_order=2)
        session.add_all([candles, body])
        session.flush()
        signature = Category(name="Signature Candle Collection", slug="signature", parent_id=candles.id)
        session.add(signature)
        session.flush()
        for number, name in enumerate(NAMES):
            product = add_product(
                session,
                name,
                category_id=(candles.id, body.id, None)[number % 3],
                subcategory_id=signature.id if number % 6 == 0 else None,
                base_price_cents=1000 + (number * 370) % 2500,
                sale_price_cents=(None, 900, 5000, 1200)[number % 4],
                stock_quantity=(0, 3, 5, 6, 40)[number % 5],
                is_active=number % 7 != 3,
                is_featured=number % 4 == 1,
            )
            if number % 5 == 0:
                session.add(
                    ProductImage(product_id=product.id, image_url=f"/media/p/{number}.webp", width=600)
                )
        session.commit()
        ids = {"candles": candles.id, "body": body.id, "signature": signature.id}
    yield ids
    delete_all_rows(engine)


@pytest.fixture
def db(engine: Engine, catalogue: dict[str, Any]) -> Iterator[Session]:
    with Session(engine) as session:
        yield session


def _reference(session: Session, *, search: str, category: int | None, sub: int | None, sort: ProductSort):
    return sort_products(
        filter_rows(admin_products(session), search=search, category_id=category, subcategory_id=sub), sort
    )


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    search=st.sampled_from(SEARCHES) | st.text(alphabet="aeAElnvs -%_1É", max_size=4),
    category=st.sampled_from([None, "candles", "body"]),
    sub=st.booleans(),
    sort=st.sampled_from(list(ProductSort)),
    page=st.integers(min_value=-1, max_value=6),
    size=st.sampled_from([1, 3, 7, 20]),
)
def test_a_page_is_the_reference_lists_page(  # noqa: PLR0917 - hypothesis passes the arguments
    db: Session, catalogue: dict[str, Any], search: str, category: str | None, sub: bool, sort: ProductSort,
    page: int, size: int,
) -> None:  # fmt: skip
    category_id = catalogue[category] if category else None
    sub_id = catalogue["signature"] if sub and category == "candles" else None
    expected = _reference(db, search=search, category=category_id, sub=sub_id, sort=sort)

    found = listing.list_products(
        db,
        search=search,
        category_id=category_id,
        subcategory_id=sub_id,
        sort=sort,
        page=page,
        page_size=size,
    )

    pages = page_count(len(expected), size)
    shown = min(max(1, page), pages)
    assert (found.total, found.pages, found.page) == (len(expected), pages, shown)
    assert list(found.rows) == expected[(shown - 1) * size : shown * size]


def test_the_cards_count_the_whole_catalogue(db: Session) -> None:
    rows = admin_products(db)
    stats = listing.product_counts(db)
    assert (stats.total, stats.active, stats.featured, stats.low_stock) == (
        len(rows),
        sum(r.is_active for r in rows),
        sum(r.is_featured for r in rows),
        sum(r.low_stock for r in rows),
    )
    assert listing.catalogue_size(db) == len(rows)
    first = rows[0]
    assert listing.product_row(db, first.id) == first
    assert listing.product_row(db, 10**9) is None


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    search=st.sampled_from(SEARCHES) | st.text(alphabet="aeAElnvs -%", max_size=4),
    page=st.integers(min_value=0, max_value=5),
    size=st.sampled_from([1, 4, 20]),
    opened=st.sets(st.integers(min_value=0, max_value=19), max_size=4),
    shown=st.integers(min_value=1, max_value=3),
)
def test_a_page_of_groups_is_the_reference_grouping(  # noqa: PLR0917 - hypothesis passes the arguments
    db: Session, search: str, page: int, size: int, opened: set[int], shown: int
) -> None:
    _check_groups(db, search=search, page=page, size=size, opened=opened, shown=shown)


def _check_groups(db: Session, *, search: str, page: int, size: int, opened: set[int], shown: int) -> None:
    everything = variants.vessel_groups(admin_products(db))
    expected = variants.search_groups(everything, search)
    keys = [g.base_name.casefold() for g in everything]
    wanted = {keys[i % len(keys)]: shown for i in opened}

    found = listing.list_groups(db, search=search, opened=wanted, page=page, page_size=size)

    pages = page_count(len(expected), size)
    at = min(max(1, page), pages)
    page_groups = expected[(at - 1) * size : at * size]
    assert (found.total, found.pages, found.page) == (len(expected), pages, at)
    assert found.stats == variants.grouped_stats(everything)
    assert [g.base_name for g in found.groups] == [g.base_name for g in page_groups]
    for got, want in zip(found.groups, page_groups, strict=True):
        assert got.key == want.base_name.casefold()
        assert (got.label, got.expandable, got.first, got.variant_count) == (
            want.label,
            want.expandable,
            want.first,
            len(want.variations),
        )
        if len(want.variations) == 1:
            assert got.variants == want.variations
        else:
            assert got.variants == want.variations[: wanted.get(got.key, 0)]


def test_the_stored_vessel_key_follows_every_rename(db: Session) -> None:
    """``products.vessel_key`` is set from the name on insert and on every change of the name, so a
    renamed product moves to its new group (the session is rolled back at the end)."""
    product = add_product(db, "Straße Jar - Fig")
    assert product.vessel_key == product_vessel_key("Straße Jar - Fig") == "strasse jar"
    lonely = db.exec(select(Product).where(Product.name == "Cedar Candle")).one()
    lonely.name = "amber jar - Smoke"  # joins "Amber Jar", and becomes its newest variation
    product.name = "  Blush   -  Fig "
    db.flush()
    assert (lonely.vessel_key, product.vessel_key) == ("amber jar", "blush")
    for search in ("", "amber", "smoke", "strasse", "cedar", "fig"):
        _check_groups(db, search=search, page=1, size=3, opened={0, 1, 2}, shown=3)
        _check_groups(db, search=search, page=2, size=3, opened=set(), shown=1)
    assert listing.vessel_group_names(db) == [g.base_name for g in variants.vessel_groups(admin_products(db))]


def test_groups_made_at_the_same_moment_are_ordered_by_their_newest_id(db: Session) -> None:
    moment = datetime(2031, 1, 1, tzinfo=UTC)
    for name in ("Tie Jar - One", "Other Tie - Two", "tie jar - Three", "Third Tie"):
        add_product(db, name, created_at=moment)
    found = listing.list_groups(db, page_size=3, opened={"tie jar": 5})
    assert [g.base_name for g in found.groups] == ["Third Tie", "tie jar", "Other Tie"]
    assert [v.name for v in found.groups[1].variants] == ["tie jar - Three", "Tie Jar - One"]
    for page in (1, 2, 9):
        _check_groups(db, search="", page=page, size=3, opened={0, 1}, shown=2)


def test_convert_to_variant_offers_every_vessel_group(db: Session) -> None:
    expected = [g.base_name for g in variants.vessel_groups(admin_products(db))]
    assert listing.vessel_group_names(db) == expected
    assert listing.first_shown(57) == 20 and listing.more_variants(20, 57) == 40
    assert listing.more_variants(40, 57) == 57 and listing.first_shown(3) == 3
