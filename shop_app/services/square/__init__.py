"""Square for the shop: the SDK client, the payment gateway, and the local API simulator.

- ``client``: ``square_client(settings)`` (the real SDK for the configured mode),
  ``square_client_for_app(app)`` / ``async_square_client_for_app(app)`` (in-process simulator).
- ``gateway``: ``SquareGateway`` (the ``PaymentGateway`` of ``services.payments``) and
  ``square_gateway(settings)``.
- ``simulator``: ``create_simulator(ledger)``, ``shared_simulator()``; ``sim_state``:
  ``SimulatorLedger`` (in-memory ledger and fault injection); ``sim_*``: the API handlers.

Import from the submodules (this package keeps its ``__init__`` free of imports so the simulator's
handler modules can be imported on their own).
"""
