"""A Square catalogue on a fresh simulator for service and API tests: the real SDK in-process,
every exchange checked against Square's OpenAPI subset."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.domain.grouping import group_key
from shop_app.models import Product
from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.outbox import push_pending
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import DEFAULT_LOCATION_ID, SimulatorLedger
from tests.unit.square.openapi import SpecChecker

_SPEC: SpecChecker | None = None


def spec_checker() -> SpecChecker:
    """Square's OpenAPI subset, loaded once per test session."""
    global _SPEC  # noqa: PLW0603 - loading the subset takes a while; one per session
    if _SPEC is None:
        _SPEC = SpecChecker()
    return _SPEC


def checked_catalog(ledger: SimulatorLedger) -> SquareCatalog:
    """A ``SquareCatalog`` on a simulator with ``ledger``, its exchanges checked against the spec."""
    client = square_client_for_app(create_simulator(ledger), timeout_s=5, event_hooks=spec_checker().hooks())
    return SquareCatalog(client, location_id=DEFAULT_LOCATION_ID)


def saved_product(session: Session, name: str, **fields: Any) -> Product:
    """A product saved in the shop (as an editor saves one: its outbox row is recorded)."""
    values: dict[str, Any] = {
        "description": f"{name}, poured by hand",
        "base_price_cents": 3000,
        "stock_quantity": 9,
    }
    product = Product(name=name, group_key=group_key(name), **{**values, **fields})
    session.add(product)
    session.commit()
    return product


def reread(session: Session, product_id: int | None) -> Product:
    """The product as the database holds it now (other connections wrote it)."""
    session.commit()
    session.expire_all()
    product = session.get(Product, product_id)
    assert product is not None
    return product


def product_in_square(
    session: Session, engine: Engine, catalog: SquareCatalog, name: str, **fields: Any
) -> Product:
    """A product the shop and Square agree on, with nothing waiting in the outbox."""
    product = saved_product(session, name, **fields)
    assert push_pending(catalog, engine=engine).failed == 0
    return reread(session, product.id)
