"""The command line: ``python -m shop_app``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from shop_app import cli
from shop_app.cli import main
from shop_app.db import get_engine, reset_engine
from shop_app.models import Order, Product, User
from shop_app.models.base import utcnow
from shop_app.services import cart, checkout
from shop_app.services.accounts import is_admin
from shop_app.services.cart import CartOwner
from shop_app.services.square.catalog_sync import SquareCatalog
from shop_app.services.square.client import square_client_for_app
from shop_app.services.square.gateway import SquareGateway
from shop_app.settings import Settings, SquareEnvironment, get_settings
from shop_app.square_simulator.app import create_simulator
from shop_app.square_simulator.state import SimulatorLedger
from tests.support.checkout import FORM

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def shop_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the CLI at a fresh SQLite database and media folder."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("MEDIA_DIR", str(tmp_path / "media"))
    monkeypatch.delenv("ADMIN_PASSWORD", raising=False)
    get_settings.cache_clear()
    reset_engine()
    yield tmp_path
    reset_engine()
    get_settings.cache_clear()


def _products() -> int:
    with Session(get_engine()) as session:
        return session.execute(select(sa.func.count()).select_from(Product)).scalar_one()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the following arguments are required: COMMAND"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["seed"], "one of the arguments --demo --products --custom-candles is required"),
        (["seed", "--products", "many"], "expected a whole number of products, got 'many'"),
        (["seed", "--products", "0"], "must be between 1 and 1,000,000, got 0"),
        (["seed", "--demo", "--products", "5"], "not allowed with argument"),
        (["create-admin"], "the following arguments are required: email"),
    ],
)
def test_bad_arguments_get_a_clear_message_and_exit_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)

    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_migrate_then_seed_synthetic_products(shop_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate"]) == 0
    assert main(["seed", "--products", "25"]) == 0

    assert _products() == 25
    assert "Added 25 synthetic products." in capsys.readouterr().out


def test_prepare_loads_the_demo_catalogue_once(shop_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prepare"]) == 0
    first = _products()
    assert main(["prepare"]) == 0
    assert main(["seed", "--demo"]) == 0

    assert first >= 40
    assert _products() == first
    assert "already has products" in capsys.readouterr().out


def test_create_admin_takes_the_password_from_the_environment(
    shop_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADMIN_PASSWORD", "a-very-long-password")
    get_settings.cache_clear()
    main(["migrate"])

    assert main(["create-admin", "Owner@Example.com", "--first-name", "Mia"]) == 0

    with Session(get_engine()) as session:
        user = session.exec(select(User).where(User.email == "owner@example.com")).one()
        assert user.first_name == "Mia"
        assert is_admin(session, user.id)


def test_create_admin_refuses_a_short_password(
    shop_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ADMIN_PASSWORD", "too-short")
    get_settings.cache_clear()
    main(["migrate"])

    assert main(["create-admin", "owner@example.com"]) == 1
    assert "error: Password must be at least 12 characters long" in capsys.readouterr().err


def test_create_admin_without_a_terminal_or_password_says_how(shop_env: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": get_settings().database_url, "HOME": str(shop_env)}

    result = subprocess.run(
        [sys.executable, "-m", "shop_app", "create-admin", "owner@example.com"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )

    assert result.returncode == 1
    assert "set ADMIN_PASSWORD or run the command in a terminal" in result.stderr


def test_release_unpaid_gives_back_the_stock_of_orders_abandoned_before_payment(
    shop_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    main(["migrate"])
    with Session(get_engine()) as session:
        product = Product(name="Room Spray - Rose", base_price_cents=1600, stock_quantity=3)
        session.add(product)
        session.commit()
        product_id = product.id
        for token in ("old", "new"):
            cart.add_item(session, CartOwner(token=token), product_id=product_id, quantity=1)
        session.commit()
    old = checkout.place_order(owner=CartOwner(token="old"), user_id=None, form=FORM)
    checkout.place_order(owner=CartOwner(token="new"), user_id=None, form=FORM)
    with Session(get_engine()) as session:
        session.get(Order, old.order_id).created_at = utcnow() - timedelta(hours=1)
        session.commit()

    # The running shop's simulator (here one in this process) has no payment for either order.
    simulator = square_client_for_app(create_simulator())
    monkeypatch.setattr(
        cli, "running_shop_gateway", lambda _settings: SquareGateway(simulator, location_id="L1", backoff_s=0)
    )

    assert main(["release-unpaid", "--older-than", "30"]) == 0

    with Session(get_engine()) as session:
        assert session.get(Product, product_id).stock_quantity == 2  # the old order's unit is back
        statuses = sorted(o.status for o in session.exec(select(Order)))
    assert statuses == ["awaiting_payment", "cancelled"]
    assert "Orders awaiting payment for 30+ minutes: 1" in capsys.readouterr().out


def test_release_unpaid_asks_the_running_shops_simulator_in_local_mode() -> None:
    local = Settings(square_environment=SquareEnvironment.LOCAL, site_url="https://candles.example")
    shared = local.model_copy(update={"square_simulator_url": "http://127.0.0.1:4999"})

    assert cli.running_shop_gateway(local)._client._client_wrapper.get_base_url() == (
        "https://candles.example/_square"
    )
    assert cli.running_shop_gateway(shared)._client._client_wrapper.get_base_url() == "http://127.0.0.1:4999"


def test_release_unpaid_refuses_a_bad_age(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["release-unpaid", "--older-than", "soon"])

    assert exit_info.value.code == 2
    assert "expected a whole number of minutes, got 'soon'" in capsys.readouterr().err


@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:square")
def test_push_catalogue_puts_the_products_square_lacks_into_square(
    shop_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    main(["migrate"])
    with Session(get_engine()) as session:
        session.add(Product(name="Room Spray - Rose", base_price_cents=1600, stock_quantity=3))
        session.commit()
    ledger = SimulatorLedger()
    square = SquareCatalog(square_client_for_app(create_simulator(ledger)), location_id="L1")
    monkeypatch.setattr(cli, "running_shop_catalog", lambda _settings: square)

    assert main(["push-catalogue"]) == 0
    assert main(["push-catalogue"]) == 0

    first, again = capsys.readouterr().out.splitlines()[-2:]
    assert first == "Products pushed to Square: 1 (stock counted: 1); already there: 0."
    assert again == "Products pushed to Square: 0 (stock counted: 0); already there: 1."
    with Session(get_engine()) as session:
        (product,) = session.exec(select(Product)).all()
    assert product.square_item_id in {o["id"] for o in ledger.catalog_objects()}


def test_push_catalogue_says_what_square_needs(
    shop_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SQUARE_ENVIRONMENT", "production")
    monkeypatch.setenv("SQUARE_ACCESS_TOKEN", "")
    monkeypatch.setenv("SQUARE_LOCATION_ID", "L1")
    get_settings.cache_clear()

    assert main(["push-catalogue"]) == 1
    assert "SQUARE_ACCESS_TOKEN is empty" in capsys.readouterr().err


def test_push_catalogue_reaches_the_running_shops_simulator_in_local_mode() -> None:
    local = Settings(square_environment=SquareEnvironment.LOCAL, site_url="https://candles.example")

    catalog = cli.running_shop_catalog(local)

    assert catalog._client._client_wrapper.get_base_url() == "https://candles.example/_square"
