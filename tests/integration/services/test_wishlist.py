"""Favourites: the seed's messages, duplicates, prices and images, order, users kept apart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from shop_app.models import Category, Product, ProductImage, User, WishlistItem
from shop_app.services import wishlist
from shop_app.services.wishlist import WishlistError

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def _user(session: Session, email: str) -> User:
    user = User(email=email, password_hash="x")
    session.add(user)
    session.flush()
    return user


def _product(
    session: Session, name: str = "8oz Amber Soy Candle - Vanilla Bean", **fields: object
) -> Product:
    values = {"base_price_cents": 2800, "stock_quantity": 10}
    product = Product(name=name, **{**values, **fields})
    session.add(product)
    session.flush()
    return product


@pytest.fixture
def alice(session: Session) -> User:
    return _user(session, "alice@example.com")


@pytest.fixture
def bob(session: Session) -> User:
    return _user(session, "bob@example.com")


def test_add_then_add_again_gives_the_seed_messages(session: Session, alice: User) -> None:
    candle = _product(session)

    first = wishlist.add(session, user_id=alice.id, product_id=candle.id)
    second = wishlist.add(session, user_id=alice.id, product_id=candle.id)

    assert (first.message, first.kind, first.in_wishlist) == ("Added to wishlist", "success", True)
    assert (second.message, second.kind, second.in_wishlist) == (
        "Item is already in your wishlist",
        "info",
        True,
    )
    assert wishlist.count(session, user_id=alice.id) == 1


def test_a_row_inserted_by_a_racing_request_reads_as_already_there(
    session: Session, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    candle = _product(session)
    session.add(WishlistItem(user_id=alice.id, product_id=candle.id))
    session.flush()
    # The other request's row was not visible when this one looked: the unique constraint decides.
    real_row = wishlist._row
    calls = iter([None])
    monkeypatch.setattr(wishlist, "_row", lambda *args: next(calls, real_row(*args)))

    result = wishlist.add(session, user_id=alice.id, product_id=candle.id)

    assert (result.message, result.kind) == ("Item is already in your wishlist", "info")
    # The failed insert was rolled back to its savepoint: the session is still usable.
    assert wishlist.product_ids(session, user_id=alice.id) == {candle.id}


def test_an_integrity_error_that_is_not_a_duplicate_is_not_hidden(session: Session) -> None:
    candle = _product(session)

    with pytest.raises(sa.exc.IntegrityError):
        wishlist.add(session, user_id=987654, product_id=candle.id)  # no such user


def test_remove_and_toggle(session: Session, alice: User) -> None:
    candle = _product(session)

    on = wishlist.toggle(session, user_id=alice.id, product_id=candle.id)
    assert (on.message, on.in_wishlist) == ("Added to wishlist", True)
    off = wishlist.toggle(session, user_id=alice.id, product_id=candle.id)
    assert (off.message, off.kind, off.in_wishlist) == ("Removed from wishlist", "success", False)
    assert wishlist.product_ids(session, user_id=alice.id) == set()

    again = wishlist.remove(session, user_id=alice.id, product_id=candle.id)
    assert again.message == "Removed from wishlist"


@pytest.mark.parametrize("archived", [True, False])
def test_unknown_or_archived_products_cannot_be_added(session: Session, alice: User, archived: bool) -> None:
    product_id = _product(session, is_active=False).id if archived else 424242

    with pytest.raises(WishlistError, match=r"^This product is no longer available$"):
        wishlist.add(session, user_id=alice.id, product_id=product_id)

    assert session.exec(select(WishlistItem)).all() == []


def test_price_is_the_sale_price_only_when_it_counts(session: Session, alice: User) -> None:
    on_sale = _product(session, "Sale", base_price_cents=3000, sale_price_cents=2400)
    not_lower = _product(session, "Not lower", base_price_cents=3000, sale_price_cents=3500)
    no_sale = _product(session, "No sale", base_price_cents=1999)
    for product in (on_sale, not_lower, no_sale):
        wishlist.add(session, user_id=alice.id, product_id=product.id)

    entries = {e.name: e for e in wishlist.list_entries(session, user_id=alice.id)}

    assert (entries["Sale"].price_cents, entries["Sale"].sale_price_cents) == (2400, 2400)
    assert (entries["Not lower"].price_cents, entries["Not lower"].sale_price_cents) == (3000, None)
    assert (entries["No sale"].price_cents, entries["No sale"].base_price_cents) == (1999, 1999)


def test_image_is_the_primary_else_the_first_by_display_order_else_empty(
    session: Session, alice: User
) -> None:
    with_primary = _product(session, "With primary")
    by_order = _product(session, "By order")
    no_image = _product(session, "No image")
    session.add_all(
        [
            ProductImage(product_id=with_primary.id, image_url="/a-first.webp", display_order=0),
            ProductImage(
                product_id=with_primary.id, image_url="/b-primary.webp", display_order=5, is_primary=True
            ),
            ProductImage(product_id=by_order.id, image_url="/later.webp", display_order=2),
            ProductImage(product_id=by_order.id, image_url="/earlier.webp", display_order=1, width=800),
        ]
    )
    for product in (with_primary, by_order, no_image):
        wishlist.add(session, user_id=alice.id, product_id=product.id)

    entries = {e.name: e for e in wishlist.list_entries(session, user_id=alice.id)}

    assert entries["With primary"].image_url == "/b-primary.webp"
    assert (entries["By order"].image_url, entries["By order"].image_width) == ("/earlier.webp", 800)
    assert (entries["No image"].image_url, entries["No image"].image_width) == ("", None)


def test_entry_carries_category_and_stock(session: Session, alice: User) -> None:
    candles = Category(name="Candles", slug="candles")
    session.add(candles)
    session.flush()
    in_stock = _product(session, "In stock", category_id=candles.id, stock_quantity=3)
    sold_out = _product(session, "Sold out", stock_quantity=0)
    for product in (in_stock, sold_out):
        wishlist.add(session, user_id=alice.id, product_id=product.id)

    entries = {e.name: e for e in wishlist.list_entries(session, user_id=alice.id)}

    assert (entries["In stock"].category, entries["In stock"].category_slug) == ("Candles", "candles")
    assert (entries["In stock"].in_stock, entries["In stock"].stock_quantity) == (True, 3)
    assert (entries["Sold out"].category, entries["Sold out"].in_stock) == ("", False)


def test_entries_are_newest_first(session: Session, alice: User) -> None:
    products = [_product(session, f"Candle {i}") for i in range(3)]
    for minutes, product in zip((5, 1, 9), products, strict=True):
        session.add(
            WishlistItem(user_id=alice.id, product_id=product.id, created_at=T0 + timedelta(minutes=minutes))
        )
    session.flush()

    entries = wishlist.list_entries(session, user_id=alice.id)

    assert [e.name for e in entries] == ["Candle 2", "Candle 0", "Candle 1"]
    assert entries[0].created_at == T0 + timedelta(minutes=9)


def test_users_only_ever_see_their_own_favourites(session: Session, alice: User, bob: User) -> None:
    rose, cedar = _product(session, "Rose"), _product(session, "Cedar")
    wishlist.add(session, user_id=alice.id, product_id=rose.id)
    wishlist.add(session, user_id=bob.id, product_id=cedar.id)

    # Bob's heart on Rose is his own, not "already in your wishlist" because Alice has it.
    assert wishlist.add(session, user_id=bob.id, product_id=rose.id).message == "Added to wishlist"
    wishlist.remove(session, user_id=bob.id, product_id=rose.id)

    assert [e.name for e in wishlist.list_entries(session, user_id=alice.id)] == ["Rose"]
    assert wishlist.product_ids(session, user_id=bob.id) == {cedar.id}
    assert wishlist.count(session, user_id=alice.id) == wishlist.count(session, user_id=bob.id) == 1
    # Removing through Bob never touches Alice's row.
    wishlist.remove(session, user_id=bob.id, product_id=cedar.id)
    assert wishlist.product_ids(session, user_id=alice.id) == {rose.id}


def test_archived_products_are_hidden_but_come_back_when_reactivated(session: Session, alice: User) -> None:
    rose, cedar = _product(session, "Rose"), _product(session, "Cedar")
    for product in (rose, cedar):
        wishlist.add(session, user_id=alice.id, product_id=product.id)

    cedar.is_active = False
    session.add(cedar)
    session.flush()

    assert [e.name for e in wishlist.list_entries(session, user_id=alice.id)] == ["Rose"]
    assert wishlist.product_ids(session, user_id=alice.id) == {rose.id}
    assert wishlist.count(session, user_id=alice.id) == 1

    cedar.is_active = True
    session.add(cedar)
    session.flush()
    assert wishlist.count(session, user_id=alice.id) == 2


def test_an_archived_favourite_can_still_be_removed(session: Session, alice: User) -> None:
    rose = _product(session, "Rose")
    wishlist.add(session, user_id=alice.id, product_id=rose.id)
    rose.is_active = False
    session.add(rose)
    session.flush()

    assert wishlist.toggle(session, user_id=alice.id, product_id=rose.id).message == "Removed from wishlist"
    assert session.exec(select(WishlistItem)).all() == []


def test_empty_wishlist(session: Session, alice: User) -> None:
    assert wishlist.list_entries(session, user_id=alice.id) == []
    assert wishlist.product_ids(session, user_id=alice.id) == set()
    assert wishlist.count(session, user_id=alice.id) == 0
