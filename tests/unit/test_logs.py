"""The shop's log lines: JSON or key=value, each with the time, level, logger, worker pid, message
and the extra fields of the call."""

from __future__ import annotations

import json
import logging
import os
import sys

import pytest

from shop_app import logs


def _record(message: str = "order %s paid", *args: object, **extra: object) -> logging.LogRecord:
    record = logging.LogRecord("shop_app.orders", logging.INFO, __file__, 1, message, args or ("CE-1",), None)
    record.__dict__.update(extra)
    return record


def test_json_lines_carry_the_standard_fields_and_the_extras() -> None:
    line = logs.JsonFormatter().format(_record(event="cart.add", client="abc123"))

    fields = json.loads(line)
    assert fields.pop("ts").endswith("Z")
    assert fields == {
        "level": "info",
        "logger": "shop_app.orders",
        "pid": os.getpid(),
        "msg": "order CE-1 paid",
        "event": "cart.add",
        "client": "abc123",
    }


def test_json_lines_carry_the_traceback() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("shop_app", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())

    fields = json.loads(logs.JsonFormatter().format(record))

    assert "ValueError: boom" in fields["exception"]


def test_key_value_lines_quote_what_needs_quoting() -> None:
    line = logs.KeyValueFormatter().format(_record(client="abc123", note='say "hi"'))

    assert line.startswith("ts=")
    assert " level=info logger=shop_app.orders pid=" in line
    assert 'msg="order CE-1 paid" client=abc123 note="say \\"hi\\""' in line


def test_configuring_again_replaces_the_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    logger = logging.getLogger("shop_app.test_logs")
    monkeypatch.setattr(logger, "handlers", [])

    logs.configure(level="debug", log_format="text", names=("shop_app.test_logs",))
    logs.configure(level="warning", log_format="json", names=("shop_app.test_logs",))

    (handler,) = logger.handlers
    assert isinstance(handler.formatter, logs.JsonFormatter)
    assert logger.level == logging.WARNING
