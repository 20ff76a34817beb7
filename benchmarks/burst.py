"""A burst beside the browsing shoppers: sign-ins and checkouts arriving at a fixed rate, and
probes of the backend's event loop (issue 18: acceptance 5, and 3's loop lag).

- **Sign-in** (``--sign-ins-per-s``, 10): a visitor on the home page signs in through the dialog's
  handler (``AuthDialogState.submit_login``) to an account of its own; timed from the emit to the
  notification ("Welcome back!" or the refusal), then the tab closes. Each check is a bcrypt
  verify at the shop's cost (about 0.25-0.35 CPU-seconds at cost 12 on this class of machine).
  The visitors' tabs are opened on / before the level starts (:meth:`Burst.prepare`): what
  arrives 10 times a second is the sign-in, not a page load (the 50 shoppers load pages).
- **Checkout** (``--checkouts-per-s``, 2): a visitor opens /shop, adds an in-stock product, goes to
  /checkout and places the order as a guest with the simulator's approved card
  (``cnon:card-nonce-ok``); timed from the emit of ``CheckoutState.place_order`` to the redirect
  to /order-success (stock taken, the payment through the SDK to the local Square, the order's
  mail recorded in the outbox).
- **Loop lag** (``--lag-probes``, 4): idle tabs that send a Socket.IO ping every 100 ms. The pong is
  written by the worker's event loop, so its round trip is how long that loop kept a ready task
  waiting: the event loop's lag, from outside, per worker the tab landed on.

Arrivals are open-loop: a visitor arrives every 1/rate seconds whether or not the earlier ones
have finished (a burst does not wait for the shop). Every arrival is recorded, finished or not.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from .shopper import Protocol, Received, Sample, Shopper, delta_of

SIGN_IN = "sign-in"
CHECKOUT = "checkout"
LAG = "loop lag (ping)"
BURST_ACTIONS = (SIGN_IN, CHECKOUT)
PASSWORD = "Burst-benchmark-1"  # every benchmark account's password (hashed once, at the shop's cost)
LAG_INTERVAL_S = 0.1
VISIT_TIMEOUT_S = 120.0
"""How long a sign-in or a checkout may wait: more than the shoppers' 15 s, so a queue of
sign-ins (bcrypt is CPU-bound: at 10 a second it can need more than two cores) is measured
as the wait it is, not as failures."""
CARD = "cnon:card-nonce-ok"
GUEST = {
    "first_name": "Ada",
    "last_name": "Burst",
    "phone": "604-555-0123",
    "address": "1 Cedar Lane",
    "address_line2": "",
    "city": "Vancouver",
    "state": "BC",
    "zip_code": "V5K 0A1",
    "country": "Canada",
    "special_instructions": "",
}


@dataclass(frozen=True, slots=True)
class BurstConfig:
    """How many sign-ins and checkouts arrive per second, and how many tabs probe the loop."""

    sign_ins_per_s: float = 0.0
    checkouts_per_s: float = 0.0
    lag_probes: int = 0

    @property
    def active(self) -> bool:
        """Whether anything runs beside the shoppers."""
        return bool(self.sign_ins_per_s or self.checkouts_per_s or self.lag_probes)


@dataclass(frozen=True, slots=True)
class BurstNames:
    """The event and state names of the burst, taken from the app's states."""

    open_sign_in: str
    submit_login: str
    place_order: str
    checkout_state: str

    @classmethod
    def of_app(cls) -> BurstNames:
        """Read the names from the app's states (imports Reflex and the shop's states)."""
        from shop_app.state.auth_dialog import AuthDialogState  # noqa: PLC0415 - only when it runs
        from shop_app.state.checkout import CheckoutState  # noqa: PLC0415

        return cls(
            open_sign_in=f"{AuthDialogState.get_full_name()}.open_sign_in",
            submit_login=f"{AuthDialogState.get_full_name()}.submit_login",
            place_order=f"{CheckoutState.get_full_name()}.place_order",
            checkout_state=CheckoutState.get_full_name(),
        )


@dataclass
class BurstResult:
    """What the burst did in the measured window (samples by action: sign-in, checkout, loop lag)."""

    samples: list[Sample] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    arrived: dict[str, int] = field(default_factory=dict)  # visits that arrived in the window

    def failed(self, why: str) -> None:
        """Count one failure."""
        self.errors[why] = self.errors.get(why, 0) + 1


@dataclass
class Burst:
    """The visitors of one level's burst against one shop."""

    protocol: Protocol
    names: BurstNames
    config: BurstConfig
    host: str
    port: int
    origin: str
    product_ids: list[int]
    accounts: list[str]
    seed: int = 0
    result: BurstResult = field(default_factory=BurstResult)
    _signing_in: list[Shopper] = field(default_factory=list)  # tabs open on /, one per sign-in

    async def prepare(self, seconds: float, concurrency: int) -> None:
        """Open the tabs of the sign-ins that will arrive in ``seconds`` (``concurrency`` at a time)."""
        gate = asyncio.Semaphore(concurrency)
        tabs = [self._tab(i) for i in range(math.ceil(self.config.sign_ins_per_s * seconds) + 1)]

        async def open_tab(tab: Shopper) -> None:
            async with gate:
                await tab.open("/")

        await asyncio.gather(*(open_tab(tab) for tab in tabs))
        self._signing_in = tabs

    async def close(self) -> None:
        """Close the sign-in tabs no sign-in used."""
        await asyncio.gather(*(tab.close() for tab in self._signing_in), return_exceptions=True)

    def _tab(self, index: int) -> Shopper:
        rng = random.Random(f"{self.seed}-burst-{index}")
        tab = Shopper(self.protocol, self.host, self.port, self.origin, self.product_ids, rng)
        tab.timeout_s = VISIT_TIMEOUT_S
        return tab

    async def run(self, record_from: float, stop_at: float) -> None:
        """Run every part of the burst until ``stop_at``; keep what was sent from ``record_from``."""
        c = self.config
        parts: list[Awaitable[None]] = []
        if c.sign_ins_per_s:
            parts.append(self._arrivals(SIGN_IN, c.sign_ins_per_s, self._sign_in, record_from, stop_at))
        if c.checkouts_per_s:
            parts.append(self._arrivals(CHECKOUT, c.checkouts_per_s, self._checkout, record_from, stop_at))
        parts += [self._probe(i, record_from, stop_at) for i in range(c.lag_probes)]
        await asyncio.gather(*parts)

    async def _arrivals(
        self,
        action: str,
        rate: float,
        visit: Callable[[int], Awaitable[Sample | None]],
        record_from: float,
        stop_at: float,
    ) -> None:
        """A visit every 1/``rate`` seconds until ``stop_at``; those arriving from ``record_from``
        count (finished or not)."""
        interval, arrival, visits = 1.0 / rate, time.perf_counter(), []
        number = 0
        while arrival < stop_at:
            await asyncio.sleep(max(0.0, arrival - time.perf_counter()))
            counted = arrival >= record_from
            if counted:
                self.result.arrived[action] = self.result.arrived.get(action, 0) + 1
            visits.append(asyncio.create_task(self._recorded(action, visit(number), counted=counted)))
            number += 1
            arrival += interval
        await asyncio.gather(*visits)

    async def _recorded(self, action: str, visit: Awaitable[Sample | None], *, counted: bool) -> None:
        try:
            sample = await visit
        except Exception as error:  # a refused connection, a closed socket: counted, not raised
            if counted:
                self.result.failed(f"{action}: {type(error).__name__}: {error}"[:160])
            return
        if counted and sample is not None:
            self.result.samples.append(sample)
            if not sample.ok:
                self.result.failed(f"{action} did not finish in {VISIT_TIMEOUT_S:g} s")

    async def _sign_in(self, number: int) -> Sample | None:
        if number >= len(self._signing_in):
            raise RuntimeError("no tab was opened for this sign-in")
        tab = self._signing_in[number]
        email = self.accounts[number % len(self.accounts)]
        refusal: list[str] = []

        def welcomed(message: Received) -> bool:
            note = delta_of(message).get(self.protocol.notification_state, {})
            if "seq_rx_state_" not in note:
                return False
            if note.get("kind_rx_state_") == "error":
                refusal.append(str(note.get("message_rx_state_")))
            return True

        # The header's Account button first: a closed dialog's submit does nothing.
        tab.send(self.names.open_sign_in, {}, "/")
        form = {"email": email, "password": PASSWORD}
        return await _closing(
            tab, refusal, tab.call(SIGN_IN, self.names.submit_login, {"form": form}, welcomed, "/")
        )

    async def _checkout(self, number: int) -> Sample | None:
        tab = self._tab(10_000 + number)
        refusal: list[str] = []

        def paid(message: Received) -> bool:
            if message.name != "event" or not message.args or not isinstance(message.args[0], dict):
                return False
            if "order-success" in json.dumps(message.args[0].get("events") or []):
                return True
            error = delta_of(message).get(self.names.checkout_state, {}).get("error_rx_state_")
            if error:
                refusal.append(str(error))
            return bool(error)

        async def journey() -> Sample:
            await tab.open("/shop")
            choices = self.product_ids or sorted(tab.seen_products)  # (--url: the cards it was shown)
            product_id = choices[number % len(choices)]
            added = await tab.call(
                "add to cart", self.protocol.add_to_cart, {"product_id": product_id}, tab.notified, "/shop"
            )
            if not added.ok or tab.errors:
                raise RuntimeError("; ".join(tab.errors) or "add to cart did not finish")
            if not (await tab.visit("/checkout")).ok:
                raise RuntimeError("the checkout page did not load")
            data = {**GUEST, "email": f"burst-buyer-{number}@example.com", "source_id": CARD}
            return await tab.call(CHECKOUT, self.names.place_order, {"data": data}, paid, "/checkout")

        return await _closing(tab, refusal, journey())

    async def _probe(self, index: int, record_from: float, stop_at: float) -> None:
        tab = self._tab(20_000 + index)
        await tab.open("/shop")
        try:
            while time.perf_counter() < stop_at:
                sample = await tab.act("transport ping")
                if record_from <= sample.sent < stop_at:
                    self.result.samples.append(Sample(LAG, sample.sent, sample.ms, sample.ok, 0))
                if not sample.ok:
                    self.result.failed("loop probe did not finish")
                    return
                await asyncio.sleep(LAG_INTERVAL_S)
        finally:
            await tab.close()


async def _closing(tab: Shopper, refusal: list[str], visit: Awaitable[Sample]) -> Sample:
    """The sample of ``visit``; the tab closes after it, and a refusal it saw raises."""
    try:
        sample = await visit
    finally:
        await tab.close()
    if refusal:
        raise RuntimeError(f"refused: {refusal[0]}")
    return sample


def account_emails(count: int) -> list[str]:
    """The e-mails of the burst's ``count`` accounts."""
    return [f"burst-{i}@example.com" for i in range(count)]


def make_accounts(database_url: str, emails: list[str]) -> None:
    """Customer accounts for ``emails`` with :data:`PASSWORD`, in the shop's database."""
    from shop_app.db import create_db_engine, write_transaction  # noqa: PLC0415 - only when it runs
    from shop_app.models import User  # noqa: PLC0415
    from shop_app.services.passwords import hash_password  # noqa: PLC0415

    password_hash = hash_password(PASSWORD)  # once: every account has the same password
    engine = create_db_engine(database_url)
    try:
        with write_transaction(engine) as session:
            for email in emails:
                session.add(
                    User(email=email, password_hash=password_hash, first_name="Ada", last_name="Burst")
                )
    finally:
        engine.dispose()
