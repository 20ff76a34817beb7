"""Unit and property tests of the pure domain rules (shop_app.domain)."""
