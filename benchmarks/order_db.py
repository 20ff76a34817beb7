"""The database of the order placement benchmark: fresh, migrated, seeded, with guest carts.

- A new database: PostgreSQL ``shop_bench_orders_<random>`` created on the given server (its URL's
  database is only used to run ``CREATE DATABASE`` / ``DROP DATABASE``) and dropped at the end,
  or an SQLite file in a temporary folder.
- Migrated to head (``shop_app.migrate.upgrade``), ``seeding.load_synthetic`` products, the store
  settings row (defaults: 12 % tax, $15 shipping under $100), every product's stock set to
  :data:`STOCK` (plenty for the run).
- One guest cart per order, filled through ``shop_app.services.cart.add_item`` (1..3 lines of
  distinct random products, quantity 1..2). ``place_order`` does not empty a cart (the payment
  does), so every implementation and every round orders from the same carts.
- For the oversell race, one scarce product per implementation with ``scarce_stock`` units and
  one cart per buyer holding one of it (every other cart also holds another product, so some
  refused orders have already decremented a stock that must be rolled back).
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

import shop_app.models  # noqa: F401 - registers every table
from shop_app import migrate
from shop_app.db import create_db_engine, throwaway_database
from shop_app.domain.shipping import shipping_for, zones_from_json
from shop_app.domain.tax import HOME, table_from_json, taxes_for
from shop_app.domain.totals import OrderTotals, compute_totals
from shop_app.models import Product, StoreSettings
from shop_app.services import cart as cart_service
from shop_app.services import seeding
from shop_app.services.cart import CartOwner
from shop_app.services.store_settings import SETTINGS_ID

STOCK = 1_000_000
"""Stock of every product but the scarce ones: never the limit during the timed rounds."""

_CART_BATCH = 100  # carts filled per transaction


@dataclass(frozen=True, slots=True)
class PricedLine:
    """A cart line as priced when the cart was prepared (the writes-only variant uses it)."""

    product_id: int
    quantity: int
    unit_price_cents: int
    line_total_cents: int
    snapshot: dict


@dataclass(frozen=True, slots=True)
class PreparedCart:
    """A guest cart: its cookie token, the stored hash, and its lines priced at preparation."""

    token: str
    token_hash: str
    lines: tuple[PricedLine, ...]
    totals: OrderTotals

    @property
    def owner(self) -> CartOwner:
        """The cart's owner for the shop's services."""
        return CartOwner(token=self.token)


@dataclass(frozen=True, slots=True)
class Scarce:
    """A scarce product and the carts of the buyers racing for it."""

    product_id: int
    stock: int
    carts: list[PreparedCart]


@dataclass
class OrderDatabase:
    """Everything the benchmark needs from its database."""

    url: str
    engine: Engine
    products: int
    carts: list[PreparedCart]
    scarce: dict[str, Scarce]  # implementation key -> its scarce product
    migrate_seconds: float
    seed_seconds: float
    carts_seconds: float
    analyzed: bool
    initial_stock: dict[int, int] = field(default_factory=dict)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name


@contextmanager
def order_database(
    *,
    products: int,
    orders: int,
    implementations: Sequence[str],
    admin_url: str | None = None,
    threads: int = 32,
    scarce_stock: int = 5,
    seed: int = 0,
    progress=lambda _text: None,
) -> Iterator[OrderDatabase]:
    """A fresh database with ``products`` products and ``orders`` guest carts (see the module)."""
    with (
        tempfile.TemporaryDirectory(prefix="shop-bench-orders-") as tmp,
        throwaway_database(admin_url, sqlite_dir=Path(tmp), prefix="shop_bench_orders") as url,
    ):
        media_dir = Path(tmp) / "media"
        media_dir.mkdir()
        # One pooled connection per buyer thread (+ a few for checks), the shop's own settings.
        engine = create_db_engine(url, pool_size=threads + 2, max_overflow=8)
        try:
            started = time.perf_counter()
            migrate.upgrade(engine=engine)
            migrated = time.perf_counter()
            with Session(engine) as session:
                report = seeding.load_synthetic(session, count=products, media_dir=media_dir, seed=seed)
                if session.get(StoreSettings, SETTINGS_ID) is None:
                    session.add(StoreSettings(id=SETTINGS_ID))
                session.execute(sa.update(Product).values(stock_quantity=STOCK))
                session.commit()
            seeded = time.perf_counter()
            progress(f"Seeded {report.products:,} products in {seeded - migrated:.1f} s; filling carts…")
            rng = random.Random(seed)
            with Session(engine) as session:
                product_ids = list(session.exec(select(Product.id).order_by(Product.id)).all())
            scarce_ids = rng.sample(product_ids, len(implementations))
            plenty = [pid for pid in product_ids if pid not in set(scarce_ids)]
            specs = [_random_lines(rng, plenty) for _ in range(orders)]
            carts = _fill_carts(engine, specs)
            scarce: dict[str, Scarce] = {}
            for key, product_id in zip(implementations, scarce_ids, strict=True):
                with Session(engine) as session:
                    session.execute(
                        sa.update(Product).where(Product.id == product_id).values(stock_quantity=scarce_stock)
                    )
                    session.commit()
                race_specs = [
                    [(product_id, 1)] + ([(rng.choice(plenty), 1)] if buyer % 2 else [])
                    for buyer in range(threads)
                ]
                scarce[key] = Scarce(product_id, scarce_stock, _fill_carts(engine, race_specs))
            carts_done = time.perf_counter()
            analyzed = engine.dialect.name == "postgresql"
            if analyzed:  # what autovacuum does shortly after a bulk load
                with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                    connection.execute(sa.text("VACUUM (ANALYZE)"))
            initial = dict.fromkeys(product_ids, STOCK)
            initial.update({s.product_id: s.stock for s in scarce.values()})
            yield OrderDatabase(
                url=url,
                engine=engine,
                products=report.products,
                carts=carts,
                scarce=scarce,
                migrate_seconds=migrated - started,
                seed_seconds=seeded - migrated,
                carts_seconds=carts_done - seeded,
                analyzed=analyzed,
                initial_stock=initial,
            )
        finally:
            engine.dispose()


def _random_lines(rng: random.Random, product_ids: list[int]) -> list[tuple[int, int]]:
    """1..3 lines of distinct products, quantity 1..2 each."""
    return [(pid, rng.randint(1, 2)) for pid in rng.sample(product_ids, rng.randint(1, 3))]


def _fill_carts(engine: Engine, specs: list[list[tuple[int, int]]]) -> list[PreparedCart]:
    """Create one guest cart per spec through ``cart.add_item``; price each as the shop shows it."""
    carts: list[PreparedCart] = []
    for start in range(0, len(specs), _CART_BATCH):
        with Session(engine) as session:
            settings = session.get(StoreSettings, SETTINGS_ID) or StoreSettings(id=SETTINGS_ID)
            for spec in specs[start : start + _CART_BATCH]:
                owner = CartOwner(token=cart_service.new_token())
                view = None
                for product_id, quantity in spec:
                    view, _message = cart_service.add_item(
                        session, owner, product_id=product_id, quantity=quantity
                    )
                stored = cart_service.find_cart(session, owner)
                assert view is not None and stored is not None and stored.token_hash
                prices = {
                    p.id: p
                    for p in session.exec(
                        select(Product).where(Product.id.in_([line.product_id for line in view.lines]))
                    )
                }
                lines = tuple(
                    PricedLine(
                        product_id=line.product_id,
                        quantity=line.quantity,
                        unit_price_cents=line.unit_price_cents,
                        line_total_cents=line.line_total_cents,
                        snapshot={
                            "name": line.name,
                            "base_price_cents": prices[line.product_id].base_price_cents,
                            "sale_price_cents": prices[line.product_id].sale_price_cents,
                            "image_url": line.image_url,
                            "selected_options": dict(line.selected_options),
                        },
                    )
                    for line in view.lines
                )
                totals = compute_totals(
                    view.subtotal_cents,
                    # every order ships to British Columbia (order_impl.FORM)
                    zone=shipping_for(zones_from_json(settings.shipping_zones), HOME[0]),
                    taxes=taxes_for(*HOME, table=table_from_json(settings.tax_table)),
                )
                carts.append(
                    PreparedCart(
                        token=owner.token,
                        token_hash=stored.token_hash,
                        lines=lines,
                        totals=totals,
                    )
                )
            session.commit()
    return carts
