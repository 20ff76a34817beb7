"""The back office's list table: a header row, one row per item, sideways scrolling on phones."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import reflex as rx


def data_table(
    headers: Sequence[str], rows: rx.Var[list[Any]], row: Callable[..., rx.Component]
) -> rx.Component:
    """A Radix table of ``rows`` (each drawn by ``row``) under ``headers``, as wide as its box."""
    return rx.box(
        rx.table.root(
            rx.table.header(rx.table.row(*(rx.table.column_header_cell(h) for h in headers))),
            rx.table.body(rx.foreach(rows, row)),
            variant="surface",
            width="100%",
        ),
        overflow_x="auto",
        width="100%",
    )
