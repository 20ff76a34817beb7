"""State of Discount Codes (/admin/discounts, issue 19, acceptance 3): the list, the code dialog
(new or edit) and the Active switch of each row. Every handler re-checks the admin role first
(``admin_event``).

The dialog's text inputs are uncontrolled (one event per save, not per keystroke): they show
``values`` when they mount, and ``form_key`` changes only when the dialog opens, so a refused
save keeps everything typed and shows each field's message under it (``errors``). The kind, the
Active switch, the chosen products (searched, at most 20 offered at a time) and categories live
here. The edited code's ``updated_at`` (``_version_seen``) is what the save is checked against.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.admin_messages import DiscountAdminMessage as M
from shop_app.domain.discount_form import KIND, TEXT_FIELDS, VALUE
from shop_app.domain.discounts import DiscountKind
from shop_app.domain.form_input import text
from shop_app.domain.money import format_cents
from shop_app.services.admin import discounts as service
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state

log = logging.getLogger(__name__)

KINDS: tuple[tuple[str, str], ...] = (
    (DiscountKind.PERCENT.value, "Percentage off"),
    (DiscountKind.FIXED.value, "Fixed amount off"),
    (DiscountKind.FREE_SHIPPING.value, "Free shipping"),
)
"""The kind select's choices: value and label."""
SEARCH_MAX = 100
"""Longest product search text read."""


@dataclass
class DiscountRowView:
    """A row of the list (texts ready to show)."""

    id: int = 0
    code: str = ""
    gives: str = ""
    limits: str = ""
    status: str = ""
    status_colour: str = "gray"
    note: str = ""
    is_active: bool = True
    orders: int = 0
    paid_orders: int = 0
    revenue: str = ""


@dataclass
class ChoiceView:
    """A product or category the dialog offers."""

    id: int = 0
    label: str = ""


def _row(row: service.DiscountListRow) -> DiscountRowView:
    return DiscountRowView(
        id=row.id,
        code=row.code,
        gives=row.gives,
        limits=row.limits,
        status=row.status,
        status_colour=row.status_colour,
        note=row.note,
        is_active=row.is_active,
        orders=row.orders,
        paid_orders=row.paid_orders,
        revenue=format_cents(row.revenue_cents),
    )


def _choices(choices: list[service.Choice]) -> list[ChoiceView]:
    return [ChoiceView(c.id, c.label) for c in choices]


@private_state
class DiscountsState(AdminGuardMixin, rx.State):
    """Discount Codes: the list and one dialog."""

    loaded: bool = False
    rows: list[DiscountRowView] = []

    dialog_open: bool = False
    editing_id: int = 0  # 0: a new code
    code_used: bool = False  # the edited code has been used: its text stays
    values: dict[str, str] = {}  # what the text inputs show when they mount
    form_key: int = 0
    kind: str = DiscountKind.PERCENT.value
    is_active: bool = True
    errors: dict[str, str] = {}
    error: str = ""  # what stops the whole save (changed elsewhere, gone, failed)
    saving: bool = False
    product_search: str = ""
    product_results: list[ChoiceView] = []
    chosen_products: list[ChoiceView] = []
    categories: list[ChoiceView] = []
    chosen_categories: list[int] = []
    _version_seen: str = ""

    @rx.var
    def dialog_title(self) -> str:
        """The dialog's title."""
        return "Edit Discount Code" if self.editing_id else "New Discount Code"

    @admin_event(failure=M.LOAD_FAILED.value)
    async def load(self) -> None:
        """Every code with its uses and revenue (admins only)."""
        self._reload()

    def _reload(self) -> None:
        with session_scope() as session:
            self.rows = [_row(row) for row in service.list_codes(session)]
        self.loaded = True

    def _open(self, detail: service.DiscountDetail | None) -> None:
        with session_scope() as session:
            self.categories = _choices(service.category_choices(session))
        self.editing_id = detail.id if detail else 0
        self.code_used = bool(detail and detail.uses > 0)
        self.values = detail.texts if detail else {}
        self.kind = detail.kind.value if detail else DiscountKind.PERCENT.value
        self.is_active = detail.is_active if detail else True
        self.chosen_products = _choices(detail.products) if detail else []
        self.chosen_categories = list(detail.category_ids) if detail else []
        self._version_seen = detail.version if detail else ""
        self.product_search, self.product_results = "", []
        self.errors, self.error, self.saving = {}, "", False
        self.form_key += 1
        self.dialog_open = True

    @admin_event
    async def open_new(self) -> None:
        """New code: an empty dialog."""
        self._open(None)

    @admin_event
    async def open_edit(self, code_id: int):
        """Edit a code: its stored values in the dialog."""
        with session_scope() as session:
            detail = service.get_code(session, code_id)
        if detail is None:
            self._reload()
            return notify.error(M.NOT_FOUND.value)
        self._open(detail)
        return None

    @admin_event
    def set_dialog_open(self, is_open: bool) -> None:
        """Close the dialog (Cancel, Escape, outside click); the buttons open it."""
        if not is_open and not self.saving:
            self.dialog_open = False

    @admin_event
    def set_kind(self, value: str) -> None:
        """The kind select (an unknown value is kept out)."""
        if value in {kind for kind, _label in KINDS}:
            self.kind = value
            self.errors = {k: v for k, v in self.errors.items() if k not in {KIND, VALUE}}

    @admin_event
    def set_is_active(self, value: bool) -> None:
        """The Active switch."""
        self.is_active = bool(value)

    @admin_event
    async def search_products(self, typed: str) -> None:
        """Offer the active products whose name or SKU contains what was typed."""
        self.product_search = str(typed)[:SEARCH_MAX]
        if not self.product_search.strip():
            self.product_results = []
            return
        chosen = {c.id for c in self.chosen_products}
        with session_scope() as session:
            found = service.search_products(session, self.product_search)
        self.product_results = [c for c in _choices(found) if c.id not in chosen]

    @admin_event
    def add_product(self, product_id: int) -> None:
        """Choose a product the search offered."""
        offered = next((c for c in self.product_results if c.id == product_id), None)
        if offered is not None:
            self.chosen_products = [*self.chosen_products, offered]
            self.product_results = [c for c in self.product_results if c.id != product_id]

    @admin_event
    def remove_product(self, product_id: int) -> None:
        """Take a product off the code's list."""
        self.chosen_products = [c for c in self.chosen_products if c.id != product_id]

    @admin_event
    def set_category(self, category_id: int, checked: bool) -> None:
        """Tick or untick a category the dialog offers."""
        if category_id not in {c.id for c in self.categories}:
            return
        others = [c for c in self.chosen_categories if c != category_id]
        self.chosen_categories = [*others, category_id] if checked else others

    @admin_event
    async def save(self, form: dict):
        """Create or update; a refusal keeps the dialog open with everything typed."""
        if self.saving:
            return None
        typed = {name: text(form, name) for name in TEXT_FIELDS} | {KIND: self.kind}
        choices = {
            "product_ids": [c.id for c in self.chosen_products],
            "category_ids": list(self.chosen_categories),
            "is_active": self.is_active,
        }
        self.saving = True
        try:
            if self.editing_id:
                code = service.update_code(self.editing_id, typed, version_seen=self._version_seen, **choices)
            else:
                code = service.create_code(typed, **choices)
        except service.DiscountFormInvalid as refused:
            self.values, self.errors, self.error = typed, refused.errors, ""
            return notify.error(M.FIX_FIELDS.value)
        except service.DiscountProblem as problem:
            self.values, self.errors, self.error = typed, {}, str(problem)
            self._reload()
            return notify.error(self.error)
        except Exception:
            log.exception("saving a discount code failed")
            self.values, self.error = typed, M.SAVE_FAILED.value
            return notify.error(self.error)
        finally:
            self.saving = False
        self.dialog_open = False
        self._reload()
        message = M.UPDATED if self.editing_id else M.CREATED
        return notify.success(message.format(code=code))

    @admin_event
    async def set_active(self, code_id: int, active: bool):
        """Switch a code on or off from the list (never deleted: orders name their code)."""
        try:
            code = service.set_active(code_id, bool(active))
        except service.DiscountProblem as problem:
            self._reload()
            return notify.error(str(problem))
        self._reload()
        return notify.success((M.ACTIVATED if active else M.DEACTIVATED).format(code=code))
