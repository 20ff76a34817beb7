"""The Alembic baseline builds exactly the models' schema, and can be undone.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import Session, SQLModel

from shop_app import migrate
from shop_app.db import create_db_engine
from shop_app.models import StoreSettings
from tests.support.databases import temporary_database


def _schema_differences(engine: sa.Engine) -> list:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, SQLModel.metadata)


def _tables(engine: sa.Engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names())


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

            with Session(engine) as session:
                assert session.get(StoreSettings, 1).shipping_countries == ["United States", "Canada"]
        finally:
            engine.dispose()
