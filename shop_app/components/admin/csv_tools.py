"""Export CSV and Import CSV for Manage Products, with the list of problems of a refused file.

"Export CSV" is a link to the download route loaded by the browser itself (a full page load), so
the session cookie goes with it and the file downloads without leaving the page. "Import CSV"
opens the file picker (or takes a dropped file) and uploads at once; the notification says how
it went and a refused file's problems are listed by line and column.
"""

from __future__ import annotations

import reflex as rx

from shop_app import routes
from shop_app.components.link_button import link_button
from shop_app.domain.catalog_csv import MAX_BYTES, MAX_ROWS
from shop_app.state.admin.csv_tools import UPLOAD_ID, CsvToolsState

EXPORT_LABEL = "Export CSV"
IMPORT_LABEL = "Import CSV"
IMPORTING_LABEL = "Importing..."
ISSUES_TITLE = "The file was not imported. Fix these problems and import it again:"
ONE_ISSUE_TITLE = "The file was not imported. Fix this problem and import it again:"
HIDDEN_ISSUES_BEFORE, HIDDEN_ISSUES_AFTER = "… and ", " more"
HINT = f"CSV exported from here (UTF-8). Up to {MAX_ROWS:,} products and {MAX_BYTES // (1024 * 1024)} MB."
LINE = "Line"
COLUMN = "Column"
PROBLEM = "Problem"


def _issue_row(issue: rx.Var[dict[str, str]]) -> rx.Component:
    return rx.table.row(
        rx.table.cell(issue["row"]),
        rx.table.cell(rx.code(issue["column"])),
        rx.table.cell(issue["message"]),
    )


def _issues() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("triangle-alert")),
        rx.vstack(
            rx.callout.text(
                rx.cond(
                    (CsvToolsState.issues.length() == 1) & (CsvToolsState.hidden_issues == 0),
                    ONE_ISSUE_TITLE,
                    ISSUES_TITLE,
                ),
                weight="medium",
            ),
            rx.table.root(
                rx.table.header(
                    rx.table.row(
                        rx.table.column_header_cell(LINE),
                        rx.table.column_header_cell(COLUMN),
                        rx.table.column_header_cell(PROBLEM),
                    )
                ),
                rx.table.body(rx.foreach(CsvToolsState.issues, _issue_row)),
                size="1",
                width="100%",
            ),
            rx.cond(
                CsvToolsState.hidden_issues > 0,
                rx.text(HIDDEN_ISSUES_BEFORE, CsvToolsState.hidden_issues, HIDDEN_ISSUES_AFTER, size="2"),
            ),
            spacing="2",
            width="100%",
        ),
        color_scheme="red",
        role="alert",
        width="100%",
    )


def csv_tools() -> rx.Component:
    """The two buttons and, after a refused import, its problems."""
    upload = rx.upload(
        rx.button(
            rx.icon("upload", size=16),
            rx.cond(CsvToolsState.importing, IMPORTING_LABEL, IMPORT_LABEL),
            variant="outline",
            type="button",
            loading=CsvToolsState.importing,
        ),
        id=UPLOAD_ID,
        accept={"text/csv": [".csv"]},
        max_files=1,
        max_size=MAX_BYTES,
        multiple=False,
        disabled=CsvToolsState.importing,  # a second file while one is importing would be dropped silently
        on_drop=CsvToolsState.import_csv(rx.upload_files(upload_id=UPLOAD_ID)),
        on_drop_rejected=lambda _rejected: CsvToolsState.rejected(),  # the File stays in the browser
        border="none",
        padding="0",
    )
    return rx.vstack(
        rx.hstack(
            link_button(
                EXPORT_LABEL,
                routes.ADMIN_PRODUCTS_CSV,
                full_page_load=True,
                variant="outline",
            ),
            upload,
            rx.text(HINT, size="1", color_scheme="gray"),
            spacing="3",
            align="center",
            wrap="wrap",
        ),
        rx.cond(CsvToolsState.issues, _issues()),
        spacing="3",
        width="100%",
    )
