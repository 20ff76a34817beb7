"""The local Square simulator: a stand-in for Square's HTTP API, for development and tests.

What it is: a Starlette app (``app.create_simulator(ledger)``) that answers the subset of Square's
``/v2`` API the shop uses (payments, refunds, catalogue, catalogue images, inventory, locations)
with Square's own wire format, so the real ``squareup`` SDK talks to it unchanged. The tests check
every request and answer against Square's OpenAPI subset (``tests/support/square_openapi/``). It runs with
``SQUARE_ENVIRONMENT=local`` (the default): mounted at ``/_square`` on the shop's origin
(``shop_app.api.square_sim``), called in-process by the shop's Square client
(``shop_app.services.square.client``, through ``transport``), or as a process of its own
(``python -m shop_app square-simulator``) shared by several workers.

What it is not: a model of Square's business rules beyond what the shop relies on, a payment
processor (test nonces such as ``cnon:card-nonce-ok`` decide the outcome, ``nonces``), or
durable (the ledger, ``state.SimulatorLedger``, lives in memory). Nothing here is used in
``sandbox`` or ``production``; the shop's code reaches it only through
``shop_app.services.square.client`` (and the mount and ``serve`` that start it).

Its catalogue at start: the ledger starts empty with every start of the shop (or of the shared
simulator process), and the shop fills it: in local mode its start-up task
(``services.square.catalog_push.push_at_start``) puts every product into it through the ordinary
API (BatchUpsertCatalogObjects, BatchChangeInventory), as it would into Square, and stores the new
ids. So the simulator needs, and has, no way to load objects under ids it did not make, and never
reads the shop's database (docs/architecture.md#square-catalogue-push).

Built on the SDK's own types where they fit: the answers the shop reads are built as the
``squareup`` SDK's pydantic models (``square.types``) and written out with ``http.sdk_json``: a new
``Payment`` (with ``Money``, ``CardPaymentDetails``, ``Card`` …), a ``PaymentRefund``, every
``Error`` of ``errors[]`` and every Money value a request carries. Not used, and why:

- request parsing stays hand-written (``http``): Square answers a bad field with a specific
  ``errors[]`` entry (code and ``field`` path, e.g. ``amount_money.amount``), which the SDK's
  models cannot say (they accept unknown fields, and are built for answers, not requests);
- the ledger keeps Square's JSON, not models: the SDK's models are frozen, and Complete, Cancel,
  refunds and inventory changes update the stored objects in place;
- catalogue objects and inventory counts stay JSON: they are stored and echoed as the client sent
  them (with ids and versions filled in), their many optional variants would gain nothing from a
  round trip through the models, and the OpenAPI checks of the tests cover their shape.

Modules:

- ``app``: ``create_simulator(ledger)``, ``shared_simulator()`` (the process-wide instance);
- ``http``: request parsing, validation and Square's error answers; ``state``: the ledger and
  fault injection; ``nonces``: the test card nonces;
- ``payments``, ``refunds``, ``catalog``, ``catalog_read``, ``images``, ``inventory``: the API
  handlers;
- ``transport``: httpx transports that carry SDK calls to the app in the same process;
- ``local_token``: the secret the shop and its simulator share.
"""
