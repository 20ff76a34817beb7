"""Checkout and orders: placing an order, paying it, the receipt (docs/architecture.md#orders-and-payment).

``shop_app.services.checkout`` is the public entry point and re-exports everything here.

- :mod:`.forms`: the checkout form, its validation, the priced summary (``quote``).
- :mod:`.place`: ``place_order``, one write transaction (stock, order, items, address, key).
- :mod:`.reprice`: the cart re-priced for ``place_order`` in one narrow ``SELECT``.
- :mod:`.pay`: ``pay``, ``reconcile``, ``pay_simulated_paypal``, ``cancel_unpaid``.
- :mod:`.settle`: the conditional updates that record a payment's outcome exactly once.
- :mod:`.receipt`: the success page's receipt and the order mails.
"""
