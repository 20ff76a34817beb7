"""Category rules of the back office (docs/spec/admin-categories.md#screen, #records, #rules;
docs/spec/limits.md#back-office): the form, the two-level hierarchy and what a deletion would leave behind.

Categories have two levels: a main category (``parent_id`` None) and subcategories under one.
Nothing here reads the database; ``services.admin.categories`` applies these rules inside its
transactions and the Manage Categories screen uses them to show the same answer up front.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from shop_app.domain import free_text
from shop_app.domain.admin_messages import CategoryMessage
from shop_app.domain.slugs import category_slug

NAME_MAX_LENGTH = 255  # docs/spec/limits.md#back-office
DEFAULT_SORT_ORDER = 0  # docs/spec/limits.md#back-office
NO_PARENT = "none"  # docs/spec/admin-categories.md#rules: parent 'none' means a main category
# The database's INTEGER: a larger sort order would fail on PostgreSQL, not with a clear message.
SORT_ORDER_RANGE = (-(2**31), 2**31 - 1)


class CategoryError(ValueError):
    """A category change was refused; ``str(error)`` is the message for the administrator."""


@dataclass(frozen=True, slots=True)
class CategoryInput:
    """What the category dialog asks to store, checked (see :func:`category_input`)."""

    name: str
    slug: str
    description: str
    parent_id: int | None
    sort_order: int
    is_active: bool


@dataclass(frozen=True, slots=True)
class CategoryRecord:
    """One stored category, as the back office lists it."""

    id: int
    name: str
    slug: str
    description: str
    parent_id: int | None
    is_active: bool
    sort_order: int


@dataclass(frozen=True, slots=True)
class Branch:
    """A main category and its subcategories, both in display order."""

    category: CategoryRecord
    subcategories: tuple[CategoryRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class Hierarchy:
    """The screen's view of every category: the figures, the tree and the orphans."""

    branches: tuple[Branch, ...] = ()
    orphans: tuple[CategoryRecord, ...] = ()
    total: int = 0
    mains: int = 0
    subcategories: int = 0
    active: int = 0
    by_id: Mapping[int, CategoryRecord] = field(default_factory=dict)


def category_input(
    *,
    name: str,
    description: str = "",
    parent: str | int | None = None,
    sort_order: str | int = "",
    is_active: bool = True,
) -> CategoryInput:
    """Check the dialog's fields and derive the slug (docs/spec/admin-categories.md#records, #rules).

    The name is trimmed and required, at most 255 characters, and must give a non-empty slug
    (a name of punctuation only cannot be told apart in a URL). The sort order is a whole number,
    0 when left empty. ``parent`` is a category id, or ``"none"``/empty for a main category.

    Examples:
        >>> category_input(name=" Gift Sets ", parent="none", sort_order="").slug
        'gift-sets'
        >>> category_input(name="Fall", parent="3", sort_order=" 2 ").parent_id
        3

    Raises:
        CategoryError: with the message to show (name, sort order or parent).
    """
    clean_name = free_text.one_line(name)
    if not clean_name:
        raise CategoryError(CategoryMessage.NAME_REQUIRED)
    if len(clean_name) > NAME_MAX_LENGTH:
        raise CategoryError(CategoryMessage.NAME_TOO_LONG)
    slug = category_slug(clean_name)
    if not slug:
        raise CategoryError(CategoryMessage.NAME_WITHOUT_SLUG)
    return CategoryInput(
        name=clean_name,
        slug=slug,
        description=free_text.multiline(description),
        parent_id=parse_parent(parent),
        sort_order=parse_sort_order(sort_order),
        is_active=bool(is_active),
    )


def parse_sort_order(value: str | int) -> int:
    """The sort order typed in the dialog: a whole number, 0 when empty.

    Examples:
        >>> parse_sort_order(""), parse_sort_order(" -3 "), parse_sort_order(7)
        (0, -3, 7)

    Raises:
        CategoryError: for anything else ("1.5", "two", a number too large to store).
    """
    text = str(value).strip()
    if not text:
        return DEFAULT_SORT_ORDER
    try:
        number = int(text)
    except ValueError:
        raise CategoryError(CategoryMessage.SORT_ORDER_INVALID) from None
    low, high = SORT_ORDER_RANGE
    if not low <= number <= high:
        raise CategoryError(CategoryMessage.SORT_ORDER_INVALID)
    return number


def parse_parent(value: str | int | None) -> int | None:
    """The parent chosen in the dialog: an id, or None for a main category.

    Raises:
        CategoryError: when the value is not an id (the parent cannot exist).
    """
    if value is None:
        return None
    text = str(value).strip()
    if text in ("", NO_PARENT):
        return None
    if not text.isdecimal():
        raise CategoryError(CategoryMessage.PARENT_NOT_FOUND)
    return int(text)


def check_parent(
    *,
    category_id: int | None,
    parent: CategoryRecord | None,
    parent_id: int | None,
    has_subcategories: bool,
    name: str = "",
) -> None:
    """Refuse a parent that would break the two-level hierarchy (docs/spec/admin-categories.md#rules).

    ``category_id`` is None when creating. ``parent`` is the stored row of ``parent_id`` (None
    when it does not exist). A category cannot be its own parent; the parent must exist and be a
    main category; a category that has subcategories stays a main category, else its
    subcategories would sit three levels deep.

    Raises:
        CategoryError: with the rule that is broken.
    """
    if parent_id is None:
        return
    if category_id is not None and parent_id == category_id:
        raise CategoryError(CategoryMessage.OWN_PARENT)
    if parent is None:
        raise CategoryError(CategoryMessage.PARENT_NOT_FOUND)
    if parent.parent_id is not None:
        raise CategoryError(CategoryMessage.PARENT_NOT_MAIN)
    if has_subcategories:
        raise CategoryError(CategoryMessage.HAS_SUBCATEGORIES.format(name=name))


def check_deletable(*, name: str, subcategories: int, products: int) -> None:
    """Refuse deleting a category that still holds subcategories or products.

    The database would let it go (its foreign keys are ``ON DELETE SET NULL``), but then each
    subcategory would silently become a main category and every product in it (archived ones
    too) would lose its category and drop out of the shop's filters. A shop owner deleting a
    category expects neither; they move what is inside first, or deactivate the category to
    hide it from the shop while keeping everything as it is.

    Examples:
        >>> check_deletable(name="Gift Sets", subcategories=0, products=0)
        >>> check_deletable(name="Candles", subcategories=0, products=1)
        Traceback (most recent call last):
        ...
        shop_app.domain.categories.CategoryError: "Candles" still has 1 product. ...

    Raises:
        CategoryError: naming what is left inside.
    """
    if subcategories:
        label = counted(subcategories, "subcategory", "subcategories")
        raise CategoryError(CategoryMessage.DELETE_HAS_SUBCATEGORIES.format(name=name, subcategories=label))
    if products:
        message = CategoryMessage.DELETE_HAS_PRODUCTS.format(
            name=name, products=counted(products, "product", "products")
        )
        raise CategoryError(message)


def counted(count: int, one: str, many: str) -> str:
    """A count with its noun.

    Examples:
        >>> counted(1, "product", "products"), counted(3, "subcategory", "subcategories")
        ('1 product', '3 subcategories')
    """
    return f"{count} {one if count == 1 else many}"


def display_key(category: CategoryRecord) -> tuple[int, str, int]:
    """Display order: sort order, then name (case-insensitive), then id
    (docs/spec/admin-categories.md#screen)."""
    return (category.sort_order, category.name.casefold(), category.id)


def hierarchy(categories: Iterable[CategoryRecord]) -> Hierarchy:
    """Arrange every category for the screen (docs/spec/admin-categories.md#screen).

    Main categories in display order, each with its subcategories in display order. A
    subcategory whose parent is missing, or is itself a subcategory (rows written outside the
    back office), is an orphan: it is listed apart so the administrator can give it a parent.

    Examples:
        >>> rows = [
        ...     CategoryRecord(1, "Candles", "candles", "", None, True, 2),
        ...     CategoryRecord(2, "Body Care", "body-care", "", None, False, 1),
        ...     CategoryRecord(3, "Fall", "fall", "", 1, True, 0),
        ...     CategoryRecord(4, "Lost", "lost", "", 99, True, 0),
        ... ]
        >>> tree = hierarchy(rows)
        >>> [b.category.name for b in tree.branches], [o.name for o in tree.orphans]
        (['Body Care', 'Candles'], ['Lost'])
        >>> tree.total, tree.mains, tree.subcategories, tree.active
        (4, 2, 2, 3)
    """
    rows = sorted(categories, key=display_key)
    by_id = {row.id: row for row in rows}
    mains = [row for row in rows if row.parent_id is None]
    main_ids = {row.id for row in mains}
    children: dict[int, list[CategoryRecord]] = {row.id: [] for row in mains}
    orphans = []
    for row in rows:
        if row.parent_id is None:
            continue
        if row.parent_id in main_ids:
            children[row.parent_id].append(row)
        else:
            orphans.append(row)
    return Hierarchy(
        branches=tuple(Branch(main, tuple(children[main.id])) for main in mains),
        orphans=tuple(orphans),
        total=len(rows),
        mains=len(mains),
        subcategories=len(rows) - len(mains),
        active=sum(1 for row in rows if row.is_active),
        by_id=by_id,
    )


def parent_choices(tree: Hierarchy, *, editing_id: int | None) -> list[CategoryRecord]:
    """The main categories the dialog's parent selector offers (never the edited category)."""
    return [branch.category for branch in tree.branches if branch.category.id != editing_id]
