"""A valid checkout form for tests."""

from __future__ import annotations

from shop_app.services.checkout import CheckoutForm

FORM = CheckoutForm(
    first_name="Ada",
    last_name="Lovelace",
    email="ada@example.com",
    phone="",
    address="12 Cedar Lane",
    address_line2="",
    city="Victoria",
    state="BC",
    zip_code="V8V 1A1",
    country="Canada",
    special_instructions="",
)
