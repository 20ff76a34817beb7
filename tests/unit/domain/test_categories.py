"""Category rules: the dialog's fields, the two-level hierarchy, deletion
(docs/spec/admin-categories.md#records, #rules; docs/spec/limits.md#back-office)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.admin_messages import CategoryMessage
from shop_app.domain.categories import (
    CategoryError,
    CategoryRecord,
    category_input,
    check_deletable,
    check_parent,
    hierarchy,
    parent_choices,
    parse_parent,
    parse_sort_order,
)


def _record(id_: int, name: str, parent_id: int | None = None, *, active: bool = True, order: int = 0):
    return CategoryRecord(id_, name, name.lower(), "", parent_id, active, order)


def test_input_is_trimmed_and_gets_the_seed_slug() -> None:
    data = category_input(
        name="  Hand & Body Lotion ", description=" Rich. ", parent="4", sort_order=" 3 ", is_active=False
    )

    assert (data.name, data.slug, data.description) == ("Hand & Body Lotion", "hand-body-lotion", "Rich.")
    assert (data.parent_id, data.sort_order, data.is_active) == (4, 3, False)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", CategoryMessage.NAME_REQUIRED),
        ("   ", CategoryMessage.NAME_REQUIRED),
        ("x" * 256, CategoryMessage.NAME_TOO_LONG),
        ("!!!", CategoryMessage.NAME_WITHOUT_SLUG),
        ("香り", CategoryMessage.NAME_WITHOUT_SLUG),
    ],
)
def test_name_is_required_at_most_255_characters_and_must_give_a_slug(name: str, message: str) -> None:
    with pytest.raises(CategoryError, match="^" + message + "$"):
        category_input(name=name)


def test_a_name_of_255_characters_is_accepted() -> None:
    assert category_input(name="x" * 255).slug == "x" * 255


@pytest.mark.parametrize(("text", "number"), [("", 0), ("  ", 0), ("0", 0), ("12", 12), (" -4 ", -4), (7, 7)])
def test_sort_order_is_a_whole_number_defaulting_to_zero(text: str | int, number: int) -> None:
    assert parse_sort_order(text) == number


@pytest.mark.parametrize("text", ["1.5", "two", "1e3", "--1", str(2**31), str(-(2**31) - 1)])
def test_other_sort_orders_are_refused(text: str) -> None:
    with pytest.raises(CategoryError, match=CategoryMessage.SORT_ORDER_INVALID):
        parse_sort_order(text)


@given(st.integers(min_value=-(2**31), max_value=2**31 - 1))
def test_every_storable_sort_order_round_trips(number: int) -> None:
    assert parse_sort_order(str(number)) == number


@pytest.mark.parametrize(("value", "parent"), [(None, None), ("", None), ("none", None), ("12", 12), (5, 5)])
def test_parent_none_means_a_main_category(value: str | int | None, parent: int | None) -> None:
    assert parse_parent(value) == parent


def test_a_parent_that_is_not_an_id_cannot_exist() -> None:
    with pytest.raises(CategoryError, match=CategoryMessage.PARENT_NOT_FOUND):
        parse_parent("candles")


def test_a_category_cannot_be_its_own_parent() -> None:
    with pytest.raises(CategoryError, match=CategoryMessage.OWN_PARENT):
        check_parent(category_id=3, parent=_record(3, "Candles"), parent_id=3, has_subcategories=False)


def test_the_parent_must_exist_and_be_a_main_category() -> None:
    with pytest.raises(CategoryError, match=CategoryMessage.PARENT_NOT_FOUND):
        check_parent(category_id=None, parent=None, parent_id=9, has_subcategories=False)
    with pytest.raises(CategoryError, match=CategoryMessage.PARENT_NOT_MAIN):
        check_parent(category_id=None, parent=_record(2, "Fall", 1), parent_id=2, has_subcategories=False)


def test_a_category_with_subcategories_stays_a_main_category() -> None:
    with pytest.raises(CategoryError) as refused:
        check_parent(
            category_id=1, parent=_record(5, "Gifts"), parent_id=5, has_subcategories=True, name="Candles"
        )

    assert str(refused.value) == CategoryMessage.HAS_SUBCATEGORIES.format(name="Candles")
    assert "two levels" in str(refused.value)
    # As a main category it may keep them.
    check_parent(category_id=1, parent=None, parent_id=None, has_subcategories=True, name="Candles")


def test_a_subcategory_may_move_under_another_main_category() -> None:
    check_parent(category_id=2, parent=_record(5, "Gifts"), parent_id=5, has_subcategories=False)


@pytest.mark.parametrize(
    ("subcategories", "products", "message"),
    [
        (2, 0, '"Candles" still has 2 subcategories. Move them under another category or delete them first.'),
        (1, 7, '"Candles" still has 1 subcategory. Move them under another category or delete them first.'),
        (
            0,
            1,
            '"Candles" still has 1 product. Move them to another category first, or deactivate the '
            "category to hide it from the shop.",
        ),
        (
            0,
            3,
            '"Candles" still has 3 products. Move them to another category first, or deactivate the '
            "category to hide it from the shop.",
        ),
    ],
)
def test_a_category_that_still_holds_something_is_not_deleted(
    subcategories: int, products: int, message: str
) -> None:
    with pytest.raises(CategoryError) as refused:
        check_deletable(name="Candles", subcategories=subcategories, products=products)
    assert str(refused.value) == message


def test_an_empty_category_may_be_deleted() -> None:
    check_deletable(name="Gift Sets", subcategories=0, products=0)


def test_hierarchy_orders_by_sort_order_then_name_and_nests_subcategories() -> None:
    rows = [
        _record(1, "Candles", order=1),
        _record(2, "body care", order=1),
        _record(3, "Custom", order=0, active=False),
        _record(4, "Summer", 1, order=2),
        _record(5, "Fall", 1, order=2),
        _record(6, "Signature", 1, order=0),
        _record(7, "Lotion", 2),
    ]

    tree = hierarchy(rows)

    assert [b.category.name for b in tree.branches] == ["Custom", "body care", "Candles"]
    assert [[s.name for s in b.subcategories] for b in tree.branches] == [
        [],
        ["Lotion"],
        ["Signature", "Fall", "Summer"],
    ]
    assert (tree.total, tree.mains, tree.subcategories, tree.active) == (7, 3, 4, 6)
    assert tree.orphans == ()


def test_subcategories_without_a_main_category_above_are_orphans() -> None:
    rows = [
        _record(1, "Candles"),
        _record(2, "Fall", 1),
        _record(3, "Lost", 99),  # parent missing
        _record(4, "Too Deep", 2),  # parent is a subcategory
    ]

    tree = hierarchy(rows)

    assert [o.name for o in tree.orphans] == ["Lost", "Too Deep"]
    assert [s.name for s in tree.branches[0].subcategories] == ["Fall"]
    assert (tree.total, tree.mains, tree.subcategories) == (4, 1, 3)


def test_the_parent_selector_offers_main_categories_but_never_the_edited_one() -> None:
    tree = hierarchy([_record(1, "Candles"), _record(2, "Body Care"), _record(3, "Fall", 1)])

    assert [c.name for c in parent_choices(tree, editing_id=1)] == ["Body Care"]
    assert [c.name for c in parent_choices(tree, editing_id=None)] == ["Body Care", "Candles"]
