"""A simulated shopper: one tab of the shop, speaking Reflex's event protocol over its websocket.

What a browser tab sends, without the browser (see ``utils/state.js`` and ``utils/context.jsx``
of a build, and ``reflex/state.py``):

- **open the tab** on /shop: the websocket's CONNECT packet carries ``State.hydrate_and_load``
  (no client-storage hashes, as on a reconnect, so the full state comes back);
- **browse** /shop: a client-side navigation sends ``OnLoadInternalState.on_load_internal`` with
  the page's router data; the server runs the page's on_load handlers (the header's loads, then
  ``ShopState.load``) and ends with ``is_hydrated = true``: that update ends the page load;
- **search**: the header's search box redirects to ``/shop?search=…``, which is the same
  navigation with a query; done at ``is_hydrated = true`` (the cards of the search came before);
- **add to cart**: ``CartState.add(product_id)``; done when the notification it ends with
  ("… added to cart", or an error) arrives;
- baselines in the same run: a **trivial event** (``NotificationState.dismiss``: one string var
  on the smallest state, no I/O: Reflex's own per-event cost: lock, state, delta, socket) and a
  **transport ping** (Socket.IO ``ping`` → ``pong``: websocket and event loop only, no state).

Round trip = from the emit until the update that ends the action is read off the socket.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .ws_client import Received, SocketIOClient

ACTIONS = ("browse", "search", "add to cart", "trivial event", "transport ping")
BUDGETED = "add to cart"
SEARCH_TERMS = ("vanilla", "lavender", "cedar", "linen", "lavendr", "sea salt")
ACTION_TIMEOUT_S = 15.0


@dataclass(frozen=True, slots=True)
class Protocol:
    """The event names of the app, taken from its state classes (so they cannot drift)."""

    root: str
    on_load_internal: str
    hydrate_and_load: str
    add_to_cart: str
    dismiss: str
    notification_state: str
    shop_state: str
    reflex_version: str

    @classmethod
    def of_app(cls) -> Protocol:
        """Read the names from the app's states (imports Reflex and the shop's states)."""
        from reflex.state import OnLoadInternalState, State  # noqa: PLC0415 - only when a benchmark runs
        from reflex_base.constants import Reflex  # noqa: PLC0415

        from shop_app.state.cart import CartState  # noqa: PLC0415
        from shop_app.state.notify import NotificationState  # noqa: PLC0415
        from shop_app.state.shop import ShopState  # noqa: PLC0415

        return cls(
            root=State.get_full_name(),
            on_load_internal=f"{OnLoadInternalState.get_full_name()}.on_load_internal",
            hydrate_and_load=f"{State.get_full_name()}.hydrate_and_load",
            add_to_cart=f"{CartState.get_full_name()}.add",
            dismiss=f"{NotificationState.get_full_name()}.dismiss",
            notification_state=NotificationState.get_full_name(),
            shop_state=ShopState.get_full_name(),
            reflex_version=Reflex.VERSION,
        )


def _router_data(path: str, query: dict[str, str] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"pathname": path, "asPath": path}
    if query:
        data["query"] = query
        data["asPath"] = path + "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return data


def delta_of(message: Received) -> dict[str, dict[str, Any]]:
    if message.name != "event" or not message.args or not isinstance(message.args[0], dict):
        return {}
    return message.args[0].get("delta") or {}


@dataclass(slots=True)
class Sample:
    """One timed action."""

    action: str
    sent: float  # perf_counter at the emit
    ms: float
    ok: bool
    received_chars: int


@dataclass
class Shopper:
    """One tab: its token, its socket, what it has seen."""

    protocol: Protocol
    host: str
    port: int
    origin: str
    product_ids: list[int]
    rng: random.Random
    token: str = field(default_factory=lambda: str(uuid.uuid4()))
    client: SocketIOClient | None = None
    state_names: set[str] = field(default_factory=set)  # every state the server told us about
    seen_products: set[int] = field(default_factory=set)  # in stock on the cards shown
    errors: list[str] = field(default_factory=list)
    connect_ms: float = 0.0
    timeout_s: float = ACTION_TIMEOUT_S  # how long an action may take before it counts as failed
    _step: int = 0
    _adding: int = 0  # the product of the add to cart in flight

    async def open(self, path: str = "/shop") -> None:
        """Open the tab on ``path``: connect with the hydrate event, wait for the page load."""
        p = self.protocol
        boot = {"name": p.hydrate_and_load, "payload": {}, "router_data": _router_data(path)}
        started = time.perf_counter()
        self.client = await SocketIOClient.connect(
            self.host,
            self.port,
            path="/_event",
            namespace="/_event",
            query={"token": self.token},
            origin=self.origin,
            subprotocol=p.reflex_version,
            auth={"event": boot},
        )
        ok, _chars = await self._until(self._page_loaded)
        self.connect_ms = (time.perf_counter() - started) * 1000
        if not ok:
            msg = "the first page load did not finish"
            raise RuntimeError(msg)

    async def close(self) -> None:
        """Close the tab."""
        if self.client is not None:
            await self.client.close()

    def next_action(self) -> str:
        """The shopper's actions in turn: browse, search, add to cart and the two baselines."""
        action = ACTIONS[self._step % len(ACTIONS)]
        self._step += 1
        return action

    async def act(self, action: str) -> Sample:
        """Send one action and wait for the update that ends it."""
        client = self.client
        assert client is not None
        p = self.protocol
        done: Callable[[Received], bool]
        if action == "browse":
            client_event = {"name": p.on_load_internal, "payload": {}, "router_data": _router_data("/shop")}
            done = self._page_loaded
        elif action == "search":
            query = {"search": self.rng.choice(SEARCH_TERMS)}
            router = _router_data("/shop", query)
            client_event = {"name": p.on_load_internal, "payload": {}, "router_data": router}
            done = self._page_loaded
        elif action == "add to cart":
            product_id = self.rng.choice(self.product_ids or sorted(self.seen_products))
            self._adding = product_id
            client_event = {
                "name": p.add_to_cart,
                "payload": {"product_id": product_id},
                "router_data": _router_data("/shop"),
            }
            done = self.notified
        elif action == "trivial event":
            client_event = {"name": p.dismiss, "payload": {}, "router_data": _router_data("/shop")}
            done = self._notification_changed
        else:
            client_event = None
            done = self._ponged
        sent = time.perf_counter()
        if client_event is None:
            client.emit("ping")
        else:
            client.emit("event", client_event)
        ok, chars = await self._until(done)
        return Sample(action, sent, (time.perf_counter() - sent) * 1000, ok, chars)

    async def call(
        self, action: str, event: str, payload: dict[str, Any], done: Callable[[Received], bool], path: str
    ) -> Sample:
        """Send the event ``event`` (full name) from a page at ``path``; wait until ``done``."""
        sent = time.perf_counter()
        self.send(event, payload, path)
        ok, chars = await self._until(done)
        return Sample(action, sent, (time.perf_counter() - sent) * 1000, ok, chars)

    def send(self, event: str, payload: dict[str, Any], path: str) -> None:
        """Send the event ``event`` (full name) from a page at ``path``, waiting for nothing (the
        server handles one tab's events in the order they came)."""
        client = self.client
        assert client is not None
        client.emit("event", {"name": event, "payload": payload, "router_data": _router_data(path)})

    async def visit(self, path: str) -> Sample:
        """A client-side navigation to ``path`` (its on_load handlers), until the page is loaded."""
        return await self.call("browse", self.protocol.on_load_internal, {}, self._page_loaded, path)

    async def _until(self, done: Callable[[Received], bool]) -> tuple[bool, int]:
        """Read updates until ``done`` says one ends the action; (finished, characters read)."""
        client = self.client
        assert client is not None
        chars = 0
        deadline = time.perf_counter() + self.timeout_s
        while True:
            remaining = deadline - time.perf_counter()
            try:
                message = await asyncio.wait_for(client.inbox.get(), max(remaining, 0.001))
            except TimeoutError:
                self.errors.append("timeout")
                return False, chars
            if message.name == "__closed__":
                self.errors.append("connection closed")
                return False, chars
            chars += message.size
            delta = delta_of(message)
            self.state_names.update(delta)
            for card in delta.get(self.protocol.shop_state, {}).get("cards_rx_state_", []):
                if card["current"]["in_stock"]:
                    self.seen_products.add(card["current"]["product_id"])
            if done(message):
                return True, chars

    def _page_loaded(self, message: Received) -> bool:
        root = delta_of(message).get(self.protocol.root, {})
        return root.get("is_hydrated_rx_state_") is True

    def notified(self, message: Received) -> bool:
        note = delta_of(message).get(self.protocol.notification_state, {})
        if "seq_rx_state_" not in note:
            return False
        if note.get("kind_rx_state_") == "error":
            self.errors.append(f"add to cart refused: {note.get('message_rx_state_')}")
            self.seen_products.discard(self._adding)  # (a shop given by --url) not that one again
        return True

    def _notification_changed(self, message: Received) -> bool:
        return "message_rx_state_" in delta_of(message).get(self.protocol.notification_state, {})

    @staticmethod
    def _ponged(message: Received) -> bool:
        return message.name == "ping" and message.args == ["pong"]
