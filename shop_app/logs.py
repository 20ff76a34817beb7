"""The shop's log lines: one record per line, as ``key=value`` text or as JSON (``LOG_FORMAT``).

Every record carries the time (UTC), level, logger, process id and message, plus the fields a
caller passes in ``extra=`` (for example ``event`` and ``client`` of the event log). The process
id tells the backend workers apart; JSON lines are what log shippers and ``jq`` read.

Only the ``shop_app`` logger (and ``alembic`` in the command line) gets a handler; the root
logger is left alone (nothing in the shop, Reflex or granian gives it one, so nothing is printed
twice, and pytest's ``caplog`` still sees the records). Reflex and granian print their own
lines (as JSON too with ``REFLEX_LOG_JSON=true``).
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

SHOP_LOGGER = "shop_app"

# Attributes every LogRecord has; anything else on a record came from ``extra=``.
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    moment = datetime.fromtimestamp(record.created, tz=UTC)
    fields: dict[str, Any] = {
        "ts": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "level": record.levelname.lower(),
        "logger": record.name,
        "pid": record.process,
        "msg": record.getMessage(),
    }
    for key, value in record.__dict__.items():
        if key not in _STANDARD and not key.startswith("_"):
            fields[key] = value
    return fields


class JsonFormatter(logging.Formatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        fields = _fields(record)
        if record.exc_info:
            fields["exception"] = self.formatException(record.exc_info)
        return json.dumps(fields, default=str, ensure_ascii=False)


class KeyValueFormatter(logging.Formatter):
    """``ts=… level=info logger=… pid=… msg="…" key=value`` (quoted where needed)."""

    def format(self, record: logging.LogRecord) -> str:
        line = " ".join(f"{key}={_quote(value)}" for key, value in _fields(record).items())
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def _quote(value: Any) -> str:
    text = str(value)
    if text and not any(c in text for c in ' "=\n\t'):
        return text
    return json.dumps(text, ensure_ascii=False)


class _ShopHandler(logging.StreamHandler):
    """Marks the handler this module installed, so configuring again replaces it."""


def configure(*, level: str, log_format: str, names: tuple[str, ...] = (SHOP_LOGGER,)) -> None:
    """Send the records of the ``names`` loggers to stderr in ``log_format`` (``text`` or ``json``).

    ``level`` applies to them all. Configuring again replaces the handler installed before.
    """
    for name in names:
        logger = logging.getLogger(name)
        for handler in [h for h in logger.handlers if isinstance(h, _ShopHandler)]:
            logger.removeHandler(handler)
        handler = _ShopHandler(sys.stderr)
        handler.setFormatter(JsonFormatter() if log_format == "json" else KeyValueFormatter())
        logger.addHandler(handler)
        logger.setLevel(level.upper())
