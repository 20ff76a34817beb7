"""Typed settings of the shop, read once from the environment and an optional ``.env`` file.

Every variable is listed with its default in the README's settings table. Defaults give the
embedded set-up: SQLite under ``var/``, the local Square simulator, mail written to the outbox.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class SquareEnvironment(StrEnum):
    """Where card payments go (docs/architecture.md#orders-and-payment)."""

    LOCAL = "local"  # the wire-compatible simulator inside our backend, offline
    SANDBOX = "sandbox"
    PRODUCTION = "production"


class MailBackend(StrEnum):
    """How outgoing mail leaves the shop."""

    OUTBOX = "outbox"  # stored in the outgoing_mail table and logged (development default)
    SMTP = "smtp"


class Settings(BaseSettings):
    """All configuration of the shop. Field names map to upper-case environment variables."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    database_url: str = Field(
        default=f"sqlite:///{PROJECT_ROOT / 'var' / 'shop.db'}",
        description="SQLAlchemy URL of the database (SQLite file or postgresql+psycopg://…).",
    )
    site_url: str = Field(
        default="http://localhost:3000",
        description="Public origin of the shop, used in links, e-mails and the sitemap. Unset: "
        "http://localhost:<PORT> (the pages' websocket must reach the port the shop listens on).",
    )
    media_dir: Path = Field(
        default=PROJECT_ROOT / "var" / "media",
        description="Folder of product and site images, served under /media/.",
    )
    demo_artwork_cache: Path | None = Field(
        default=None,
        description="Folder keeping the demo catalogue's drawn and encoded images for the next empty "
        "shop on this machine (scripts/test sets it). Unset: every shop draws its own.",
    )
    square_environment: SquareEnvironment = Field(
        default=SquareEnvironment.LOCAL,
        description="local (offline simulator), sandbox or production.",
    )
    square_access_token: str = Field(default="", description="Square access token (sandbox/production).")
    square_application_id: str = Field(default="", description="Square application id for the card form.")
    square_location_id: str = Field(default="", description="Square location that takes the payments.")
    square_webhook_signature_key: str = Field(
        default="", description="Key that signs Square webhooks (sandbox/production)."
    )
    mail_backend: MailBackend = Field(default=MailBackend.OUTBOX, description="outbox or smtp.")
    mail_from: str = Field(default="Shop <hello@localhost>", description="From address of shop mail.")
    smtp_host: str = Field(default="localhost", description="SMTP server (mail_backend=smtp).")
    smtp_port: int = Field(default=587, description="SMTP port.")
    smtp_username: str = Field(default="", description="SMTP user name, empty for none.")
    smtp_password: str = Field(default="", description="SMTP password.")
    smtp_starttls: bool = Field(default=True, description="Upgrade the SMTP connection with STARTTLS.")
    admin_password: str = Field(
        default="",
        description="Password for `python -m shop_app create-admin` when not typed at the prompt.",
    )
    account_requests_per_client: int = Field(
        default=10,
        ge=1,
        description="Sign-ups, and password-reset requests, one client address may make in 15 minutes.",
    )
    log_level: str = Field(default="INFO", description="Python log level of the shop's loggers.")
    log_format: Literal["text", "json"] = Field(
        default="text",
        description="text: one key=value line per record; json: one JSON object per line.",
    )
    port: int = Field(default=3000, ge=1, le=65535, description="Port the shop's server listens on.")
    web_workers: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Backend worker processes; more than one needs Redis. Unset: Reflex decides "
        "(1 without Redis, 2 x CPUs + 1 up to 8 with it).",
    )
    redis_url: str = Field(
        default="",
        validation_alias="REFLEX_REDIS_URL",
        description="Redis holding Reflex's per-tab state (read by Reflex itself; checked here).",
    )
    square_simulator_url: str = Field(
        default="",
        description="Local mode with several workers: the one Square simulator they share "
        "(`python -m shop_app square-simulator`). Empty: the simulator runs in the shop's process.",
    )

    @field_validator("site_url")
    @classmethod
    def _strip_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @model_validator(mode="after")
    def _site_on_the_served_port(self) -> Settings:
        # PORT=3310 alone must give a shop whose pages open their websocket on 3310, not 3000.
        if "site_url" not in self.model_fields_set:
            self.site_url = f"http://localhost:{self.port}"
        return self

    @property
    def is_sqlite(self) -> bool:
        """Whether the database is an SQLite file."""
        return self.database_url.startswith("sqlite")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Return the process-wide settings (read once; tests clear the cache to change them)."""
    return Settings()
