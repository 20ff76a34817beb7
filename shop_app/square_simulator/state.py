"""State of the Square simulator: the ledger of payments, refunds, catalogue and stock, in memory.

A new ledger is empty; the shop fills the catalogue and stock of its own simulator at start-up
through the API (``services.square.catalog_push``, docs/architecture.md#square-catalogue-push).

One ``SimulatorLedger`` belongs to one simulator app (``create_simulator(ledger)``). Every
handler changes it under ``ledger.lock`` (a re-entrant lock), so the simulator may be served by a
real HTTP server thread and called in-process from another thread at the same time. The public
methods return deep copies: a test can read them while requests are running.

Fault injection (for the order flow's tests): ``ledger.fail_next("/v2/payments", kind=...)``
makes the next matching request misbehave. The kinds:

- ``http_500``: answer 500 without doing anything (the SDK itself would retry a 5xx).
- ``http_500_after_charge``: do the work (charge, refund …), then answer 500.
- ``drop_connection``: close the connection without an answer and without doing anything.
- ``drop_after_charge``: do the work, then close the connection without an answer.
- ``timeout``: wait ``delay_s``, then close the connection; nothing is done.
- ``timeout_after_charge``: do the work, then wait ``delay_s`` before answering normally, so a
  client with a shorter timeout gives up although the charge exists.
- ``decline_new_code``: CreatePayment declines the card as Square does (400 with
  ``errors[{category: PAYMENT_METHOD_ERROR, code, detail}]`` and the FAILED payment), whatever
  the token, with ``NEW_DECLINE_CODE``: a code that is not in Square's ``ErrorCode`` enum (API
  version 2025-08-20), standing for a decline reason Square adds after this release.
"""

from __future__ import annotations

import copy
import secrets
import string
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Literal, TypeGuard, get_args

FaultKind = Literal[
    "http_500",
    "http_500_after_charge",
    "drop_connection",
    "drop_after_charge",
    "timeout",
    "timeout_after_charge",
    "decline_new_code",
]
FAULT_KINDS: frozenset[str] = frozenset(get_args(FaultKind))


def is_fault_kind(value: object) -> TypeGuard[FaultKind]:
    """Whether ``value`` is the name of a fault kind."""
    return isinstance(value, str) and value in FAULT_KINDS


# Kinds that let the request be processed before misbehaving.
AFTER_PROCESSING: frozenset[str] = frozenset(
    {"http_500_after_charge", "drop_after_charge", "timeout_after_charge"}
)
# Kinds that change how the request is processed (the handler reads ``SimRequest.fault``).
WHILE_PROCESSING: frozenset[str] = frozenset({"decline_new_code"})
PAYMENTS_PATH = "/v2/payments"  # CreatePayment: the only request a WHILE_PROCESSING fault may match

DEFAULT_LOCATION_ID = "LSIMULATOR0CA"
DEFAULT_CURRENCY = "CAD"

_BASE62 = string.ascii_letters + string.digits
_UPPER = string.ascii_uppercase + string.digits

Json = dict[str, Any]


def new_id(length: int = 29, alphabet: str = _BASE62) -> str:
    """A random id in the style of Square's (payment ids are 29 base-62 characters)."""
    return "".join(secrets.choice(alphabet) for _ in range(length))


def new_upper_id(length: int = 24) -> str:
    """A random upper-case id (catalogue objects, inventory changes)."""
    return new_id(length, _UPPER)


def rfc3339(moment: datetime) -> str:
    """``2026-11-21T03:20:00.123Z``: UTC with milliseconds, as Square writes timestamps."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@dataclass
class Fault:
    """A misbehaviour waiting for the next ``remaining`` matching requests."""

    path: str
    kind: FaultKind
    remaining: int
    delay_s: float
    method: str | None = None


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """An answer kept for idempotent replay."""

    status: int
    body: Json


@dataclass(frozen=True, slots=True)
class IdempotencyEntry:
    """The first request seen with a key (canonical JSON) and its answer."""

    canonical_request: str
    response: StoredResponse


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One request that reached the simulator (after authentication)."""

    method: str
    path: str
    idempotency_key: str | None


@dataclass(frozen=True, slots=True)
class StoredImage:
    """The bytes of an uploaded catalogue image."""

    content_type: str
    data: bytes


@dataclass
class CountEntry:
    """Stock of one catalogue object at one location in one state."""

    quantity: Decimal
    calculated_at: str


@dataclass
class SimState:
    """Everything the simulator knows. Change only under ``SimulatorLedger.lock``."""

    payments: dict[str, Json] = field(default_factory=dict)
    refunds: dict[str, Json] = field(default_factory=dict)
    catalog: dict[str, Json] = field(default_factory=dict)
    images: dict[str, StoredImage] = field(default_factory=dict)
    counts: dict[tuple[str, str, str], CountEntry] = field(default_factory=dict)
    changes: list[Json] = field(default_factory=list)
    idempotency: dict[tuple[str, str], IdempotencyEntry] = field(default_factory=dict)
    used_sources: set[str] = field(default_factory=set)
    last_catalog_version: int = 0


class SimulatorLedger:
    """The simulator's memory, its fault switchboard and the read-only views tests use."""

    def __init__(
        self,
        *,
        location_id: str = DEFAULT_LOCATION_ID,
        currency: str = DEFAULT_CURRENCY,
        fault_delay_s: float = 2.0,
        single_use_nonces: bool = True,
        reusable_test_values: bool = False,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.location_id = location_id
        self.currency = currency
        self.fault_delay_s = fault_delay_s
        # A card nonce pays once (CARD_TOKEN_USED after). ``reusable_test_values`` exempts the bare
        # sandbox values (``cnon:card-nonce-ok`` …, as Square's sandbox does) but not suffixed ones.
        self.single_use_nonces = single_use_nonces
        self.reusable_test_values = reusable_test_values
        self._clock = clock or (lambda: datetime.now(UTC))
        self.lock = threading.RLock()
        self.state = SimState()
        self._faults: list[Fault] = []
        self._requests: list[RequestRecord] = []

    # -- time and versions -------------------------------------------------------------------

    def now(self) -> datetime:
        """The simulator's current time (UTC)."""
        return self._clock()

    def timestamp(self) -> str:
        """The current time as Square writes it."""
        return rfc3339(self.now())

    def next_catalog_version(self) -> int:
        """A catalogue version: epoch milliseconds, strictly increasing."""
        with self.lock:
            millis = int(self.now().timestamp() * 1000)
            self.state.last_catalog_version = max(millis, self.state.last_catalog_version + 1)
            return self.state.last_catalog_version

    # -- fault injection ---------------------------------------------------------------------

    def fail_next(
        self,
        path: str,
        kind: FaultKind = "http_500",
        *,
        times: int = 1,
        delay_s: float | None = None,
        method: str | None = None,
    ) -> None:
        """Make the next ``times`` requests to ``path`` misbehave (see the module docstring).

        ``path`` is relative to the simulator's root, e.g. ``/v2/payments``; a route template such
        as ``/v2/payments/{payment_id}`` matches every payment. ``delay_s`` defaults to the
        ledger's ``fault_delay_s``.
        """
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; expected one of {sorted(FAULT_KINDS)}")
        if times < 1:
            raise ValueError("times must be at least 1")
        if kind in WHILE_PROCESSING:  # CreatePayment only (not ListPayments, on the same path)
            method = method or "POST"
            if (path, method.upper()) != (PAYMENTS_PATH, "POST"):
                raise ValueError(f"fault kind {kind!r} is for POST {PAYMENTS_PATH} only")
        delay = self.fault_delay_s if delay_s is None else delay_s
        with self.lock:
            self._faults.append(Fault(path, kind, times, delay, method.upper() if method else None))

    def clear_faults(self) -> None:
        """Forget every pending fault."""
        with self.lock:
            self._faults.clear()

    def take_fault(self, method: str, path: str, template: str | None) -> Fault | None:
        """The fault for this request, if one is pending (consumes one use of it)."""
        with self.lock:
            for fault in self._faults:
                if fault.method not in (None, method) or fault.path not in (path, template):
                    continue
                fault.remaining -= 1
                if fault.remaining <= 0:
                    self._faults.remove(fault)
                return copy.copy(fault)
        return None

    # -- request log -------------------------------------------------------------------------

    def record_request(self, method: str, path: str, idempotency_key: str | None) -> None:
        """Remember that a request arrived (for tests asserting on retries)."""
        with self.lock:
            self._requests.append(RequestRecord(method, path, idempotency_key))

    def requests(self) -> list[RequestRecord]:
        """Every authenticated request, oldest first."""
        with self.lock:
            return list(self._requests)

    # -- read-only views ---------------------------------------------------------------------

    def payments(self) -> list[Json]:
        """Every payment (COMPLETED, APPROVED, FAILED, CANCELED), oldest first."""
        with self.lock:
            return copy.deepcopy(list(self.state.payments.values()))

    def payment(self, payment_id: str) -> Json | None:
        """One payment by id."""
        with self.lock:
            found = self.state.payments.get(payment_id)
            return copy.deepcopy(found) if found else None

    def refunds(self) -> list[Json]:
        """Every refund, oldest first."""
        with self.lock:
            return copy.deepcopy(list(self.state.refunds.values()))

    def catalog_objects(self, *, include_deleted: bool = False) -> list[Json]:
        """Stored catalogue objects (items without their embedded variations), oldest first."""
        with self.lock:
            objects = [o for o in self.state.catalog.values() if include_deleted or not o.get("is_deleted")]
            return copy.deepcopy(objects)

    def image_file(self, image_id: str) -> StoredImage | None:
        """The uploaded bytes of a catalogue image."""
        with self.lock:
            return self.state.images.get(image_id)

    def inventory_counts(self) -> list[Json]:
        """Current stock counts, as InventoryCount objects."""
        with self.lock:
            return [count_json(key, entry) for key, entry in self.state.counts.items()]

    def inventory_changes(self) -> list[Json]:
        """Every inventory change applied, oldest first."""
        with self.lock:
            return copy.deepcopy(self.state.changes)

    def reset(self) -> None:
        """Forget everything: state, faults and the request log."""
        with self.lock:
            self.state = SimState()
            self._faults.clear()
            self._requests.clear()


def format_quantity(quantity: Decimal) -> str:
    """A decimal quantity as Square writes it: ``"10"``, ``"2.5"``, never an exponent."""
    text = format(quantity.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def count_json(key: tuple[str, str, str], entry: CountEntry) -> Json:
    """One InventoryCount object."""
    catalog_object_id, location_id, state = key
    return {
        "catalog_object_id": catalog_object_id,
        "catalog_object_type": "ITEM_VARIATION",
        "state": state,
        "location_id": location_id,
        "quantity": format_quantity(entry.quantity),
        "calculated_at": entry.calculated_at,
        "is_estimated": False,
    }
