"""Synthetic benchmark catalogues."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from shop_app.demo.artwork import render
from shop_app.demo.demo_catalog import CATEGORIES, PRODUCT_TYPES, PRODUCTS, DemoProduct
from shop_app.demo.synthetic import scent_vocabulary, synthetic_products, unsuffixed_capacity
from shop_app.domain.product_names import VESSELS

NAME = re.compile(
    r"^(?:\d+(?:\.\d+)?(?:oz|ml) )?(?:(?:" + "|".join(re.escape(v) for v in VESSELS) + r") )?"
    r"[A-Z][A-Za-z&' ]*[a-z] - \S.*\S$"
)


def _fingerprint(items: list[DemoProduct]) -> list[tuple]:
    return [
        (p.name, p.sku, p.base_price_cents, p.sale_price_cents, p.stock_quantity, p.is_new, p.is_featured)
        for p in items
    ]


@pytest.mark.parametrize("n", [0, 1, 7, 500, 3000])
def test_exactly_n_unique_items(n: int) -> None:
    items = list(synthetic_products(n))
    assert len(items) == n
    assert len({p.name for p in items}) == n
    assert len({p.sku for p in items}) == n


def test_deterministic_for_the_same_seed() -> None:
    assert _fingerprint(list(synthetic_products(800, seed=42))) == _fingerprint(
        list(synthetic_products(800, seed=42))
    )
    assert list(synthetic_products(50, seed=9)) == list(synthetic_products(50, seed=9))


def test_different_for_different_seeds() -> None:
    a = _fingerprint(list(synthetic_products(300, seed=1)))
    b = _fingerprint(list(synthetic_products(300, seed=2)))
    assert a != b
    assert [x[0] for x in a] != [x[0] for x in b]


def test_prefix_is_stable() -> None:
    """The first k items do not depend on how many were asked for."""
    short = list(synthetic_products(100, seed=5))
    long = list(synthetic_products(1000, seed=5))
    assert short == long[:100]


def test_names_follow_the_pattern_and_never_clash_with_the_demo() -> None:
    demo = {p.name for p in PRODUCTS}
    items = list(synthetic_products(2000, seed=3))
    for p in items:
        assert NAME.match(p.name), p.name
        assert p.name not in demo
        _, scent = p.name.split(" - ", 1)
        assert not any(v.lower() in scent.lower() for v in VESSELS)


def test_large_scent_vocabulary_of_two_word_scents() -> None:
    vocab = scent_vocabulary()
    assert len(vocab) >= 60
    assert len(set(vocab)) == len(vocab)
    assert all(len(s.split()) == 2 for s in vocab)


def test_batch_suffix_only_when_needed() -> None:
    cap = unsuffixed_capacity()
    assert cap >= 5000
    items = list(synthetic_products(cap, seed=11))
    assert not any("(Batch" in p.name for p in items)
    more = list(synthetic_products(cap + 10, seed=11))
    assert sum("(Batch 2)" in p.name for p in more) == 10
    assert len({p.name for p in more}) == cap + 10


def test_spread_over_categories_and_values_are_sane() -> None:
    cats = {c.name: c for c in CATEGORIES}
    items = list(synthetic_products(5000, seed=7))
    subs = Counter(p.subcategory for p in items)
    for c in CATEGORIES:
        if c.parent is not None:
            assert subs[c.name] > 0, c.name
    assert {p.product_type for p in items} == set(PRODUCT_TYPES)
    for p in items:
        assert cats[p.subcategory].parent == p.category
        assert type(p.base_price_cents) is int and p.base_price_cents > 0
        assert p.sale_price_cents is None or 0 < p.sale_price_cents < p.base_price_cents
        assert 0 <= p.stock_quantity <= 60
    stocks = [p.stock_quantity for p in items]
    assert stocks.count(0) > 0 and sum(1 <= s <= 5 for s in stocks) > 0
    assert any(p.is_featured for p in items) and any(p.is_new for p in items)
    assert any(p.sale_price_cents for p in items)
    assert Counter(p.product_type for p in items).most_common(1)[0][0] == "candles"


def test_negative_n_is_rejected() -> None:
    with pytest.raises(ValueError):
        synthetic_products(-1)


def test_thirty_thousand_still_unique() -> None:
    items = list(synthetic_products(30_000, seed=4))
    assert len({p.name for p in items}) == 30_000


def test_synthetic_image_specs_render() -> None:
    kinds = {}
    for p in synthetic_products(400, seed=2):
        kinds.setdefault(p.image.kind, p.image)
    assert {"jar", "pump", "diffuser", "spray"} <= set(kinds)
    for spec in kinds.values():
        assert render(spec, (120, 120)).size == (120, 120)
