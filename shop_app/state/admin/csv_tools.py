"""CSV tools of Manage Products: import a catalogue file and show what is wrong with it.

The export is a plain link to the API route (``api.catalog_csv``), so it needs no state. The
import reads at most 2 MB + 1 byte of the upload (a bigger file is refused without reading it
all), hands the bytes to ``services.admin.catalog_csv`` (all-or-nothing) and keeps the first
problems for the list on the page: a file of 5,000 bad rows must not become a huge state. The
texts are ours (the seed has no CSV), so they are constants here, not seed message enums.
"""

from __future__ import annotations

import asyncio

import reflex as rx

from shop_app.domain.catalog_csv import MAX_BYTES
from shop_app.domain.text import counted
from shop_app.services.admin.catalog_csv import import_catalog_csv
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.admin.products import ManageProductsState
from shop_app.state.auth import private_state

UPLOAD_ID = "catalog-csv-upload"
SHOWN_ISSUES = 100
IMPORTED = "Imported {products} ({created} new, {updated} updated)"
NOT_IMPORTED = "Nothing was imported: the file has {problems}. Correct the file and import it again."
REJECTED = "Choose one .csv file of at most 2 MB."
NOT_A_CSV = "{file} is not a .csv file"


@private_state
class CsvToolsState(AdminGuardMixin, rx.State):
    """The last import's problems (empty after a successful import)."""

    issues: list[dict[str, str]] = []
    hidden_issues: int = 0
    importing: bool = False

    @admin_event
    async def import_csv(self, files: list[rx.UploadFile]):
        """Import the uploaded file (admins only); report every problem or the count imported."""
        self.issues, self.hidden_issues = [], 0
        if not files:  # the picker refused what was chosen: ``rejected`` says why
            return
        upload = files[0]
        name = upload.name or "file"
        if not name.lower().endswith(".csv"):
            yield notify.error(NOT_A_CSV.format(file=name))
            return
        data = await upload.read(MAX_BYTES + 1)
        self.importing = True
        yield
        report = await asyncio.to_thread(import_catalog_csv, data)  # the loop serves others meanwhile
        self.importing = False
        if report.ok:
            yield notify.success(
                IMPORTED.format(
                    products=counted(report.imported, "product"),
                    created=report.created,
                    updated=report.updated,
                )
            )
            yield ManageProductsState.load  # the list on the page shows what was imported
            return
        self.issues = [
            {"row": str(i.row) if i.row else "", "column": i.column, "message": i.message}
            for i in report.issues[:SHOWN_ISSUES]
        ]
        self.hidden_issues = max(len(report.issues) - SHOWN_ISSUES, 0)
        yield notify.error(NOT_IMPORTED.format(problems=counted(len(report.issues), "problem")))

    @admin_event
    async def rejected(self):
        """The file picker refused the file (not a .csv, too large, or several files). The page
        sends no argument: the refused File must not travel over the websocket (its bytes would)."""
        return notify.error(REJECTED)

    @admin_event
    async def clear_issues(self) -> None:
        """Hide the list of problems."""
        self.issues, self.hidden_issues = [], 0
