"""The database keeps the grouped view's summary (``product_vessel_groups``) in step with
``products``, whatever writes to it: the ORM, a bulk ``UPDATE`` or ``DELETE``, two PostgreSQL
transactions at once (alembic revision 4b9a3f802bb3; issue 17, acceptance 8); the lists' searches
find exactly what Python's ``in`` finds, and a list by price reads its expression index.

Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import sqlalchemy as sa
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shop_app.domain.product_sort import ProductSort
from shop_app.models import Category, Product, ProductVesselGroup
from shop_app.models.base import utcnow
from shop_app.models.catalog import product_vessel_key
from shop_app.services.admin import product_listing

T0 = utcnow() - timedelta(days=30)


def _expected(session: Session) -> dict[str, tuple[int, int]]:
    """Each group's size and newest id, computed from the products in Python."""
    groups: dict[str, list[Product]] = {}
    for product in session.exec(select(Product)).all():
        groups.setdefault(product_vessel_key(product.name), []).append(product)
    return {
        key: (len(members), max(members, key=lambda p: (p.created_at, p.id)).id or 0)
        for key, members in groups.items()
    }


def _summary(session: Session) -> dict[str, tuple[int, int]]:
    session.expire_all()
    return {
        row.vessel_key: (row.variations, row.newest_id)
        for row in session.exec(select(ProductVesselGroup)).all()
    }


def _product(session: Session, name: str, minutes: int) -> Product:
    product = Product(
        name=name, base_price_cents=2800, stock_quantity=5, created_at=T0 + timedelta(minutes=minutes)
    )
    session.add(product)
    session.commit()
    return product


def test_the_summary_follows_inserts_renames_new_dates_and_deletes(session: Session) -> None:
    amber = [_product(session, f"8oz Amber Jar - Scent {n}", n) for n in range(3)]
    tin = _product(session, "Travel Tin - Cedar", 10)
    assert (
        _summary(session)
        == _expected(session)
        == {
            "8oz amber jar": (3, amber[2].id),
            "travel tin": (1, tin.id),
        }
    )

    amber[0].name = "Travel Tin - Rose"  # leaves one group, joins another (ORM update)
    session.commit()
    assert _summary(session) == _expected(session)
    assert _summary(session)["travel tin"] == (2, tin.id)

    amber[1].created_at = T0 + timedelta(minutes=60)  # now the newest of its group
    session.commit()
    assert _summary(session)["8oz amber jar"] == (2, amber[1].id)

    session.delete(tin)
    session.delete(amber[0])  # the travel tin group is now empty: no row is left for it
    session.commit()
    assert _summary(session) == _expected(session) == {"8oz amber jar": (2, amber[1].id)}


def test_bulk_statements_written_by_hand_keep_it_too(session: Session) -> None:
    for n in range(4):
        _product(session, f"Wax Melt - Scent {n}", n)
    session.execute(
        sa.update(Product)
        .where(col(Product.name).like("%Scent 1"))
        .values(name="Gift Box - Scent 1", vessel_key="gift box", name_folded="gift box - scent 1")
    )
    session.execute(sa.delete(Product).where(col(Product.name).like("%Scent 3")))
    session.commit()

    assert _summary(session) == _expected(session)
    assert set(_summary(session)) == {"wax melt", "gift box"}
    assert product_listing.list_groups(session, search="gift").total == 1


def test_a_stock_change_alone_leaves_the_summary_untouched(session: Session, engine: Engine) -> None:
    """Orders change stock all day: their updates must not recompute any group."""
    product = _product(session, "Room Spray - Lavender", 0)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE product_vessel_groups SET variations = 99"))
    product.stock_quantity = 1
    session.commit()
    assert _summary(session) == {"room spray": (99, product.id)}  # not recomputed


NAMES = st.lists(
    st.text(alphabet="ab -Éé%_\"'", min_size=1, max_size=12).map(lambda s: s.strip() or "x"),
    min_size=1,
    max_size=8,
)


@hypothesis_settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    names=NAMES,
    renamed=st.integers(min_value=0, max_value=7),
    needle=st.text(alphabet="ab -é%_\"'", max_size=4),
)
def test_a_name_search_finds_exactly_the_names_that_contain_it(
    session: Session, names: list[str], renamed: int, needle: str
) -> None:
    """The search (a trigram index on PostgreSQL, names held in the walked index on SQLite)
    agrees with Python's ``in`` on the case-folded names, after inserts, a rename and a delete,
    for needles of any length."""
    session.execute(sa.delete(Product))
    products = [_product(session, name, n) for n, name in enumerate(names)]
    products[renamed % len(products)].name = f"Renamed {needle} - x"
    session.commit()
    session.delete(products[0])
    session.commit()

    page = product_listing.list_products(session, search=needle, page_size=100)

    folded = " ".join(needle.split()).casefold()
    expected = {p.id for p in session.exec(select(Product)).all() if folded in p.name.casefold()}
    assert {row.id for row in page.rows} == expected or not folded.strip()
    assert page.total == len(page.rows)


def test_a_search_holding_what_no_name_holds_is_answered(session: Session) -> None:
    """A websocket may send anything: PostgreSQL refuses a NUL in a query's text, and a lone
    surrogate cannot be encoded for either database."""
    lavender = _product(session, "Room Spray - Lavender", 0)
    _product(session, "Wax Melt - Cedar", 1)
    expected = {
        "lav\x00ender": [lavender.id],  # what is left of it: "lavender"
        "lavender\ud800": [lavender.id],
        "\x00\x00\x00": None,  # nothing left: every product
        '"lav"ender': [],  # quotes are text, not a phrase
    }
    for typed, ids in expected.items():
        page = product_listing.list_products(session, search=typed)
        groups = product_listing.list_groups(session, search=typed)
        if ids is None:
            assert (page.total, groups.total) == (2, 2)
        else:
            assert ([row.id for row in page.rows], groups.total) == (ids, len(ids))


def _plan_of_the_page(session: Session, engine: Engine, **query: object) -> str:
    """The database's plan for the statement that reads a page of ``list_products(**query)``."""
    return _plan_of(session, engine, "ORDER BY", **query)


def _plan_of(session: Session, engine: Engine, marker: str, **query: object) -> str:
    """The database's plan for the first statement of ``list_products(**query)`` containing
    ``marker``, with PostgreSQL told to read no table whole and sort nothing it can avoid."""
    statements: list[tuple[str, object]] = []

    def keep(_conn, _cursor, statement, parameters, _context, _many) -> None:  # type: ignore[no-untyped-def]
        if marker in statement:
            statements.append((statement, parameters))

    sa.event.listen(engine, "before_cursor_execute", keep)
    try:
        product_listing.list_products(session, **query)  # type: ignore[arg-type]
    finally:
        sa.event.remove(engine, "before_cursor_execute", keep)
    (statement, parameters), *_ = statements
    connection = session.connection()
    if engine.dialect.name == "sqlite":
        rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters).all()  # type: ignore[arg-type]
        return "\n".join(str(row[-1]) for row in rows)
    # A few rows: without these, PostgreSQL would rightly read the table and sort.
    connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
    connection.exec_driver_sql("SET LOCAL enable_sort = off")
    rows = connection.exec_driver_sql(f"EXPLAIN {statement}", parameters).all()  # type: ignore[arg-type]
    session.rollback()
    return "\n".join(str(row[0]) for row in rows)


def test_a_list_by_price_reads_its_page_from_the_display_price_index(
    session: Session, engine: Engine
) -> None:
    """The ``ORDER BY`` is the indexed expression itself (a database uses an expression index only
    for an identical expression: one bound parameter in it and every page sorted every product)."""
    for n, (base, sale) in enumerate([(3000, 2400), (2800, None), (2600, 2900), (3200, 0)]):
        product = _product(session, f"Soy Candle - Scent {n}", n)
        product.base_price_cents, product.sale_price_cents = base, sale or None
    session.commit()

    for sort in (ProductSort.PRICE_DESC, ProductSort.PRICE_ASC):
        assert "ix_products_display_price" in _plan_of_the_page(session, engine, sort=sort)
    prices = [
        row.base_price_cents
        for row in product_listing.list_products(session, sort=ProductSort.PRICE_ASC).rows
    ]
    assert prices == [3000, 2600, 2800, 3200]  # pays 24.00, 26.00, 28.00, 32.00


def test_a_search_is_counted_from_one_narrow_index_not_from_the_table(
    session: Session, engine: Engine
) -> None:
    """A broad search ("candle": a part of names, and of three main categories' names) is a name
    or a category. Counting it read the whole wide ``products`` table on PostgreSQL (21 ms at
    20,000 products); ``ix_products_display_price`` holds both columns, so the count scans it
    alone (an index-only scan; SQLite: a covering index)."""
    candles = Category(name="Candles", slug="candles")
    session.add(candles)
    session.flush()
    # Enough rows that reading the table costs the planner more than the narrow index does (with
    # a few dozen, PostgreSQL rightly prefers the trigram and category indexes and the table).
    session.add_all(
        Product(
            name=f"Soy Candle - Scent {n}" if n % 2 else f"Wax Melt - Scent {n}",
            description="A long description the narrow index does not hold. " * 8,
            base_price_cents=2800,
            category_id=candles.id if n % 3 == 0 else None,
            created_at=T0 + timedelta(minutes=n),
        )
        for n in range(2000)
    )
    session.commit()
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM (ANALYZE) products")  # what autovacuum does: all visible

    plan = _plan_of(session, engine, "count(", search="candle")

    if engine.dialect.name == "sqlite":
        assert "COVERING INDEX" in plan, plan
    else:
        assert "Index Only Scan" in plan and "Heap Scan" not in plan, plan
    page = product_listing.list_products(session, search="candle")
    assert page.total == 1000 + 334  # "soy candle" names, and the wax melts in Candles


def test_two_transactions_adding_to_one_group_at_once_are_both_counted(
    engine: Engine, session: Session
) -> None:
    """PostgreSQL: the second recomputation waits for the first transaction's commit, then counts
    its product. (SQLite lets one writer at a time in: the second waits for the file's lock.)"""
    _product(session, "Pillar Candle - Scent 0", 0)
    failures: list[BaseException] = []

    def second() -> None:
        try:
            with Session(engine) as own:
                own.add(Product(name="Pillar Candle - Scent 2", base_price_cents=100, created_at=T0))
                own.commit()
        except BaseException as error:  # reported by the assertion below
            failures.append(error)

    with Session(engine) as first:
        first.add(Product(name="Pillar Candle - Scent 1", base_price_cents=100, created_at=T0))
        first.flush()  # its trigger ran: this transaction holds the group's lock until it commits
        thread = threading.Thread(target=second)
        thread.start()
        if engine.dialect.name == "postgresql":
            _until_a_transaction_waits_for_an_advisory_lock(engine)
        first.commit()
    thread.join(timeout=60)

    assert not thread.is_alive() and failures == []
    assert _summary(session)["pillar candle"][0] == 3 == _expected(session)["pillar candle"][0]


def _until_a_transaction_waits_for_an_advisory_lock(engine: Engine, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    while True:
        with engine.connect() as connection:
            if connection.execute(sa.text(waiting)).scalar_one():
                return
        assert time.monotonic() < deadline, "the second transaction never waited for the first"
        time.sleep(0.05)
