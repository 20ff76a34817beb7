"""The size of a shopper's Reflex state on /shop, as the server stores it and as the browser gets it.

A root ``reflex.state.State`` is built with every substate of the app (importing
``shop_app.pages`` registers the same tree the server has), the /shop page's on_load handlers
(whatever ``shop_app.pages`` lists for it, ending with ``ShopState.load`` with no query
parameters) run against the benchmark database and the shopper adds a few products to the cart;
then the shopper switches to the individual view and presses "load more" once. Measured:

- ``_serialize()`` of each state: the pickle the disk and Redis state managers store per state
  (``pickle.dumps((schema, state))``; substates are stored separately);
- the sum over the whole tree of one shopper (the budget's number);
- the JSON the browser receives: the full frontend state (``State.dict()``, what a hydrate sends)
  and the delta of the "load more" event, encoded with Reflex's own ``format.json_dumps``;
- the time ``ShopState.load()`` (grouped) and ``load_more()`` (individual) take: queries plus
  formatting the cards.

Production mode (``REFLEX_ENV_MODE=prod``) is set while measuring, so image URLs are the
same-origin paths the production build sends.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import pickle
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from sqlmodel import Session, select

from shop_app.db import get_engine, reset_engine
from shop_app.models import Product
from shop_app.settings import get_settings

CART_LINES = 3


@dataclass(frozen=True, slots=True)
class StateSizes:
    """Serialized sizes in bytes, and how long the shop's handlers took.

    Two shoppers: one on the default grouped view just after the page loaded, one who switched
    to the individual view and pressed "load more" once (grouped, 20,000 synthetic products
    make a single page, so "load more" only adds cards in the individual view).
    """

    shop_state: int  # ShopState._serialize(), grouped view after load
    cart_state: int
    site_state: int
    tree_total: int  # every state of the shopper's tree, grouped view after load
    frontend_json: int  # JSON of State.dict() (all frontend vars), grouped view after load
    shop_state_more: int  # ... individual view after one load more
    tree_total_more: int
    frontend_json_more: int
    load_more_delta_json: int  # JSON of the delta the load_more event sends (individual view)
    shop_fields: dict[str, int] = field(default_factory=dict)  # pickled size per ShopState field
    cards: int = 0
    cards_more: int = 0
    variations_kept: int = 0  # product ids held in ShopState._variations after load
    load_ms: float = 0.0  # median ShopState.load() (queries + view formatting), grouped
    load_more_ms: float = 0.0  # median load_more() in the individual view


@contextmanager
def _shop_environment(database_url: str) -> Iterator[None]:
    """Point the app's settings and engine at ``database_url``, in production mode."""
    saved = {name: os.environ.get(name) for name in ("DATABASE_URL", "REFLEX_ENV_MODE")}
    os.environ["DATABASE_URL"] = database_url
    os.environ["REFLEX_ENV_MODE"] = "prod"
    get_settings.cache_clear()
    reset_engine()
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        get_settings.cache_clear()
        reset_engine()


def _tree_size(state) -> int:
    return len(state._serialize()) + sum(_tree_size(sub) for sub in state.substates.values())


def _json_size(value) -> int:
    from reflex_base.utils import format  # noqa: PLC0415 - Reflex is imported only when measuring

    return len(format.json_dumps(value).encode("utf-8"))


def _new_tree():
    from reflex.state import State  # noqa: PLC0415

    return State(_reflex_internal_init=True)


def _shop_on_load() -> list:
    """The handlers /shop runs on load, as the app registers them."""
    from shop_app import routes  # noqa: PLC0415
    from shop_app.pages import PAGES  # noqa: PLC0415 - registers every state of the app, as the server

    return next(page.on_load for page in PAGES if page.route == routes.SHOP)


def _run_event(loop: asyncio.AbstractEventLoop, root, event) -> None:
    """Run an on_load event: a handler, or an event spec (a handler with literal arguments)."""
    from reflex.event import EventSpec  # noqa: PLC0415

    if isinstance(event, EventSpec):
        _run(loop, root, event.handler, *(value._var_value for _name, value in event.args))
    else:
        _run(loop, root, event)


def _run(loop: asyncio.AbstractEventLoop, root, handler, *args) -> None:
    """Run an event handler (plain, async or generator) on its state in ``root``'s tree."""
    state = root.get_substate(handler.state_full_name.split("."))
    result = handler.fn(state, *args)
    if inspect.isawaitable(result):
        loop.run_until_complete(result)
    elif inspect.isasyncgen(result):

        async def drain() -> None:
            async for _ in result:
                pass

        loop.run_until_complete(drain())
    elif inspect.isgenerator(result):
        list(result)


def measure_state_sizes(database_url: str, *, timing_runs: int = 5) -> StateSizes:
    """Build a shopper's /shop state on ``database_url`` and measure it."""
    from shop_app.state.cart import CartState  # noqa: PLC0415
    from shop_app.state.shop import ShopState  # noqa: PLC0415
    from shop_app.state.site import SiteState  # noqa: PLC0415

    on_load = _shop_on_load()
    loop = asyncio.new_event_loop()
    with _shop_environment(database_url):
        try:
            load_times, more_times = [], []
            for _ in range(max(1, timing_runs)):
                tree = _new_tree()
                started = time.perf_counter()
                _run(loop, tree, ShopState.load)
                load_times.append((time.perf_counter() - started) * 1000)
                _run(loop, tree, ShopState.set_grouped, False)
                started = time.perf_counter()
                _run(loop, tree, ShopState.load_more)
                more_times.append((time.perf_counter() - started) * 1000)

            root = _new_tree()
            for event in on_load:
                _run_event(loop, root, event)
            with Session(get_engine()) as session:
                product_ids = session.exec(select(Product.id).order_by(Product.id).limit(CART_LINES)).all()
            for product_id in product_ids:
                _run(loop, root, CartState.add, product_id)
            site = root.get_substate(SiteState.get_full_name().split("."))
            cart = root.get_substate(CartState.get_full_name().split("."))
            shop = root.get_substate(ShopState.get_full_name().split("."))
            if cart.count != len(product_ids):
                msg = f"the shopper's cart holds {cart.count} items, expected {len(product_ids)}"
                raise RuntimeError(msg)
            shop_fields = {name: len(pickle.dumps(value)) for name, value in vars(shop).items()}
            grouped = (len(shop._serialize()), _tree_size(root), _json_size(root.dict()), len(shop.cards))
            kept = sum(len(v) for v in shop._variations.values())

            _run(loop, root, ShopState.set_grouped, False)
            root._clean()
            _run(loop, root, ShopState.load_more)
            delta = root.get_delta()
        finally:
            loop.close()
        return StateSizes(
            shop_state=grouped[0],
            cart_state=len(cart._serialize()),
            site_state=len(site._serialize()),
            tree_total=grouped[1],
            frontend_json=grouped[2],
            shop_state_more=len(shop._serialize()),
            tree_total_more=_tree_size(root),
            frontend_json_more=_json_size(root.dict()),
            load_more_delta_json=_json_size(delta),
            shop_fields=dict(sorted(shop_fields.items(), key=lambda item: -item[1])),
            cards=grouped[3],
            cards_more=len(shop.cards),
            variations_kept=kept,
            load_ms=statistics.median(load_times),
            load_more_ms=statistics.median(more_times),
        )
