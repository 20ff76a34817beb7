"""State of Manage Categories (docs/spec/admin-categories.md#screen, #rules, #messages): the hierarchy, the
category dialog and the delete confirmation. Every handler re-checks the admin role first."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.admin_messages import CategoryMessage
from shop_app.domain.categories import (
    NO_PARENT,
    CategoryError,
    CategoryRecord,
    category_input,
    check_deletable,
    hierarchy,
    parent_choices,
)
from shop_app.services.admin import categories as service
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state

log = logging.getLogger(__name__)

ADD_MAIN, ADD_SUB, EDIT = "add_main", "add_sub", "edit"
DIALOG_TITLES = {ADD_MAIN: "Add Main Category", ADD_SUB: "Add Subcategory", EDIT: "Edit Category"}


@dataclass
class CategoryItem:
    """A category as a row of the hierarchy shows it."""

    id: int = 0
    name: str = ""
    description: str = ""
    is_active: bool = True
    sort_order: int = 0


@dataclass
class BranchItem:
    """A main category with its subcategories."""

    category: CategoryItem = field(default_factory=CategoryItem)
    subcategories: list[CategoryItem] = field(default_factory=list)


@dataclass
class ParentOption:
    """An entry of the dialog's parent selector."""

    value: str = NO_PARENT
    label: str = ""


def _item(record: CategoryRecord) -> CategoryItem:
    return CategoryItem(record.id, record.name, record.description, record.is_active, record.sort_order)


@private_state
class CategoriesState(AdminGuardMixin, rx.State):
    """Manage Categories: figures, tree, orphans, one dialog at a time."""

    loaded: bool = False
    branches: list[BranchItem] = []
    orphans: list[CategoryItem] = []
    total: int = 0
    mains: int = 0
    subcategories: int = 0
    active: int = 0

    dialog_open: bool = False
    mode: str = ADD_MAIN
    editing_id: int = 0
    fixed_parent_id: int = 0  # Add Subcategory under this main category (no selector then)
    fixed_parent_name: str = ""
    keeps_subcategories: bool = False  # the edited category has subcategories: it stays a main one
    parent_options: list[ParentOption] = []
    name: str = ""
    description: str = ""
    parent: str = NO_PARENT
    sort_order: str = "0"
    is_active: bool = True
    error: str = ""
    saving: bool = False

    delete_open: bool = False
    delete_id: int = 0
    delete_name: str = ""
    delete_blocker: str = ""  # why it cannot be deleted ("" when it can)
    deleting: bool = False

    @rx.var
    def dialog_title(self) -> str:
        """The category dialog's title."""
        return DIALOG_TITLES.get(self.mode, DIALOG_TITLES[ADD_MAIN])

    @rx.var
    def can_save(self) -> bool:
        """Name required (docs/spec/admin-categories.md#rules: the buttons are disabled without it)."""
        return bool(self.name.strip()) and not self.saving

    @admin_event(failure=CategoryMessage.LOAD_FAILED.value)
    async def load(self) -> None:
        """Load every category (admins only); a database that cannot be read gives the seed's toast."""
        self._reload()

    def _reload(self) -> list[CategoryRecord]:
        with session_scope() as session:
            records = service.list_categories(session)
        tree = hierarchy(records)
        self.branches = [
            BranchItem(_item(b.category), [_item(s) for s in b.subcategories]) for b in tree.branches
        ]
        self.orphans = [_item(o) for o in tree.orphans]
        self.total, self.mains, self.subcategories, self.active = (
            tree.total,
            tree.mains,
            tree.subcategories,
            tree.active,
        )
        self.loaded = True
        return records

    def _open(
        self, mode: str, records: list[CategoryRecord], *, editing: CategoryRecord | None = None
    ) -> None:
        self.mode, self.error, self.saving, self.dialog_open = mode, "", False, True
        self.editing_id = editing.id if editing else 0
        self.keeps_subcategories = bool(editing) and any(r.parent_id == editing.id for r in records)
        choices = parent_choices(hierarchy(records), editing_id=self.editing_id or None)
        self.parent_options = [ParentOption(NO_PARENT, "None (main category)")] + [
            ParentOption(str(c.id), c.name) for c in choices
        ]
        self.name = editing.name if editing else ""
        self.description = editing.description if editing else ""
        self.sort_order = str(editing.sort_order) if editing else "0"
        self.is_active = editing.is_active if editing else True
        # An orphan's parent is not offered: its selector starts at "None" for a new choice.
        parent_id = editing.parent_id if editing else None
        offered = {c.id for c in choices}
        self.parent = str(parent_id) if parent_id in offered else NO_PARENT

    @admin_event
    async def open_add_main(self) -> None:
        """Add Main Category."""
        self.fixed_parent_id, self.fixed_parent_name = 0, ""
        self._open(ADD_MAIN, self._reload())

    @admin_event
    async def open_add_subcategory(self, parent_id: int):
        """Add Subcategory under ``parent_id`` (the parent selector is not shown)."""
        records = self._reload()
        parent = next((r for r in records if r.id == parent_id and r.parent_id is None), None)
        if parent is None:
            return notify.error(CategoryMessage.PARENT_NOT_FOUND)
        self._open(ADD_SUB, records)
        self.fixed_parent_id, self.fixed_parent_name = parent.id, parent.name
        self.parent = str(parent.id)
        return None

    @admin_event
    async def open_edit(self, category_id: int):
        """Edit a category (its current values in the dialog)."""
        records = self._reload()
        editing = next((r for r in records if r.id == category_id), None)
        if editing is None:
            return notify.error(CategoryMessage.NOT_FOUND)
        self.fixed_parent_id, self.fixed_parent_name = 0, ""
        self._open(EDIT, records, editing=editing)
        return None

    @admin_event
    def set_dialog_open(self, is_open: bool) -> None:
        """Close the dialog (Cancel, Escape, outside click); it is opened by the buttons."""
        if not is_open and not self.saving:
            self.dialog_open = False

    @admin_event
    def set_name(self, value: str) -> None:
        """Name field."""
        self.name, self.error = str(value), ""

    @admin_event
    def set_description(self, value: str) -> None:
        """Description field."""
        self.description = str(value)

    @admin_event
    def set_parent(self, value: str) -> None:
        """Parent selector ("none": a main category)."""
        self.parent, self.error = str(value), ""

    @admin_event
    def set_sort_order(self, value: str) -> None:
        """Sort order field."""
        self.sort_order, self.error = str(value), ""

    @admin_event
    def set_is_active(self, value: bool) -> None:
        """Active checkbox."""
        self.is_active = bool(value)

    @admin_event
    async def save(self):
        """Create or update; on a refusal the dialog stays open with everything typed."""
        if self.saving:
            return None
        editing = self.mode == EDIT
        failed = CategoryMessage.UPDATE_FAILED if editing else CategoryMessage.CREATE_FAILED
        parent = str(self.fixed_parent_id) if self.mode == ADD_SUB else self.parent
        self.saving = True
        try:
            data = category_input(
                name=self.name,
                description=self.description,
                parent=parent,
                sort_order=self.sort_order,
                is_active=self.is_active,
            )
            if editing:
                service.update_category(self.editing_id, data)
            else:
                service.create_category(data)
        except CategoryError as refused:
            self.error = str(refused)
            return notify.error(self.error)
        except Exception:
            log.exception("saving a category failed")
            self.error = failed.value
            return notify.error(self.error)
        finally:
            self.saving = False
        self.dialog_open = False
        self._reload()
        return notify.success(CategoryMessage.UPDATED if editing else CategoryMessage.CREATED)

    @admin_event
    async def ask_delete(self, category_id: int):
        """Open the confirmation, saying up front what would stop the deletion."""
        with session_scope() as session:
            record = next((r for r in service.list_categories(session) if r.id == category_id), None)
            usage = service.category_usage(session, category_id) if record else None
        if record is None or usage is None:
            self._reload()
            return notify.error(CategoryMessage.NOT_FOUND)
        try:
            check_deletable(name=record.name, subcategories=usage.subcategories, products=usage.products)
            self.delete_blocker = ""
        except CategoryError as refused:
            self.delete_blocker = str(refused)
        self.delete_id, self.delete_name, self.deleting, self.delete_open = (
            record.id,
            record.name,
            False,
            True,
        )
        return None

    @admin_event
    def set_delete_open(self, is_open: bool) -> None:
        """Cancel closes the confirmation."""
        if not is_open and not self.deleting:
            self.delete_open = False

    @admin_event
    async def confirm_delete(self):
        """Delete the category (the service re-checks that nothing is left inside)."""
        if self.deleting:
            return None
        self.deleting = True
        try:
            service.delete_category(self.delete_id)
        except CategoryError as refused:
            self.delete_blocker = str(refused)
            return notify.error(self.delete_blocker)
        except Exception:
            log.exception("deleting a category failed")
            return notify.error(CategoryMessage.DELETE_FAILED)
        finally:
            self.deleting = False
            self._reload()
        self.delete_open = False
        return notify.success(CategoryMessage.DELETED)
