"""The shop's settings: the public origin follows the port unless it is set."""

from __future__ import annotations

import pytest

from shop_app.settings import Settings


@pytest.fixture(autouse=True)
def _no_site_or_port_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.delenv("PORT", raising=False)


def test_the_default_site_is_on_port_3000() -> None:
    assert Settings().site_url == "http://localhost:3000"


def test_a_port_alone_moves_the_site_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """PORT=3310 ./scripts/run: the pages must open their websocket on 3310 (they were built for
    3000 and never loaded)."""
    monkeypatch.setenv("PORT", "3310")
    assert Settings().site_url == "http://localhost:3310"


def test_a_site_that_is_set_wins_over_the_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "8000")
    monkeypatch.setenv("SITE_URL", "https://shop.example.com/")
    assert Settings().site_url == "https://shop.example.com"
    assert Settings(port=8000, site_url="http://localhost:3000").site_url == "http://localhost:3000"
