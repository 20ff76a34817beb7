"""The event channel under attack: every registered handler, forged payloads, two kinds of caller.

A websocket client speaking Reflex's protocol (no browser, no cookie: benchmarks/ws_client.py)
connects to the running shop as a visitor, and as a customer who signed in over the socket, and
sends *every* event handler the app registers (Reflex's own included), each several times with
property-based payloads (hypothesis): wrong types, huge and negative numbers, other users' ids,
NUL bytes and bidi overrides, oversized texts, forged session objects, missing and extra
arguments. The takeover of the report is sent verbatim first.

Afterwards: no protected table changed (users, sessions, admin roles, products with their prices
and stock, orders, payments, categories, settings, site images), the server logged no error or
traceback, and the shop still serves pages and new tabs. docs/security.md, "The event channel".
"""

from __future__ import annotations

import asyncio
import time
import types
import typing
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bcrypt
import httpx
import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from reflex.state import OnLoadInternalState, State
from reflex_base.constants import Reflex
from reflex_base.registry import RegistrationContext
from reflex_base.utils.form import FORM_DATA_ENTRIES_KEY
from starlette.datastructures import UploadFile

import shop_app.shop_app  # noqa: F401 - registers every handler of the app
from benchmarks.ws_client import Received, SocketIOClient
from shop_app.db import create_db_engine
from shop_app.models import AdminRole, Order, Payment, User
from shop_app.services import sessions
from shop_app.state.auth import AuthState
from shop_app.state.auth_dialog import AuthDialogState
from shop_app.state.event_guard import handler_params
from shop_app.state.notify import NotificationState

pytestmark = pytest.mark.forged_events
T = typing.TypeVar("T")

EXAMPLES_PER_HANDLER = 6
REPLY_TIMEOUT_S = 60.0
FUZZER_EMAIL, FUZZER_PASSWORD = "fuzzer@example.com", "fuzzer-password-1"
VICTIM_EMAIL = "victim@example.com"
PAGES = ("/", "/shop", "/product/1", "/checkout", "/account", "/orders", "/admin", "/admin/manage-products")
NASTY_TEXT = (
    "",
    "\x00",
    "a\x00b",
    "\u202etxt.exe",
    "\u2066admin\u2069",
    "\ud800",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "x" * 25_000,
    "9" * 40,
    "NaN",
    "-1",
    "admin@example.com",
    VICTIM_EMAIL,
)
FORM_KEYS = (
    "email",
    "password",
    "confirm_password",
    "first_name",
    "last_name",
    "phone",
    "address",
    "city",
    "state",
    "zip_code",
    "country",
    "message",
    "subject",
    "name",
    "role",
    "status",
    "user_id",
    "session_id",
    "is_admin",
    "agree_to_terms",
    "remember_me",
    "source_id",
    "special_instructions",
    "price",
    "stock_quantity",
    "base_price",
    "query",
    "source",
)
FORGED_USER = {
    "session_id": 1,
    "user_id": 1,
    "email": "admin@example.com",
    "first_name": "",
    "last_name": "",
    "is_admin": True,
    "email_verified": True,
    "remember_me": False,
}

# ---------------------------------------------------------------------------------- payloads

ids = st.one_of(
    st.integers(min_value=0, max_value=60), st.sampled_from([-1, 2**31 - 1, 2**31, 2**63, 10**30])
)
texts = st.one_of(st.text(max_size=30), st.sampled_from(NASTY_TEXT))
nasty = st.one_of(
    st.none(),
    st.booleans(),
    ids,
    st.floats(allow_nan=True, allow_infinity=True),
    texts,
    st.lists(ids, max_size=4),
    st.just(FORGED_USER),
    st.dictionaries(st.sampled_from(FORM_KEYS), texts, max_size=4),
)
forms = st.one_of(
    st.dictionaries(st.sampled_from(FORM_KEYS), st.one_of(texts, st.booleans(), st.none(), ids), max_size=8),
    st.dictionaries(st.sampled_from(FORM_KEYS), texts, max_size=8).map(
        lambda form: {FORM_DATA_ENTRIES_KEY: [[key, value] for key, value in form.items()]}
    ),
)


def typed(hint: Any) -> st.SearchStrategy[Any]:
    """Values of the annotated type (ids of real rows, form dicts, texts)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(typed(arm) for arm in args))
    if hint is list or origin is list:
        return st.lists(typed(args[0]) if args else nasty, max_size=4)
    if hint is dict or origin is dict:
        return forms
    if isinstance(hint, type) and issubclass(hint, UploadFile):
        return st.just({"filename": "x.png", "content_type": "image/png"})  # JSON is never a file
    return SCALARS.get(hint, nasty)


SCALARS: dict[Any, st.SearchStrategy[Any]] = {
    bool: st.booleans(),
    int: ids,
    float: st.floats(min_value=-1e6, max_value=1e6),
    str: texts,
}


def payloads(params: tuple) -> st.SearchStrategy[Any]:
    """Payloads for a handler: well typed, wrongly typed, with missing or forged arguments."""
    right = st.fixed_dictionaries({p.name: typed(p.hint) for p in params})
    wrong = st.fixed_dictionaries({p.name: nasty for p in params})
    extra = right.map(lambda payload: {**payload, "user_id": 1, "session_id": 1, "is_admin": True})
    missing = right.map(lambda payload: dict(list(payload.items())[:-1]))
    return st.one_of(right, right, wrong, extra, missing, st.just(["not", "an", "object"]))


# ---------------------------------------------------------------------------------- the shop


@dataclass(frozen=True)
class Handler:
    """A registered handler of the app: its full event name and arguments."""

    name: str
    params: tuple


def registered_handlers() -> list[Handler]:
    """Every event handler the app registers, Reflex's own included."""
    handlers = [
        Handler(name, handler_params(entry.handler.fn))
        for name, entry in RegistrationContext.get().event_handlers.items()
    ]
    return sorted(handlers, key=lambda h: h.name)


PROTECTED = (
    "users",
    "sessions",
    "admin_roles",
    "products",
    "orders",
    "order_items",
    "payments",
    "categories",
    "store_settings",
    "website_images",
    "known_browsers",
    "order_access_tokens",
)


SQUARE_LINK = frozenset({"square_item_id", "square_variation_id", "square_fingerprint"})
"""Written by the shop's background Square pusher alone (its start fills the local Square with
the catalogue, seconds after a fresh shop starts), never by an event handler."""


def protected_snapshot(engine: sa.Engine, fuzzer_id: int) -> dict[str, list[tuple]]:
    """The protected tables, but what the fuzzing customer may change of their own, and products'
    links to Square (``SQUARE_LINK``).

    Their profile (names, phone, address) and sign-in time, their sessions and browsers are
    theirs to change; nobody else's row may change, and a new account (registration is public)
    must not be an administrator (``admin_roles`` would change).
    """
    snapshot: dict[str, list[tuple]] = {}
    with engine.connect() as connection:
        for table in PROTECTED:
            rows = connection.execute(sa.text(f"SELECT * FROM {table} ORDER BY id")).mappings().all()
            kept = []
            for row in rows:
                if table in ("sessions", "known_browsers") and row["user_id"] == fuzzer_id:
                    continue
                own = table == "users" and row["id"] == fuzzer_id
                values = (
                    {key: row[key] for key in ("id", "email", "password_hash", "is_active")} if own else row
                )
                if table == "products":  # the shop's own Square pusher links products meanwhile
                    values = {key: value for key, value in values.items() if key not in SQUARE_LINK}
                kept.append(tuple(sorted((key, repr(value)) for key, value in values.items())))
            snapshot[table] = kept
    return snapshot


@dataclass
class Tab:
    """One websocket tab of the shop."""

    client: SocketIOClient
    mark: int = 0

    async def send(self, name: str, payload: Any, path: str = "/shop") -> None:
        self.client.emit("event", {"name": name, "payload": payload, "router_data": _router(path)})

    async def settle(self) -> None:
        """Wait until every event sent so far was handled (a marker notification comes back)."""
        self.mark += 1
        marker = f"fuzz-marker-{self.mark}"
        await self.send(SHOW, {"message": marker, "kind": "info"})
        await self.wait_for(lambda delta: delta.get(NOTIFICATION, {}).get("message_rx_state_") == marker)

    async def wait_for(self, done: typing.Callable[[dict], bool]) -> dict:
        deadline = time.monotonic() + REPLY_TIMEOUT_S
        while True:
            message: Received = await asyncio.wait_for(self.client.inbox.get(), deadline - time.monotonic())
            assert message.name != "__closed__", "the server closed the websocket"
            if message.name == "event" and message.args and isinstance(message.args[0], dict):
                delta = message.args[0].get("delta") or {}
                if done(delta):
                    return delta


ROOT = State.get_full_name()
SHOW = f"{NotificationState.get_full_name()}.show"
NOTIFICATION = NotificationState.get_full_name()
AUTH = AuthState.get_full_name()


def _router(path: str) -> dict[str, Any]:
    return {"pathname": path, "asPath": path}


async def open_tab(shop_url: str) -> Tab:
    """A new tab on /shop: connect with the hydrate event, wait for the page load."""
    url = httpx.URL(shop_url)
    boot = {"name": f"{ROOT}.hydrate_and_load", "payload": {}, "router_data": _router("/shop")}
    client = await SocketIOClient.connect(
        url.host,
        url.port,
        path="/_event",
        namespace="/_event",
        query={"token": str(uuid.uuid4())},
        origin=shop_url,
        subprotocol=Reflex.VERSION,
        auth={"event": boot},
        timeout=REPLY_TIMEOUT_S,
    )
    tab = Tab(client)
    await tab.wait_for(lambda delta: delta.get(ROOT, {}).get("is_hydrated_rx_state_") is True)
    return tab


async def sign_in(tab: Tab) -> None:
    """Sign the tab in over the socket, as the dialog does (opened first: a closed dialog's submit
    does nothing)."""
    form = {"email": FUZZER_EMAIL, "password": FUZZER_PASSWORD}
    await tab.send(f"{AuthDialogState.get_full_name()}.open_sign_in", {})
    await tab.send(f"{AuthDialogState.get_full_name()}.submit_login", {"form": form})
    await tab.wait_for(lambda delta: delta.get(AUTH, {}).get("is_authenticated_rx_state_") is True)


# ---------------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def people(shop_database_url: str) -> Iterator[dict[str, int]]:
    """The fuzzing customer, and a victim with a live session and an order; rate-limit rows the
    fuzzing leaves (its sign-in failures from loopback) are removed afterwards so the other
    browser tests can still sign in."""
    engine = create_db_engine(shop_database_url)
    with engine.begin() as connection:
        before = {
            table: connection.execute(sa.text(f"SELECT COALESCE(MAX(id), 0) FROM {table}")).scalar()
            for table in ("sign_in_attempts", "form_submissions")
        }
    try:
        with sa.orm.Session(engine, expire_on_commit=False) as session:
            cheap = bcrypt.hashpw(FUZZER_PASSWORD.encode(), bcrypt.gensalt(rounds=4)).decode()
            fuzzer = User(email=FUZZER_EMAIL, password_hash=cheap, first_name="Fuzz", last_name="Er")
            victim = User(email=VICTIM_EMAIL, password_hash=cheap, first_name="Vic", last_name="Tim")
            session.add_all([fuzzer, victim])
            session.flush()
            sessions.start(session, user=victim, remember_me=True, browser_binding="victim-browser")
            order = Order(
                order_number=f"ORD-FUZZ{uuid.uuid4().hex[:6].upper()}",
                user_id=victim.id,
                email=VICTIM_EMAIL,
                status="pending",
                payment_status="completed",
                subtotal_cents=2400,
                tax_cents=288,
                shipping_cents=1500,
                total_cents=4188,
            )
            session.add(order)
            session.flush()
            session.add(
                Payment(
                    order_id=order.id, provider="square", idempotency_key=str(uuid.uuid4()), amount_cents=4188
                )
            )
            session.commit()
            yield {"fuzzer": fuzzer.id, "victim": victim.id, "order": order.id}
    finally:
        with engine.begin() as connection:
            for table, last in before.items():
                connection.execute(sa.text(f"DELETE FROM {table} WHERE id > :last"), {"last": last})
        engine.dispose()


def forged_events(handler: Handler) -> list[tuple[str, Any, str]]:
    """Up to ``EXAMPLES_PER_HANDLER`` (event name, payload, page) drawn for one handler."""
    drawn: list[tuple[str, Any, str]] = []

    @settings(
        max_examples=EXAMPLES_PER_HANDLER,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(payload=payloads(handler.params), path=st.sampled_from(PAGES))
    def collect(payload: Any, path: str) -> None:
        drawn.append((handler.name, payload, path))

    collect()
    return drawn


def run(coroutine: typing.Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end on its own event loop, in a thread: Playwright's sync API keeps
    an event loop running in the tests' thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _log_since(path: Path, offset: int) -> str:
    with path.open("rb") as log:
        log.seek(offset)
        return log.read().decode(errors="replace")


# ---------------------------------------------------------------------------------- the tests


def test_the_reported_takeover_no_longer_works(shop_url: str, shop_database_url: str, people: dict) -> None:
    """The report's exact events: a forged session object, then page loads, then Add Admin."""
    engine = create_db_engine(shop_database_url)
    before = protected_snapshot(engine, people["fuzzer"])

    async def attack() -> dict:
        tab = await open_tab(shop_url)
        for session_id in range(1, 41):
            forged = {**FORGED_USER, "session_id": session_id, "user_id": 0, "is_admin": False}
            await tab.send(f"{AUTH}.signed_in", {"current": forged, "ticket": ""})
            await tab.send(f"{AUTH}.load", {})
        await tab.send(
            f"{ROOT}.shop_app___state___admin___admins____manage_admins_state.save_add",
            {"form": {"email": FUZZER_EMAIL}},
        )
        await tab.send(f"{AUTH}.load", {})
        auth = await tab.wait_for(lambda delta: "is_authenticated_rx_state_" in delta.get(AUTH, {}))
        await tab.client.close()
        return auth[AUTH]

    auth = run(attack())

    assert auth["is_authenticated_rx_state_"] is False and auth["is_admin_rx_state_"] is False
    assert protected_snapshot(engine, people["fuzzer"]) == before
    engine.dispose()


@pytest.mark.parametrize("role", ["visitor", "customer"])
def test_every_handler_with_forged_payloads_changes_nothing_protected_and_fails_nothing(
    shop_url: str, shop_database_url: str, shop_workdir: Path, people: dict, role: str
) -> None:
    engine = create_db_engine(shop_database_url)
    log_path = shop_workdir / "reflex.log"
    offset = log_path.stat().st_size
    before = protected_snapshot(engine, people["fuzzer"])
    handlers = registered_handlers()
    assert len(handlers) > 250  # every state's handlers, not a sample

    sent = [event for handler in handlers for event in forged_events(handler)]

    async def fuzz() -> None:
        tab = await open_tab(shop_url)
        if role == "customer":
            await sign_in(tab)
        for number, (name, payload, path) in enumerate(sent, start=1):
            await tab.send(name, payload, path)
            if number % 50 == 0:
                await tab.settle()  # keep the server's queue for this tab short
        await tab.settle()
        await tab.client.close()

    run(fuzz())

    assert {name for name, _, _ in sent} == {handler.name for handler in handlers}  # every one
    problems = [
        line
        for line in _log_since(log_path, offset).splitlines()
        if "Traceback" in line or "level=error" in line or "event handler failed" in line
    ]
    assert not problems, "the server failed on forged events:\n" + "\n".join(problems[:30])
    assert protected_snapshot(engine, people["fuzzer"]) == before
    with engine.connect() as connection:
        admins = connection.execute(sa.select(sa.func.count()).select_from(AdminRole.__table__)).scalar()
        assert admins == len(before["admin_roles"])
    engine.dispose()

    # The shop still serves: a page, the health check, and a new tab that loads.
    assert httpx.get(f"{shop_url}/shop", timeout=30).status_code == 200
    assert httpx.get(f"{shop_url}/api/health", timeout=30).json()["status"] == "ok"
    run(_open_and_close(shop_url))


async def _open_and_close(shop_url: str) -> None:
    tab = await open_tab(shop_url)
    await tab.client.close()


def test_the_fuzzer_covers_reflex_own_plumbing_too() -> None:
    names = {handler.name for handler in registered_handlers()}

    assert f"{ROOT}.hydrate_and_load" in names
    assert f"{OnLoadInternalState.get_full_name()}.on_load_internal" in names
    assert any(name.endswith(".setvar") for name in names)
