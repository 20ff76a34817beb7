"""Shipping zones (issue 19, acceptance 2): zones of countries, each with a flat rate and a
free-shipping threshold, replace the single rule and the list of countries the shop ships to.

- ``store_settings.shipping_zones``: the owner's zones (``domain.shipping.zones_to_json``); NULL
  keeps the default (``domain.shipping.DEFAULT_ZONES``: Canada and the United States at 15.00,
  free from 100.00; International off).
- A row set up before keeps exactly what it charged: Canada and the United States become a zone
  each, on when they were ticked; any other ticked countries an "International" zone; each with
  the row's flat rate and threshold (:func:`legacy_zones`; the list of countries is frozen here as
  it was, so that this revision never changes with the app's code).
- ``shipping_flat_cents``, ``free_shipping_threshold_cents`` and ``shipping_countries`` go.

Revision ID: d4a7c2e9b1f0
Revises: c9d4e2a1f6b3
Create Date: 2026-12-08 09:00:00.000000
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql


revision: str = "d4a7c2e9b1f0"
down_revision: str | None = "c9d4e2a1f6b3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
NORTH_AMERICA = ("Canada", "United States")
OTHERS = (  # domain.countries.COUNTRIES at this revision, but Canada and the United States
    "United Kingdom", "Australia", "Argentina", "Austria", "Bahamas", "Barbados", "Belgium",
    "Brazil", "Chile", "China", "Colombia", "Costa Rica", "Croatia", "Czech Republic", "Denmark",
    "Dominican Republic", "Egypt", "Estonia", "Finland", "France", "Germany", "Greece", "Hong Kong",
    "Hungary", "Iceland", "India", "Indonesia", "Ireland", "Israel", "Italy", "Jamaica", "Japan",
    "Lithuania", "Luxembourg", "Malaysia", "Mexico", "Netherlands", "New Zealand", "Norway",
    "Panama", "Peru", "Philippines", "Poland", "Portugal", "Romania", "Singapore", "South Africa",
    "South Korea", "Spain", "Sweden", "Switzerland", "Taiwan", "Thailand", "Trinidad and Tobago",
    "Turkey", "Ukraine", "United Arab Emirates", "Vietnam",
)  # fmt: skip
_SETTINGS = sa.table(
    "store_settings",
    sa.column("id", sa.Integer),
    sa.column("shipping_zones", JSON_TYPE),
    sa.column("shipping_flat_cents", sa.Integer),
    sa.column("free_shipping_threshold_cents", sa.Integer),
    sa.column("shipping_countries", JSON_TYPE),
)


def _names(stored: object) -> list[str]:
    if isinstance(stored, str):  # SQLite's JSON as text when read through a bare table()
        stored = json.loads(stored)
    return [name for name in stored if isinstance(name, str)] if isinstance(stored, list) else []


def _zone(name: str, countries: Sequence[str], flat: int, free_from: int | None, active: bool) -> dict:
    return {
        "name": name,
        "countries": list(countries),
        "flat_cents": flat,
        "free_from_cents": free_from,
        "active": active,
    }


def legacy_zones(ticked: Sequence[str], flat: int, free_from: int) -> list[dict]:
    """The zones that charge what a row's single rule charged, to the countries it ticked."""
    others = [country for country in OTHERS if country in ticked]
    zones = [_zone(name, [name], flat, free_from, name in ticked) for name in NORTH_AMERICA]
    if others:
        zones.append(_zone("International", others, flat, free_from, True))
    else:
        zones.append(_zone("International", OTHERS, 3500, None, False))
    return zones


def upgrade() -> None:
    op.add_column("store_settings", sa.Column("shipping_zones", JSON_TYPE, nullable=True))
    connection = op.get_bind()
    for row in connection.execute(sa.select(_SETTINGS)).all():
        zones = legacy_zones(
            _names(row.shipping_countries) or list(NORTH_AMERICA),
            min(max(row.shipping_flat_cents or 0, 0), 100_000),
            min(max(row.free_shipping_threshold_cents or 0, 0), 100_000),
        )
        connection.execute(_SETTINGS.update().where(_SETTINGS.c.id == row.id).values(shipping_zones=zones))
    with op.batch_alter_table("store_settings") as batch:
        batch.drop_column("shipping_countries")
        batch.drop_column("free_shipping_threshold_cents")
        batch.drop_column("shipping_flat_cents")


def downgrade() -> None:
    with op.batch_alter_table("store_settings") as batch:
        batch.add_column(sa.Column("shipping_flat_cents", sa.Integer(), server_default="1500", nullable=False))
        batch.add_column(
            sa.Column("free_shipping_threshold_cents", sa.Integer(), server_default="10000", nullable=False)
        )
        batch.add_column(
            sa.Column("shipping_countries", JSON_TYPE, server_default='["United States", "Canada"]', nullable=False)
        )
    connection = op.get_bind()
    for row in connection.execute(sa.select(_SETTINGS.c.id, _SETTINGS.c.shipping_zones)).all():
        stored = json.loads(row.shipping_zones) if isinstance(row.shipping_zones, str) else row.shipping_zones
        zones = [zone for zone in stored or [] if isinstance(zone, dict) and zone.get("active")]
        if not zones:
            continue  # NULL or nothing on: the columns' defaults, the seed's rule
        first = zones[0]  # the single rule keeps the first active zone's
        free_from = first.get("free_from_cents")
        connection.execute(
            _SETTINGS.update()
            .where(_SETTINGS.c.id == row.id)
            .values(
                shipping_flat_cents=first.get("flat_cents", 1500),
                free_shipping_threshold_cents=10_000_000 if free_from is None else free_from,
                shipping_countries=[country for zone in zones for country in zone.get("countries", [])],
            )
        )
    with op.batch_alter_table("store_settings") as batch:
        batch.drop_column("shipping_zones")
