"""Square for the shop: the SDK client, the payment gateway, catalogue sync, refunds, webhooks.

- ``client``: ``square_client(settings)`` (the real SDK for the configured mode),
  ``square_client_for_app(app)`` / ``async_square_client_for_app(app)`` (in-process simulator).
- ``gateway``: ``SquareGateway`` (the ``PaymentGateway`` of ``services.payments``) and
  ``square_gateway(settings)``.
- ``catalog_sync``: ``SquareCatalog``, the catalogue and stock writes and reads;
  ``catalog_push``: many products into Square at once, and the local Square filled at start-up.

The local simulator these talk to with ``SQUARE_ENVIRONMENT=local`` is its own package,
``shop_app.square_simulator``.

Import from the submodules (this package keeps its ``__init__`` free of imports).
"""
