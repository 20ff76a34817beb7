"""The Alembic migrations build exactly the models' schema, can be undone, and move the data they say.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import Session, SQLModel, select

from shop_app import migrate
from shop_app.db import create_db_engine
from shop_app.domain.shipping import (
    DEFAULT_ZONES,
    active_zones,
    ship_countries,
    zones_from_json,
    zones_to_json,
)
from shop_app.models import Order, Refund, RefundLine, StoreSettings
from shop_app.models.catalog import product_vessel_key
from tests.support.databases import temporary_database

# SQLite cannot reflect the display price's expression index: alembic says so, and leaves it to
# tests/integration/test_vessel_groups.py (which checks that the lists use it).
pytestmark = [
    pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression-based index"),
    pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index"),
]


def _schema_differences(engine: sa.Engine) -> list:
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection,
            opts={
                "compare_type": True,
                "include_name": migrate.is_modelled,
                "include_object": migrate.compared_on(engine.dialect.name),
            },
        )
        return compare_metadata(context, SQLModel.metadata)


def _tables(engine: sa.Engine) -> set[str]:
    return {name for name in sa.inspect(engine).get_table_names() if migrate.is_modelled(name, "table")}


def test_upgrade_head_on_an_empty_database_builds_exactly_the_models(tmp_path: Path) -> None:
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade(engine=engine)

            assert _schema_differences(engine) == []
            assert _tables(engine) == set(SQLModel.metadata.tables) | {"alembic_version"}
        finally:
            engine.dispose()


def test_downgrade_base_removes_every_table_and_upgrade_works_again(tmp_path: Path) -> None:
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade(engine=engine)
            migrate.downgrade(engine=engine)

            assert _tables(engine) <= {"alembic_version"}

            migrate.upgrade(engine=engine)
            assert _schema_differences(engine) == []
        finally:
            engine.dispose()


def test_autogenerate_would_notice_a_model_change(tmp_path: Path) -> None:
    """Guards the comparison itself: a column missing from the database is reported."""
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade(engine=engine)
            with engine.begin() as connection:
                connection.execute(sa.text("ALTER TABLE subscribers DROP COLUMN source"))

            differences = _schema_differences(engine)

            assert [(d[0], d[3].name) for d in differences if d[0] == "add_column"] == [
                ("add_column", "source")
            ]
        finally:
            engine.dispose()


def test_an_existing_settings_row_ships_to_canada_and_the_united_states(tmp_path: Path) -> None:
    """The shipping countries' migration fills the row a running shop already has."""
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade("e7b41c90d2a6", engine=engine)  # the revision before it
            with engine.begin() as connection:
                connection.execute(
                    sa.text(
                        "INSERT INTO store_settings (id, company_name, email, phone, address, instagram, "
                        "facebook, twitter, notify_order_confirmation, notify_low_stock, notify_new_reviews, "
                        "tax_rate_bps, currency_symbol, shipping_flat_cents, free_shipping_threshold_cents, "
                        "updated_at) VALUES (1, 'Shop', '', '', '', '', '', '', true, true, false, 1200, "
                        "'$', 1500, 10000, CURRENT_TIMESTAMP)"
                    )
                )

            migrate.upgrade(engine=engine)

            with Session(engine) as session:  # and became the default zones (d4a7c2e9b1f0)
                assert session.get(StoreSettings, 1).shipping_zones == zones_to_json(DEFAULT_ZONES)
        finally:
            engine.dispose()


def test_a_settings_row_s_shipping_rule_becomes_zones_that_charge_the_same_and_back(tmp_path: Path) -> None:
    """Issue 19's zones: the row's countries, flat rate and threshold become zones that charge
    what it charged, to the same countries; a downgrade gives the single rule back."""
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade("c9d4e2a1f6b3", engine=engine)  # the revision before it
            with engine.begin() as connection:
                connection.execute(
                    sa.text(
                        "INSERT INTO store_settings (id, company_name, email, phone, address, instagram, "
                        "facebook, twitter, notify_order_confirmation, notify_low_stock, notify_new_reviews, "
                        "gst_hst_number, currency_symbol, shipping_flat_cents, "
                        "free_shipping_threshold_cents, shipping_countries, updated_at) VALUES "
                        "(1, 'Shop', '', '', '', '', '', '', true, true, false, '', '$', 900, 5000, "
                        '\'["Japan", "Canada"]\', CURRENT_TIMESTAMP)'
                    )
                )

            migrate.upgrade(engine=engine)

            with Session(engine) as session:
                zones = zones_from_json(session.get(StoreSettings, 1).shipping_zones)
            assert ship_countries(zones) == ("Canada", "Japan")
            assert {(zone.flat_cents, zone.free_from_cents) for zone in active_zones(zones)} == {(900, 5000)}
            migrate.downgrade("c9d4e2a1f6b3", engine=engine)
            with engine.connect() as connection:
                row = connection.execute(
                    sa.text("SELECT shipping_flat_cents, free_shipping_threshold_cents FROM store_settings")
                ).one()
                stored = connection.execute(sa.text("SELECT shipping_countries FROM store_settings")).scalar()
            countries = json.loads(stored) if isinstance(stored, str) else stored
            assert tuple(row) == (900, 5000)
            assert sorted(countries) == ["Canada", "Japan"]
        finally:
            engine.dispose()


def test_taxes_by_destination_keep_existing_orders_and_settings(tmp_path: Path) -> None:
    """Issue 19's migrations: an order placed before keeps its tax and items, and has no tax lines,
    gift message or wrap; the settings row loses its single rate and takes Canada's default table
    (NULL) and no GST/HST number. And back."""
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade("c81d5e0f3a69", engine=engine)  # the revision before it
            with engine.begin() as connection:
                for statement in (
                    "INSERT INTO store_settings (id, company_name, email, phone, address, instagram, "
                    "facebook, twitter, notify_order_confirmation, notify_low_stock, notify_new_reviews, "
                    "tax_rate_bps, currency_symbol, shipping_flat_cents, free_shipping_threshold_cents, "
                    "shipping_countries, updated_at) VALUES (1, 'Shop', '', '', '', '', '', '', true, true, "
                    "false, 500, '$', 1500, 10000, '[\"Canada\"]', CURRENT_TIMESTAMP)",
                    "INSERT INTO orders (id, order_number, email, phone, status, payment_status, "
                    "currency, subtotal_cents, tax_cents, shipping_cents, total_cents, notes, created_at, "
                    "updated_at) VALUES (7, 'CE-1', 'a@example.com', '', 'pending', 'completed', 'CAD', "
                    "2000, 240, 1500, 3740, '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                    "INSERT INTO products (id, name, description, group_key, base_price_cents, "
                    "stock_quantity, is_active, is_featured, is_new_arrival, scent_notes, details, "
                    "variants, pricing, created_at, updated_at) VALUES (1, 'Candle', '', 'candle', 1000, "
                    "5, true, false, false, '[]', '{}', '[]', '{}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                    "INSERT INTO order_items (id, order_id, product_id, quantity, unit_price_cents, "
                    "total_price_cents, product_snapshot) VALUES (31, 7, 1, 2, 1000, 2000, '{}')",
                ):
                    connection.execute(sa.text(statement))

            migrate.upgrade(engine=engine)

            with Session(engine) as session:
                order = session.get(Order, 7)
                assert order is not None and (order.tax_cents, order.tax_lines) == (240, [])
                settings = session.get(StoreSettings, 1)
                assert settings is not None and (settings.tax_table, settings.gst_hst_number) == (None, "")
                assert ship_countries(zones_from_json(settings.shipping_zones)) == ("Canada",)
                assert (order.gift_message, order.gift_wrap) == ("", False)  # the gift columns, after
            migrate.downgrade("c81d5e0f3a69", engine=engine)
            with engine.connect() as connection:
                assert connection.execute(sa.text("SELECT tax_rate_bps FROM store_settings")).scalar() == 1200
                # The orders' columns were added and dropped in place: a copy of the table, with
                # SQLite's foreign keys on, would have deleted every order's items (CASCADE).
                assert connection.execute(sa.text("SELECT count(*) FROM order_items")).scalar() == 1
        finally:
            engine.dispose()


def test_earlier_full_refunds_become_rows_of_the_refunds_table(tmp_path: Path) -> None:
    """The refunds' migration records each refund a status change made (all of the payment, every
    item; restocked when the order held its items) with the key it was sent with."""
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade("e7f3b9a1c2d4", engine=engine)  # the revision before it
            with engine.begin() as connection:
                for statement in (
                    "INSERT INTO products (id, name, description, group_key, base_price_cents, "
                    "stock_quantity, is_active, is_featured, is_new_arrival, scent_notes, details, "
                    "variants, pricing, created_at, updated_at) VALUES (1, 'Candle', '', 'candle', 1000, "
                    "5, true, false, false, '[]', '{}', '[]', '{}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                    "INSERT INTO orders (id, order_number, email, phone, status, payment_status, "
                    "currency, subtotal_cents, tax_cents, shipping_cents, total_cents, notes, created_at, "
                    "updated_at) VALUES (7, 'CE-1', 'a@example.com', '', 'cancelled', 'refunded', 'CAD', "
                    "2000, 240, 1500, 3740, '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                    "INSERT INTO order_items (id, order_id, product_id, quantity, unit_price_cents, "
                    "total_price_cents, product_snapshot) VALUES (31, 7, 1, 2, 1000, 2000, '{}')",
                    "INSERT INTO payments (id, order_id, provider, idempotency_key, status, amount_cents, "
                    "currency, square_payment_id, created_at, updated_at) VALUES (5, 7, 'square', "
                    "'0b7c8a52-5a48-4d0e-9c2b-3f1e2d4c5b6a', 'refunded', 3740, 'CAD', 'sq-pay-1', "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                    "INSERT INTO order_status_changes (order_id, from_status, to_status, note, "
                    "refunded_cents, created_at) VALUES (7, 'pending', 'processing', '', 0, "
                    "CURRENT_TIMESTAMP)",
                    "INSERT INTO order_status_changes (order_id, from_status, to_status, note, "
                    "refunded_cents, square_refund_id, created_at) VALUES (7, 'processing', 'cancelled', "
                    "'Asked', 3740, 'sq-refund-1', CURRENT_TIMESTAMP)",
                ):
                    connection.execute(sa.text(statement))

            migrate.upgrade(engine=engine)

            with Session(engine) as session:
                (refund,) = session.exec(select(Refund)).all()
                assert (refund.order_id, refund.payment_id, refund.kind, refund.amount_cents) == (
                    7,
                    5,
                    "rest",
                    3740,
                )
                assert (refund.restocked, refund.note, refund.square_refund_id, refund.created_by) == (
                    True,
                    "Asked",
                    "sq-refund-1",
                    None,
                )
                assert refund.idempotency_key == "refund-0b7c8a52-5a48-4d0e-9c2b-3f1e2d4c5b6a"
                lines = session.exec(select(RefundLine)).all()
                assert [(line.refund_id, line.order_item_id, line.quantity) for line in lines] == [
                    (refund.id, 31, 2)
                ]
            migrate.downgrade("e7f3b9a1c2d4", engine=engine)
            assert not {"refunds", "refund_lines"} & _tables(engine)
        finally:
            engine.dispose()


def test_existing_products_get_their_vessel_key(tmp_path: Path) -> None:
    """The vessel key's migration fills the column for the products a running shop already has
    (``models.catalog.product_vessel_key`` of each name), and can be undone."""
    names = {1: "8oz Amber Jar - Lavender", 2: "  STRASSE  jar -  Fig ", 3: "Straße Jar", 4: "- Lonely"}
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade("c5d1f3a8e920", engine=engine)  # the revision before it
            with engine.begin() as connection:
                for product_id, name in names.items():
                    connection.execute(
                        sa.text(
                            "INSERT INTO products (id, name, description, group_key, base_price_cents, "
                            "stock_quantity, is_active, is_featured, is_new_arrival, scent_notes, details, "
                            "variants, pricing, created_at, updated_at) VALUES (:id, :name, '', '', 1000, "
                            "5, true, false, false, '[]', '{}', '[]', '{}', CURRENT_TIMESTAMP, "
                            "CURRENT_TIMESTAMP)"
                        ),
                        {"id": product_id, "name": name},
                    )

            migrate.upgrade(engine=engine)

            with engine.connect() as connection:
                keys = dict(connection.execute(sa.text("SELECT id, vessel_key FROM products")).all())
            assert keys == {i: product_vessel_key(name) for i, name in names.items()}
            assert keys == {1: "8oz amber jar", 2: "strasse jar", 3: "strasse jar", 4: ""}
            migrate.downgrade("c5d1f3a8e920", engine=engine)
            assert "vessel_key" not in {c["name"] for c in sa.inspect(engine).get_columns("products")}
        finally:
            engine.dispose()


def test_altering_orders_in_sqlites_batch_mode_keeps_every_orders_items(tmp_path: Path) -> None:
    """``c81f3a9d5e42`` alters ``orders`` in SQLite's batch mode (a copy, then the old table
    dropped): with foreign keys on, that deleted every order's items (ON DELETE CASCADE). The
    migrations now run with the checks off, then every reference is checked, and the checks are
    on again afterwards."""
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade("b4d2e81f6c37", engine=engine)  # the revision before it
            with engine.begin() as connection:
                for statement in (
                    "INSERT INTO products (id, name, description, group_key, base_price_cents, "
                    "stock_quantity, is_active, is_featured, is_new_arrival, scent_notes, details, "
                    "variants, pricing, created_at, updated_at, search_text, tags, is_listed) VALUES "
                    "(1, 'Candle', '', 'candle', 1000, 5, true, false, false, '[]', '{}', '[]', '{}', "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, '', '[]', true)",
                    "INSERT INTO orders (id, order_number, email, phone, status, payment_status, "
                    "currency, subtotal_cents, tax_cents, shipping_cents, total_cents, notes, created_at, "
                    "updated_at) VALUES (7, 'CE-1', 'a@example.com', '', 'pending', 'completed', 'CAD', "
                    "2000, 240, 1500, 3740, '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                    "INSERT INTO order_items (id, order_id, product_id, quantity, unit_price_cents, "
                    "total_price_cents, product_snapshot) VALUES (31, 7, 1, 2, 1000, 2000, '{}')",
                ):
                    connection.execute(sa.text(statement))

            migrate.upgrade(engine=engine)

            with engine.connect() as connection:
                assert connection.execute(sa.text("SELECT count(*) FROM order_items")).scalar() == 1
                if connection.dialect.name == "sqlite":
                    assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        finally:
            engine.dispose()


def test_discount_codes_keep_every_order_and_its_rows_and_the_one_checkout_per_cart_index(
    tmp_path: Path,
) -> None:
    """Issue 19's codes: SQLite's ``orders`` is rebuilt for its new CHECK (total = subtotal -
    discount + tax + shipping); its items stay, its partial unique index stays partial, and an
    order's discount is allowed. And back."""
    with temporary_database(tmp_path) as url:
        engine = create_db_engine(url)
        try:
            migrate.upgrade("d4a7c2e9b1f0", engine=engine)  # the revision before it
            with engine.begin() as connection:
                for statement in (
                    "INSERT INTO orders (id, order_number, email, phone, status, payment_status, currency, "
                    "subtotal_cents, tax_cents, shipping_cents, total_cents, notes, created_at, updated_at) "
                    "VALUES (7, 'CE-1', 'a@example.com', '', 'pending', 'completed', 'CAD', 2000, 240, "
                    "1500, 3740, '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                    "INSERT INTO products (id, name, description, group_key, base_price_cents, "
                    "stock_quantity, is_active, is_featured, is_new_arrival, scent_notes, details, "
                    "variants, pricing, created_at, updated_at) VALUES (1, 'Candle', '', 'candle', 1000, "
                    "5, true, false, false, '[]', '{}', '[]', '{}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                    "INSERT INTO order_items (id, order_id, product_id, quantity, unit_price_cents, "
                    "total_price_cents, product_snapshot) VALUES (31, 7, 1, 2, 1000, 2000, '{}')",
                ):
                    connection.execute(sa.text(statement))

            migrate.upgrade(engine=engine)

            with engine.begin() as connection:
                assert connection.execute(sa.text("SELECT count(*) FROM order_items")).scalar() == 1
                assert connection.execute(sa.text("SELECT discount_cents FROM orders")).scalar() == 0
                connection.execute(
                    sa.text("UPDATE orders SET discount_cents = 200, total_cents = 3540 WHERE id = 7")
                )
                with pytest.raises(sa.exc.IntegrityError), connection.begin_nested():  # it must add up
                    connection.execute(sa.text("UPDATE orders SET total_cents = 3740 WHERE id = 7"))
                if engine.dialect.name == "sqlite":
                    index = connection.execute(
                        sa.text(
                            "SELECT sql FROM sqlite_master WHERE name = 'uq_orders_cart_awaiting_payment'"
                        )
                    ).scalar()
                    assert "WHERE" in index
                connection.execute(
                    sa.text("UPDATE orders SET discount_cents = 0, total_cents = 3740 WHERE id = 7")
                )
            migrate.downgrade("d4a7c2e9b1f0", engine=engine)
            with engine.connect() as connection:
                assert connection.execute(sa.text("SELECT count(*) FROM order_items")).scalar() == 1
        finally:
            engine.dispose()
