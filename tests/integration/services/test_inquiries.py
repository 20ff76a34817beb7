"""Order inquiries: stored with a price snapshot from the catalogue, acknowledged by mail, listed
for the back office, rate limited per client and per e-mail, hostile text kept as text.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlmodel import Session, col, select

from shop_app.domain.inquiries import InquiryForm, InquiryMessage
from shop_app.models import OrderInquiry, Product, StoreSettings
from shop_app.models.base import utcnow
from shop_app.services import custom_candles, inquiries, mail
from shop_app.services.inquiries import InquiryError
from shop_app.settings import get_settings

HOSTILE = '<script>alert("owned")</script><img src=x onerror=alert(1)>'
ADDRESS = "203.0.113.7"


@pytest.fixture(autouse=True)
def outbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MAIL_BACKEND", "outbox")
    monkeypatch.setenv("MAIL_FROM", "Cedar & Ember <hello@cedar.example>")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture
def candles(session: Session) -> list[Product]:
    rows = [
        Product(name="8oz Amber Soy Candle - Vanilla Bean", base_price_cents=2800, stock_quantity=9),
        Product(
            name="Mandle - Leather & Oak", base_price_cents=3400, sale_price_cents=2900, stock_quantity=0
        ),
        Product(name="Old Candle - Retired", base_price_cents=1000, is_active=False),
    ]
    session.add_all(rows)
    session.flush()
    return rows


def _submit(session: Session, address: str = ADDRESS, **fields: object) -> OrderInquiry:
    values: dict[str, object] = {"order_type": "custom", "name": "Ana Silva", "email": "Ana@Example.ca"}
    if fields.get("order_type", "custom") == "custom":
        values.update(vessel_size="8 oz", vessel_color="Amber", scent="Vanilla Bean", quantity="12")
    return inquiries.submit_inquiry(session, InquiryForm(**{**values, **fields}), client_address=address)


def test_a_custom_inquiry_is_stored_and_acknowledged_and_the_shop_is_told(session: Session) -> None:
    session.add(StoreSettings(id=1, company_name="Cedar & Ember", email="orders@cedar.example"))
    session.flush()

    inquiry = _submit(session, phone=" 250-555-0100 ", special_requests="Wedding favours, ivory ribbon")

    stored = session.exec(select(OrderInquiry)).one()
    assert stored.id == inquiry.id
    assert (stored.order_type, stored.name, stored.email, stored.phone) == (
        "custom",
        "Ana Silva",
        "ana@example.ca",
        "250-555-0100",
    )
    assert stored.details == {
        "vessel_size": "8 oz",
        "vessel_color": "Amber",
        "scent": "Vanilla Bean",
        "quantity": 12,
        "special_requests": "Wedding favours, ivory ribbon",
    }
    assert stored.client_hash == inquiries.client_hash(ADDRESS) != ADDRESS
    (ack,) = mail.outbox(session, to="ana@example.ca")
    assert ack.subject == "We received your custom order inquiry"
    assert "Hello Ana Silva," in ack.body_text and "Quantity: 12" in ack.body_text
    assert "Wedding favours" not in ack.body_text  # free text is not mailed back
    (note,) = mail.outbox(session, to="orders@cedar.example")
    assert note.subject == "New custom order inquiry from Ana Silva"
    assert "Special requests: Wedding favours, ivory ribbon" in note.body_text
    assert "Ana Silva <ana@example.ca>, phone 250-555-0100" in note.body_text


def test_a_bulk_inquiry_snapshots_names_and_prices_from_the_catalogue(
    session: Session, candles: list[Product]
) -> None:
    amber, mandle, _ = candles

    _submit(
        session,
        order_type="bulk",
        products=((amber.id, "24"), (mandle.id, "6"), (amber.id, "1"), (99, "0")),
    )

    stored = session.exec(select(OrderInquiry)).one()
    assert stored.details == {
        "selected_products": [
            {"id": amber.id, "name": amber.name, "quantity": 24, "price_cents": 2800},
            {"id": mandle.id, "name": mandle.name, "quantity": 6, "price_cents": 2900},  # the sale price
        ],
        "total_quantity": 30,
    }
    (note,) = mail.outbox(session, to="hello@cedar.example")  # no store e-mail: MAIL_FROM
    assert f"24 × {amber.name} ($28.00 each)" in note.body_text
    assert "Total quantity: 30" in note.body_text


def test_a_wholesale_inquiry_keeps_its_message(session: Session, candles: list[Product]) -> None:
    _submit(session, order_type="wholesale", products=((candles[0].id, "48"),), message="Gift shop in Tofino")

    assert session.exec(select(OrderInquiry.message)).one() == "Gift shop in Tofino"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": ""}, InquiryMessage.NAME_REQUIRED),
        ({"quantity": "0"}, InquiryMessage.QUANTITY_TOO_LOW),
        ({"order_type": "bulk", "products": ()}, InquiryMessage.PRODUCT_REQUIRED),
        ({"order_type": "wholesale", "products": ((1, "5"),)}, InquiryMessage.MESSAGE_REQUIRED),
    ],
)
def test_an_invalid_inquiry_stores_and_sends_nothing(session: Session, fields: dict, message: str) -> None:
    with pytest.raises(InquiryError, match=f"^{message}$"):
        _submit(session, **fields)

    assert session.exec(select(OrderInquiry)).all() == []
    assert mail.outbox(session) == []


def test_products_that_cannot_be_sold_are_refused(session: Session, candles: list[Product]) -> None:
    retired = candles[2]
    vessel = custom_candles.ensure_vessels(session)[0]

    for product_id in (retired.id, vessel.id, 424242):
        with pytest.raises(InquiryError, match="no longer available"):
            _submit(session, order_type="bulk", products=((candles[0].id, "2"), (product_id, "3")))

    assert session.exec(select(OrderInquiry)).all() == []


def test_hostile_text_is_stored_as_typed_and_escaped_in_the_mail(session: Session, candles: list) -> None:
    _submit(session, order_type="wholesale", name=HOSTILE, message=HOSTILE, products=((candles[0].id, "1"),))

    stored = session.exec(select(OrderInquiry)).one()
    assert (stored.name, stored.message) == (HOSTILE, HOSTILE)
    for sent in mail.outbox(session):
        assert "<script>" not in sent.body_html and "&lt;script&gt;" in sent.body_html
        assert "<img src=x" not in sent.body_html
    assert inquiries.inquiry_summary(stored).message == HOSTILE


def test_a_burst_from_one_client_is_refused_with_the_wait(session: Session) -> None:
    for n in range(inquiries.MAX_PER_CLIENT):
        _submit(session, email=f"guest{n}@example.ca")

    with pytest.raises(InquiryError) as refused:
        _submit(session, email="someone-new@example.ca")

    assert str(refused.value) == (
        "You have sent several inquiries in a short time. Please wait 15 minutes and try again."
    )
    assert len(session.exec(select(OrderInquiry)).all()) == inquiries.MAX_PER_CLIENT
    _submit(session, address="198.51.100.20", email="someone-new@example.ca")  # another client may


def test_one_e_mail_address_gets_few_acknowledgements(session: Session) -> None:
    for n in range(inquiries.MAX_PER_EMAIL):
        _submit(session, address=f"198.51.100.{n}", email="victim@example.ca")

    with pytest.raises(InquiryError, match="Please wait"):
        _submit(session, address="192.0.2.99", email="VICTIM@example.ca ")

    assert len(mail.outbox(session, to="victim@example.ca")) == inquiries.MAX_PER_EMAIL


def test_the_limit_lifts_when_the_oldest_inquiry_leaves_the_window(session: Session) -> None:
    now = utcnow()
    for minutes in (20, 14, 10, 9, 8, 7, 6):
        session.add(
            OrderInquiry(
                order_type="custom",
                name="Ana",
                email=f"a{minutes}@example.ca",
                client_hash=inquiries.client_hash(ADDRESS),
                created_at=now - timedelta(minutes=minutes),
            )
        )
    session.flush()
    client = inquiries.client_hash(ADDRESS)

    wait = inquiries.retry_after_seconds(session, client=client, email="new@example.ca", now=now)

    assert wait == 60  # the one sent 14 minutes ago leaves the 15-minute window in a minute
    assert (
        inquiries.retry_after_seconds(session, client=client, email="", now=now + timedelta(minutes=1))
        is None
    )
    assert inquiries.retry_after_seconds(session, client="", email="", now=now) is None


def test_an_inquirys_summary_reads_its_stored_details(session: Session, candles: list[Product]) -> None:
    _submit(session, special_requests="Ivory ribbon")
    _submit(session, order_type="bulk", products=((candles[0].id, "10"),), email="shop@example.ca")
    _submit(session, order_type="wholesale", products=((candles[1].id, "5"),), message="Boutique")

    rows = session.exec(select(OrderInquiry).order_by(col(OrderInquiry.id).desc())).all()
    listed = [inquiries.inquiry_summary(row) for row in rows]

    assert [i.type_label for i in listed] == ["Wholesale", "Bulk Order", "Custom Order"]
    wholesale, bulk, custom = listed
    assert (wholesale.message, wholesale.total_quantity) == ("Boutique", 5)
    assert bulk.products == (inquiries.InquiryProduct(candles[0].id, candles[0].name, 10, 2800),)
    assert (custom.vessel_size, custom.vessel_color, custom.scent, custom.quantity) == (
        "8 oz",
        "Amber",
        "Vanilla Bean",
        12,
    )
    assert custom.special_requests == "Ivory ribbon" and custom.products == ()
    assert custom.created_at.tzinfo is not None and custom.handled_at is None


def test_the_product_picker_finds_listed_products_only(session: Session, candles: list[Product]) -> None:
    custom_candles.ensure_vessels(session)

    newest = inquiries.find_products(session)
    found = inquiries.find_products(session, "mandle")

    assert {p.name for p in newest} == {candles[0].name, candles[1].name}
    assert [(p.id, p.price_cents) for p in found] == [(candles[1].id, 2900)]
    assert inquiries.find_products(session, "custom candle") == []
