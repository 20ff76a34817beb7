"""Command line of the shop: ``python -m shop_app <command>``.

migrate                 apply the database migrations (upgrade to head)
seed --demo             load the demo catalogue into an empty shop
seed --products N       add N synthetic products (benchmarks)
seed --custom-candles   add the custom candle builder's vessels a shop lacks
create-admin EMAIL      create or promote an administrator
prepare                 migrate, then load the demo catalogue when the shop is empty (and the
                        custom candle vessels a shop lacks)
release-unpaid          settle or cancel orders still awaiting payment (cron)
deliver-mail            send the mail waiting in the outbox (cron; the server also does it)
push-catalogue          put the products Square lacks into Square, with their stock (sandbox,
                        production; local mode does it at every start)
serve                   run the production server (./scripts/run and ./scripts/serve)
square-simulator        serve the local Square simulator over HTTP (several workers share it)
backup [DIR]            back up the database and the images into a new folder under DIR
restore FOLDER          replace the database and the images with a backup (stop the shop first)
"""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from sqlmodel import select

from shop_app import backup, logs, migrate, server
from shop_app.db import session_scope
from shop_app.domain.orders import OrderStatus
from shop_app.models import Order
from shop_app.models.base import utcnow
from shop_app.services import checkout, mail, seeding
from shop_app.services.accounts import AccountError, create_admin
from shop_app.services.square.catalog_push import push_catalog
from shop_app.services.square.catalog_sync import SquareCatalog, square_catalog
from shop_app.services.square.client import SquareConfigError, local_base_url
from shop_app.services.square.gateway import SquareGateway, square_gateway
from shop_app.settings import PROJECT_ROOT, MailBackend, Settings, SquareEnvironment, get_settings

MAX_SYNTHETIC_PRODUCTS = 1_000_000
DEFAULT_BACKUP_DIR = PROJECT_ROOT / "var" / "backups"
DEFAULT_UNPAID_MINUTES = 30


class CliError(Exception):
    """A command could not run; the message is printed and the exit status is 1."""


def _positive_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        msg = f"expected a whole number of products, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if not 1 <= value <= MAX_SYNTHETIC_PRODUCTS:
        msg = f"the number of products must be between 1 and {MAX_SYNTHETIC_PRODUCTS:,}, got {value}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _minutes(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        msg = f"expected a whole number of minutes, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if value < 1:
        msg = f"the age must be at least 1 minute, got {value}"
        raise argparse.ArgumentTypeError(msg)
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(prog="python -m shop_app", description="Run the shop's chores.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("migrate", help="apply the database migrations")
    seed = commands.add_parser("seed", help="load catalogue data")
    what = seed.add_mutually_exclusive_group(required=True)
    what.add_argument("--demo", action="store_true", help="the demo catalogue (only into an empty shop)")
    what.add_argument("--products", type=_positive_count, metavar="N", help="N synthetic products")
    what.add_argument(
        "--custom-candles", action="store_true", help="the custom candle builder's vessels (the missing ones)"
    )
    seed.add_argument("--seed", type=int, default=0, help="random seed of the synthetic catalogue")
    admin = commands.add_parser("create-admin", help="create or promote an administrator")
    admin.add_argument("email", help="e-mail address of the administrator")
    admin.add_argument("--first-name", default="Shop")
    admin.add_argument("--last-name", default="Admin")
    commands.add_parser("prepare", help="migrate, then load the demo catalogue when the shop is empty")
    release = commands.add_parser(
        "release-unpaid", help="settle or cancel orders still awaiting payment (gives their stock back)"
    )
    release.add_argument(
        "--older-than",
        type=_minutes,
        default=DEFAULT_UNPAID_MINUTES,
        metavar="MINUTES",
        help=f"only orders placed at least this long ago (default {DEFAULT_UNPAID_MINUTES})",
    )
    commands.add_parser(
        "deliver-mail", help="send the mail waiting in the outbox (MAIL_BACKEND=smtp), with retries"
    )
    commands.add_parser(
        "push-catalogue", help="put the products Square lacks into Square's catalogue, with their stock"
    )
    commands.add_parser("serve", help="run the production server (configured by environment variables)")
    save = commands.add_parser("backup", help="back up the database and the images into a new folder")
    save.add_argument("into", type=Path, nargs="?", default=DEFAULT_BACKUP_DIR, help="default: var/backups")
    load = commands.add_parser("restore", help="replace the database and the images with a backup")
    load.add_argument("folder", type=Path, help="a folder written by backup")
    simulator = commands.add_parser("square-simulator", help="serve the local Square simulator over HTTP")
    simulator.add_argument("--host", default="127.0.0.1")
    simulator.add_argument("--port", type=int, default=3999)
    simulator.add_argument("--fd", type=int, default=None, help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return the process exit status."""
    settings = get_settings()
    logs.configure(level=settings.log_level, log_format=settings.log_format)
    args = build_parser().parse_args(argv)
    try:
        return _COMMANDS[args.command](args)
    except CliError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


def _migrate(_args: argparse.Namespace) -> int:
    settings = get_settings()  # alembic logs each migration it applies
    logs.configure(level=settings.log_level, log_format=settings.log_format, names=("alembic",))
    migrate.upgrade()
    print("Database is up to date.")
    return 0


def _seed(args: argparse.Namespace) -> int:
    settings = get_settings()
    with session_scope() as session:
        if args.demo:
            report = seeding.load_demo(session, media_dir=settings.media_dir)
            if report.skipped:
                print("The shop already has products; the demo catalogue was not loaded.")
                return 0
            print(f"Loaded the demo catalogue: {report.products} products, {report.categories} categories.")
            return 0
        if args.custom_candles:
            created = seeding.load_custom_vessels(session, media_dir=settings.media_dir)
            print(f"Added {created} custom candle vessels.")
            return 0
        report = seeding.load_synthetic(
            session, count=args.products, media_dir=settings.media_dir, seed=args.seed
        )
    print(f"Added {report.products} synthetic products.")
    return 0


def _read_admin_password() -> str:
    password = get_settings().admin_password
    if password:
        return password
    if not sys.stdin.isatty():
        msg = "set ADMIN_PASSWORD or run the command in a terminal to type the password"
        raise CliError(msg)
    password = getpass.getpass("Password (at least 12 characters): ")
    if password != getpass.getpass("Repeat the password: "):
        msg = "Passwords do not match"
        raise CliError(msg)
    return password


def _create_admin(args: argparse.Namespace) -> int:
    password = _read_admin_password()
    try:
        with session_scope() as session:
            user = create_admin(
                session,
                email=args.email,
                password=password,
                first_name=args.first_name,
                last_name=args.last_name,
            )
            email = user.email
    except AccountError as error:
        raise CliError(str(error)) from error
    print(f"{email} is an administrator.")
    return 0


def _prepare(args: argparse.Namespace) -> int:
    _migrate(args)
    settings = get_settings()
    with session_scope() as session:
        report = seeding.load_demo(session, media_dir=settings.media_dir)
        vessels = seeding.load_custom_vessels(session, media_dir=settings.media_dir) if report.skipped else 0
    if not report.skipped:
        print(f"Loaded the demo catalogue: {report.products} products, {report.categories} categories.")
    if vessels:
        print(f"Added {vessels} custom candle vessels.")
    return 0


def _running_shop_settings(settings: Settings) -> Settings:
    """Local mode: the running shop's simulator, over HTTP (see ``running_shop_gateway``)."""
    if settings.square_environment == SquareEnvironment.LOCAL and not settings.square_simulator_url:
        return settings.model_copy(update={"square_simulator_url": local_base_url(settings)})
    return settings


def running_shop_catalog(settings: Settings) -> SquareCatalog:
    """The Square catalogue the running shop uses, as seen from this separate process."""
    return square_catalog(_running_shop_settings(settings))


def running_shop_gateway(settings: Settings) -> SquareGateway:
    """The payment gateway the running shop uses, as seen from this separate process.

    In local mode that is the running shop's simulator, over HTTP (``SQUARE_SIMULATOR_URL``, else
    ``{SITE_URL}/_square``): a simulator inside this process would have an empty ledger, and an
    order whose payment went through in the shop would be cancelled. When the shop is not running
    the lookup fails and the orders keep waiting.
    """
    return square_gateway(_running_shop_settings(settings))


def _release_unpaid(args: argparse.Namespace) -> int:
    settings = get_settings()
    cutoff = utcnow() - timedelta(minutes=args.older_than)
    with session_scope() as session:
        order_ids = session.exec(
            select(Order.id).where(Order.status == OrderStatus.AWAITING_PAYMENT, Order.created_at <= cutoff)
        ).all()
    gateway = running_shop_gateway(settings)
    outcomes: dict[str, int] = {}
    for order_id in order_ids:
        result = checkout.cancel_unpaid(order_id=order_id, gateway=gateway)
        outcomes[str(result.status)] = outcomes.get(str(result.status), 0) + 1
    summary = ", ".join(f"{count} {status}" for status, count in sorted(outcomes.items())) or "nothing to do"
    print(f"Orders awaiting payment for {args.older_than}+ minutes: {len(order_ids)} ({summary}).")
    return 0


def _deliver_mail(_args: argparse.Namespace) -> int:
    """Send every message that is due, batch after batch; what fails waits for its next try."""
    if get_settings().mail_backend != MailBackend.SMTP:
        print("MAIL_BACKEND is not smtp: mail stays in the outbox, nothing to deliver.")
        return 0
    sent = retrying = failed = 0
    while True:
        report = mail.deliver_pending()
        sent, retrying, failed = sent + report.sent, retrying + report.retrying, failed + report.failed
        if report.tried < mail.BATCH:
            break
    print(f"Mail sent: {sent}; to retry later: {retrying}; given up: {failed}.")
    return 0


def _push_catalogue(_args: argparse.Namespace) -> int:
    try:
        catalog = running_shop_catalog(get_settings())
    except SquareConfigError as error:
        raise CliError(str(error)) from error
    report = push_catalog(catalog)
    print(
        f"Products pushed to Square: {report.pushed} (stock counted: {report.counted}); "
        f"already there: {report.present}."
    )
    if not report.complete:
        reasons = "; ".join(report.errors) or "no reason given"
        missing = report.pushed - report.counted
        raise CliError(f"{report.failed} products were not pushed, {missing} not counted: {reasons}")
    return 0


def _backup(args: argparse.Namespace) -> int:
    folder = backup.backup(get_settings(), args.into)
    print(f"Backed up the database and the images into {folder}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    try:
        replaced = backup.restore(get_settings(), args.folder)
    except backup.BackupError as error:
        raise CliError(str(error)) from error
    print(f"Restored {args.folder}; what it replaced is backed up in {replaced}")
    return 0


def _serve(_args: argparse.Namespace) -> int:
    try:
        server.serve(get_settings())
    except server.StartupError as error:
        raise CliError(str(error)) from error
    return 0


def _square_simulator(args: argparse.Namespace) -> int:
    server.serve_square_simulator(host=args.host, port=args.port, fd=args.fd)
    return 0


_COMMANDS = {
    "migrate": _migrate,
    "seed": _seed,
    "create-admin": _create_admin,
    "prepare": _prepare,
    "release-unpaid": _release_unpaid,
    "deliver-mail": _deliver_mail,
    "push-catalogue": _push_catalogue,
    "serve": _serve,
    "backup": _backup,
    "restore": _restore,
    "square-simulator": _square_simulator,
}
