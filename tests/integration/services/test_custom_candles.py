"""The custom candle builder's vessels and designs: never listed, a real cart line priced from the
database, and an order line like any other (docs/architecture.md#orders-and-payment;
docs/spec/README.md#gaps).

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from shop_app.domain.custom_candle import STANDARD_VESSELS, BuilderText, Design, ScentChoice
from shop_app.domain.messages import CartMessage
from shop_app.domain.orders import OrderStatus
from shop_app.models import CartLine, Category, Order, OrderItem, Product, ProductImage, User
from shop_app.services import cart, catalog, checkout, custom_candles, order_history, seo, wishlist
from shop_app.services.cart import CartError, CartOwner
from shop_app.services.catalog import ShopQuery
from shop_app.services.ordering.receipt import load_receipt
from shop_app.services.payments import ChargeOutcome, ChargeRequest, ChargeStatus
from shop_app.services.seeding import load_custom_vessels
from shop_app.services.wishlist import WishlistError
from shop_app.settings import get_settings
from tests.support.checkout import FORM

GUEST = CartOwner(token="guest-with-a-design")
BLEND = (ScentChoice("vanilla", 5), ScentChoice("lavender", 2))
LABEL = "Lavender Fields (intensity 2/5), Vanilla Bean (intensity 5/5)"


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    monkeypatch.setenv("SQUARE_ENVIRONMENT", "local")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture
def vessels(session: Session) -> dict[str, Product]:
    """The standard vessels, by SKU, beside one listed candle."""
    session.add(Category(name="Custom", slug="custom"))
    session.add(Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800, stock_quantity=9))
    session.flush()
    return {product.sku: product for product in custom_candles.ensure_vessels(session)}


def _tumbler(vessels: dict[str, Product]) -> Product:
    return vessels["CUSTOM-TUMBLER-8"]


def _design(vessel: Product, **changes: object) -> Design:
    values = {"vessel_id": vessel.id, "scents": BLEND, "quantity": 2, "instructions": "  Gift tag: For Ana  "}
    return Design(**{**values, **changes})


def test_the_standard_vessels_are_created_once_unlisted_and_filed_under_custom(
    session: Session, vessels: dict[str, Product]
) -> None:
    assert sorted(vessels) == sorted(spec.sku for spec in STANDARD_VESSELS)
    custom = session.exec(select(Category).where(Category.slug == "custom")).one()
    for product in vessels.values():
        assert (product.is_active, product.is_listed, product.category_id) == (True, False, custom.id)
        assert product.stock_quantity == custom_candles.STANDARD_STOCK
    archived = _tumbler(vessels)
    archived.is_active = False
    session.add(archived)
    session.flush()

    assert custom_candles.ensure_vessels(session) == []  # by SKU: the archived one is not recreated
    assert len(custom_candles.vessel_choices(session)) == len(STANDARD_VESSELS) - 1


def test_vessel_choices_come_from_the_database_cheapest_first(session: Session, vessels: dict) -> None:
    tumbler = _tumbler(vessels)
    tumbler.sale_price_cents = 3500
    session.add(tumbler)
    session.flush()

    choices = custom_candles.vessel_choices(session)

    assert [c.price_cents for c in choices] == sorted(c.price_cents for c in choices)
    chosen = next(c for c in choices if c.id == tumbler.id)
    assert (chosen.name, chosen.size, chosen.burn_time, chosen.price_cents) == (
        "Classic Tumbler",
        "8 oz",
        "45-50 hours",
        3500,
    )
    assert chosen.in_stock


def test_vessels_are_never_listed_searched_featured_counted_or_in_the_sitemap(
    session: Session, vessels: dict[str, Product]
) -> None:
    tumbler = _tumbler(vessels)
    tumbler.is_featured = True
    session.add(tumbler)
    session.flush()
    hidden = {p.id for p in vessels.values()}

    grouped = catalog.shop_page(session, ShopQuery())
    individual = catalog.shop_page(session, ShopQuery(grouped=False))
    searched = catalog.shop_page(session, ShopQuery(search="custom candle", grouped=False))
    shown = {v.id for page in (grouped, individual, searched) for card in page.cards for v in card.variations}

    assert shown and not shown & hidden
    assert individual.total == catalog.active_product_count(session) == 1
    assert not {v.id for card in catalog.featured_cards(session) for v in card.variations} & hidden
    assert all(count.count == 0 for count in catalog.category_counts(session) if count.slug == "custom")
    assert catalog.get_product(session, tumbler.id) is None
    assert catalog.variation(session, tumbler.id) is None
    assert not {pid for pid, _ in seo.active_product_ids_with_lastmod(session)} & hidden
    user = User(email="fan@example.ca", password_hash="x")
    session.add(user)
    session.flush()
    with pytest.raises(WishlistError):
        wishlist.add(session, user_id=user.id, product_id=tumbler.id)


def test_a_design_becomes_a_cart_line_priced_from_the_database(session: Session, vessels: dict) -> None:
    tumbler = _tumbler(vessels)

    view, message = custom_candles.add_design(session, GUEST, _design(tumbler))

    (line,) = view.lines
    assert (line.product_id, line.quantity, line.unit_price_cents, line.line_total_cents) == (
        tumbler.id,
        2,
        3800,
        7600,
    )
    assert line.name == "Custom Candle: Classic Tumbler 8 oz"
    assert line.options_label == f"{LABEL} · Note: Gift tag: For Ana"
    assert not line.listed
    assert message == f"Added 2 Custom Candle: Classic Tumbler 8 oz to your cart ({LABEL})"
    stored = session.exec(select(CartLine)).one()
    assert stored.custom_note == "Gift tag: For Ana"
    assert stored.selected_options == {
        "Scent 1": "Lavender Fields (intensity 2/5)",
        "Scent 2": "Vanilla Bean (intensity 5/5)",
    }

    tumbler.base_price_cents = 4100  # the owner re-prices the vessel: the cart follows
    session.add(tumbler)
    session.flush()
    assert cart.view_cart(session, GUEST).lines[0].unit_price_cents == 4100


def test_the_same_design_adds_up_and_another_note_or_blend_is_another_line(
    session: Session, vessels: dict
) -> None:
    tumbler = _tumbler(vessels)
    custom_candles.add_design(session, GUEST, _design(tumbler))
    custom_candles.add_design(session, GUEST, _design(tumbler, scents=tuple(reversed(BLEND)), quantity=1))
    custom_candles.add_design(session, GUEST, _design(tumbler, instructions="No label"))
    view, _ = custom_candles.add_design(session, GUEST, _design(tumbler, scents=(ScentChoice("rose"),)))

    assert [(line.quantity, line.options_label) for line in view.lines] == [
        (3, f"{LABEL} · Note: Gift tag: For Ana"),
        (2, f"{LABEL} · Note: No label"),
        (2, "Wild Rose (intensity 3/5) · Note: Gift tag: For Ana"),
    ]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"vessel_id": None}, "Please select a vessel size"),
        ({"scents": ()}, "Please select at least one scent"),
        (
            {"scents": tuple(ScentChoice(s) for s in ("rose", "cedar", "honey", "linen"))},
            "You can select up to 3 scents for your custom blend",
        ),
        ({"quantity": 0}, BuilderText.QUANTITY_TOO_LOW.value),
        ({"instructions": "x" * 501}, BuilderText.INSTRUCTIONS_TOO_LONG.value),
    ],
)
def test_an_invalid_design_is_refused_with_its_message(
    session: Session, vessels: dict, changes: dict, message: str
) -> None:
    with pytest.raises(CartError) as refused:
        custom_candles.add_design(session, GUEST, _design(_tumbler(vessels), **changes))

    assert str(refused.value) == message
    assert cart.view_cart(session, GUEST).lines == []


def test_only_an_active_builder_vessel_takes_a_design(session: Session, vessels: dict) -> None:
    listed = session.exec(select(Product).where(Product.is_listed)).one()
    archived = _tumbler(vessels)
    archived.is_active = False
    session.add(archived)
    session.flush()

    for vessel_id in (listed.id, archived.id, 999_999):
        with pytest.raises(CartError, match="no longer available"):
            custom_candles.add_design(session, GUEST, _design(archived, vessel_id=vessel_id))


def test_the_cart_refuses_a_vessel_without_a_valid_design(session: Session, vessels: dict) -> None:
    tumbler = _tumbler(vessels)

    for options in ({}, {"Scent 1": "Lamp Oil (intensity 3/5)"}, {"scent": "Vanilla Bean"}):
        with pytest.raises(CartError, match=CartMessage.INVALID_OPTION.value):
            cart.add_item(session, GUEST, product_id=tumbler.id, selected_options=options)

    assert cart.view_cart(session, GUEST).lines == []


def test_stock_and_the_number_of_designs_are_limited(session: Session, vessels: dict) -> None:
    tin = vessels["CUSTOM-TIN-4"]
    tin.stock_quantity = 3
    session.add(tin)
    session.flush()

    with pytest.raises(CartError, match=r"Available: 3, Requested: 4"):
        custom_candles.add_design(session, GUEST, _design(tin, quantity=4))
    for n in range(custom_candles.MAX_DESIGNS_PER_CART):
        custom_candles.add_design(
            session, GUEST, _design(_tumbler(vessels), quantity=1, instructions=f"#{n}")
        )
    with pytest.raises(CartError, match="up to 10 custom candle designs"):
        custom_candles.add_design(session, GUEST, _design(tin, quantity=1))


def test_signing_in_moves_a_design_with_its_note(session: Session, vessels: dict) -> None:
    user = User(email="ana@example.ca", password_hash="x")
    session.add(user)
    session.flush()
    custom_candles.add_design(session, GUEST, _design(_tumbler(vessels)))

    cart.merge_guest_cart(session, token=GUEST.token, user_id=user.id)

    (line,) = cart.view_cart(session, CartOwner(user_id=user.id)).lines
    assert (line.quantity, line.options_label) == (2, f"{LABEL} · Note: Gift tag: For Ana")


class PaidGateway:
    """A payment provider that approves every charge."""

    def charge(self, request: ChargeRequest) -> ChargeOutcome:
        return ChargeOutcome(status=ChargeStatus.COMPLETED, payment_id=f"pay-{request.reference}")

    def find(self, idempotency_key: str, *, reference: str) -> ChargeOutcome | None:
        return None


def test_a_design_is_ordered_like_any_product_and_its_snapshot_keeps_the_design(
    session: Session, engine: Engine
) -> None:
    session.add(Category(name="Custom", slug="custom"))
    user = User(email="ana@example.ca", password_hash="x", first_name="Ana")
    session.add(user)
    session.flush()
    tumbler = next(p for p in custom_candles.ensure_vessels(session) if p.sku == "CUSTOM-TUMBLER-8")
    session.add(
        ProductImage(product_id=tumbler.id, image_url="/media/products/tumbler.webp", is_primary=True)
    )
    owner = CartOwner(user_id=user.id)
    custom_candles.add_design(session, owner, _design(tumbler))
    session.commit()

    placed = checkout.place_order(owner=owner, user_id=user.id, form=FORM, engine=engine)
    paid = checkout.pay(
        order_id=placed.order_id, source_id="cnon:card-nonce-ok", gateway=PaidGateway(), engine=engine
    )

    assert paid.succeeded
    with Session(engine) as fresh:
        item = fresh.exec(select(OrderItem)).one()
        assert (item.product_id, item.quantity, item.unit_price_cents, item.total_price_cents) == (
            tumbler.id,
            2,
            3800,
            7600,
        )
        assert item.product_snapshot == {
            "name": "Custom Candle: Classic Tumbler 8 oz",
            "base_price_cents": 3800,
            "sale_price_cents": None,
            "image_url": "/media/products/tumbler.webp",
            "selected_options": {
                "Scent 1": "Lavender Fields (intensity 2/5)",
                "Scent 2": "Vanilla Bean (intensity 5/5)",
            },
            "custom_note": "Gift tag: For Ana",
        }
        assert fresh.get(Product, tumbler.id).stock_quantity == custom_candles.STANDARD_STOCK - 2
        receipt = load_receipt(fresh, placed.order_id)
        assert receipt.lines[0].options_label == f"{LABEL} · Note: Gift tag: For Ana"
        order = order_history.get_order(fresh, user_id=user.id, order_id=placed.order_id)
        assert order.lines[0].options_label == f"{LABEL} · Note: Gift tag: For Ana"
        assert not order.lines[0].listed
        assert cart.view_cart(fresh, owner).lines == []

        fresh.execute(sa.update(Order).values(status=OrderStatus.DELIVERED))
        result = order_history.reorder(fresh, user_id=user.id, order_id=placed.order_id, cart_owner=owner)
        (again,) = result.cart.lines
        assert (again.quantity, again.options_label) == (2, f"{LABEL} · Note: Gift tag: For Ana")
        fresh.rollback()


def test_the_seed_command_adds_the_missing_vessels_with_their_images(
    session: Session, media_dir: Path
) -> None:
    assert load_custom_vessels(session, media_dir=media_dir) == len(STANDARD_VESSELS)
    assert load_custom_vessels(session, media_dir=media_dir) == 0

    images = session.exec(select(ProductImage)).all()
    assert len(images) == len(STANDARD_VESSELS)
    assert all(image.is_primary and image.image_url.startswith("/media/products/") for image in images)
