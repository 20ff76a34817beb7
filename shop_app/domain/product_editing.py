"""One product editor: the fields and the one rule set of the wizard, the Edit Product dialog and
the full-page form (docs/spec/admin-products.md#one-editor).

Each screen keeps what the administrator typed as text and turns it into a :class:`ProductDraft`
(:func:`draft_from_form`): the same fields everywhere, ``None`` for a field the screen does not
have (the product keeps its value). :func:`validate` lists every problem of a draft as
``(field, message)`` pairs, in one order (the seed's for its messages, then the wizard's steps);
:func:`product_values` is the typed product once there is none. The services call it inside
their write transaction, with the categories as they are then (:class:`MainCategory`), so every
screen is held to the same rules on the server, whatever a browser sends:

- required: the name, the description, a price above 0 ('Price must be greater than 0'), a main
  category, a collection when the main category offers one (an active subcategory; Custom has
  none), and the stock: a whole number from 0 to :data:`~shop_app.domain.product_draft.MAX_STOCK`;
- a sale price, when given (empty or 0 is no sale), is strictly below the regular price
  ('Sale price must be less than regular price');
- optional: the SKU (the form's Product ID; left empty, one is made from the name), images, scent
  notes, cost price, weight, the details and the shipping and SEO texts; each within its limit
  (``product_draft.TEXT_LIMITS``, prices up to ``MAX_AMOUNT_CENTS``, weight in steps of 0.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import partial
from typing import TypeVar

from shop_app.domain import free_text
from shop_app.domain.admin_messages import ProductDraftText, ProductFormMessage
from shop_app.domain.money import parse_dollars
from shop_app.domain.product_draft import (
    DraftError,
    DraftField,
    NewProduct,
    optional_text,
    parse_id,
    parse_list,
    parse_price,
    parse_stock,
    parse_weight,
)

F = DraftField
T = TypeVar("T")
Problem = tuple[DraftField, str]
"""A field and the message shown next to it."""

FIELD_ORDER: tuple[DraftField, ...] = (
    F.NAME,
    F.SKU,
    F.DESCRIPTION,
    F.BASE_PRICE,
    F.SALE_PRICE,
    F.COST_PRICE,
    F.CATEGORY,
    F.SUBCATEGORY,
    F.STOCK,
    F.WEIGHT,
    F.DIMENSIONS,
    F.CARE,
    F.SEO_TITLE,
    F.SEO_DESCRIPTION,
    F.SIZE,
    F.BURN_TIME,
)
"""The order problems are listed in: the seed form's (name, Product ID, description, price, sale
price), then the wizard's steps (category and collection, inventory, shipping, details)."""


@dataclass(frozen=True, slots=True)
class MainCategory:
    """A main category as the rules see it."""

    slug: str = ""
    collections: frozenset[int] = frozenset()
    """Every collection (subcategory) of it, active or not: a product may stay in an archived one."""
    offers_collections: bool = False
    """At least one collection is active: the product must be filed in one."""


CategoryTree = Mapping[int, MainCategory]
"""The main categories by id."""


class DraftInvalid(ValueError):
    """A draft the rules refuse; ``problems`` in :data:`FIELD_ORDER`, one per field."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(problems[0][1] if problems else "")
        self.problems = tuple(problems)


@dataclass(frozen=True, slots=True)
class ProductDraft:
    """The one set of fields of the product editors, as typed.

    Every editor has the name, description, prices, category, collection, stock and the Featured
    and New flags. ``None`` marks a field the editor does not have: an edit leaves the product's
    value as it is, a new product starts without it. Images are not part of the draft: they are
    files, staged by the image picker and handed to the services beside it.
    """

    name: str = ""
    description: str = ""
    base_price: str = ""
    sale_price: str = ""
    category: str = ""  # the main category's id, as the select sends it
    collection: str = ""  # the collection's (subcategory's) id; "" for none
    stock: str = ""
    is_featured: bool = False
    is_new_arrival: bool = False
    is_active: bool | None = None  # the edit dialog's switch; new products are active
    sku: str | None = None  # the wizard's SKU, the form's Product ID when adding
    cost_price: str | None = None  # wizard
    tags: str | None = None  # wizard
    weight: str | None = None  # wizard
    dimensions: str | None = None  # wizard
    care_instructions: str | None = None  # wizard
    seo_title: str | None = None  # wizard
    seo_description: str | None = None  # wizard
    ingredients: str | None = None  # wizard and form
    scent_notes: tuple[str, ...] | None = None  # form
    size: str | None = None  # form
    burn_time: str | None = None  # form


_OPTIONAL_TEXTS: Mapping[DraftField, str] = {
    F.SKU: "sku",
    F.COST_PRICE: "cost_price",
    F.TAGS: "tags",
    F.WEIGHT: "weight",
    F.DIMENSIONS: "dimensions",
    F.CARE: "care_instructions",
    F.SEO_TITLE: "seo_title",
    F.SEO_DESCRIPTION: "seo_description",
    F.INGREDIENTS: "ingredients",
    F.SIZE: "size",
    F.BURN_TIME: "burn_time",
}
"""Form keys of the fields only some editors have, and their draft attribute."""


def draft_from_form(
    form: Mapping[str, str],
    *,
    is_featured: bool,
    is_new_arrival: bool,
    is_active: bool | None = None,
    scent_notes: Sequence[str] | None = None,
) -> ProductDraft:
    """A screen's inputs (keys: :class:`DraftField` values) as a draft; a key the form does not
    have is a field the editor does not have (``None``), except the ones every editor has.

    Examples:
        >>> draft = draft_from_form({"name": "Rose", "weight": ""}, is_featured=True, is_new_arrival=False)
        >>> draft.name, draft.weight, draft.dimensions, draft.stock
        ('Rose', '', None, '')
    """

    def text(field: DraftField) -> str:
        return str(form.get(field.value) or "")

    optional = {attribute: text(field) for field, attribute in _OPTIONAL_TEXTS.items() if field.value in form}
    return ProductDraft(
        name=text(F.NAME),
        description=text(F.DESCRIPTION),
        base_price=text(F.BASE_PRICE),
        sale_price=text(F.SALE_PRICE),
        category=text(F.CATEGORY),
        collection=text(F.SUBCATEGORY),
        stock=text(F.STOCK),
        is_featured=bool(is_featured),
        is_new_arrival=bool(is_new_arrival),
        is_active=None if is_active is None else bool(is_active),
        scent_notes=None if scent_notes is None else tuple(str(note) for note in scent_notes),
        **optional,
    )


def validate(draft: ProductDraft, categories: CategoryTree) -> list[Problem]:
    """Every problem of ``draft``, at most one per field, in :data:`FIELD_ORDER`; [] when none.

    Examples:
        >>> tree = {1: MainCategory("candles", frozenset({2}), True)}
        >>> validate(ProductDraft("Rose", "Soft.", "20", "25", "1", "2", "5"), tree)
        [(<DraftField.SALE_PRICE: 'sale_price'>, 'Sale price must be less than regular price')]
        >>> validate(ProductDraft("Rose", "Soft.", "20", "", "1", "", "5"), tree)
        [(<DraftField.SUBCATEGORY: 'subcategory'>, 'Collection is required')]
    """
    return _read(draft, categories)[1]


def product_values(draft: ProductDraft, categories: CategoryTree) -> NewProduct:
    """The typed product of a valid draft (trimmed texts, cents, ids; empties as ``None``).

    Raises:
        DraftInvalid: :func:`validate` found problems.
    """
    product, problems = _read(draft, categories)
    if product is None:
        raise DraftInvalid(problems)
    return product


def add_scent_note(notes: Sequence[str], text: str) -> tuple[str, ...]:
    """The scent notes after adding ``text``: trimmed; empty or duplicate is ignored.

    Duplicates are compared without regard to case ("Vanilla" and "vanilla" are one note).

    Examples:
        >>> add_scent_note(["Vanilla"], "  Amber "), add_scent_note(["Vanilla"], "vanilla")
        (('Vanilla', 'Amber'), ('Vanilla',))
    """
    note = free_text.one_line(text)
    if not note or any(note.casefold() == existing.casefold() for existing in notes):
        return tuple(notes)
    return (*notes, note)


def update_enabled(name: str, base_price: str) -> bool:
    """Whether the Edit Product dialog's Update is enabled: a name and a price above 0
    (docs/spec/admin-products.md#edit); Update then checks every rule. A price that is not a
    price at all ("12.345", "abc") leaves Update enabled, so that Update can say what is wrong
    with it instead of greying out without a word.

    Examples:
        >>> update_enabled("Rose", "20"), update_enabled(" ", "20"), update_enabled("Rose", "0")
        (True, False, False)
        >>> update_enabled("Rose", "12.345"), update_enabled("Rose", "")
        (True, False)
    """
    if not name.strip() or not base_price.strip():
        return False
    try:
        return parse_dollars(base_price) > 0
    except ValueError:
        try:  # a number the shop refuses: disabled at 0 or less, else Update explains
            return Decimal(base_price.strip().removeprefix("$").replace(",", "")) > 0
        except InvalidOperation:
            return True


def stock_to_write(stock: int, *, seen: int | None) -> int | None:
    """The stock an edit writes: what was typed, or ``None`` (leave the stock as it is now) when
    it is still what the editor showed (``seen``), so a sale made while the editor was open is not
    undone by saving other fields.

    Examples:
        >>> stock_to_write(12, seen=12), stock_to_write(30, seen=12), stock_to_write(4, seen=None)
        (None, 30, 4)
    """
    return None if seen is not None and stock == seen else stock


def stock_changed_meanwhile(stock: int, *, seen: int | None, current: int) -> bool:
    """Whether an edit that changed the stock (``stock``, not what the editor showed, ``seen``)
    meets a stock that changed since (``current``: a sale, another admin's edit): writing it
    would silently undo that change, so the edit is refused instead.

    Examples:
        >>> stock_changed_meanwhile(50, seen=29, current=29)  # a restock
        False
        >>> stock_changed_meanwhile(29, seen=29, current=27)  # left alone while 2 were sold
        False
        >>> stock_changed_meanwhile(20, seen=29, current=50)
        True
    """
    return seen is not None and seen not in (stock, current)


# --------------------------------------------------------------------------- reading a draft


def _required_text(text: str, field: DraftField, missing: ProductFormMessage) -> str:
    value = optional_text(text, field)
    if value is None:
        raise DraftError(field, missing.value)
    return value


def _base_price(text: str) -> int:
    cents = parse_price(text, F.BASE_PRICE)
    if not cents:  # empty or 0
        raise DraftError(F.BASE_PRICE, ProductFormMessage.PRICE_NOT_POSITIVE.value)
    return cents


def _sale_price(text: str, base: int | None) -> int | None:
    cents = parse_price(text, F.SALE_PRICE) or None  # empty or 0: no sale price
    if cents is not None and base is not None and cents >= base:
        raise DraftError(F.SALE_PRICE, ProductFormMessage.SALE_NOT_BELOW_PRICE.value)
    return cents


def _category(text: str, categories: CategoryTree) -> int:
    if not text.strip():
        raise DraftError(F.CATEGORY, ProductDraftText.CATEGORY_REQUIRED.value)
    category_id = parse_id(text)
    if category_id is None or category_id not in categories:
        raise DraftError(F.CATEGORY, ProductDraftText.CATEGORY_NOT_FOUND.value)
    return category_id


def _collection(text: str, main: MainCategory) -> int | None:
    if not text.strip():
        if main.offers_collections:
            raise DraftError(F.SUBCATEGORY, ProductDraftText.COLLECTION_REQUIRED.value)
        return None
    collection_id = parse_id(text)
    if collection_id is None or collection_id not in main.collections:
        raise DraftError(F.SUBCATEGORY, ProductDraftText.COLLECTION_NOT_IN_CATEGORY.value)
    return collection_id


def _scent_notes(notes: Sequence[str] | None) -> tuple[str, ...]:
    kept: tuple[str, ...] = ()
    for note in notes or ():
        kept = add_scent_note(kept, note)
    return kept


def _read(draft: ProductDraft, categories: CategoryTree) -> tuple[NewProduct | None, list[Problem]]:
    problems: list[Problem] = []

    def check(read: Callable[[], T]) -> T | None:
        try:
            return read()
        except DraftError as error:
            problems.append((error.field, error.message))
            return None

    name = check(lambda: _required_text(draft.name, F.NAME, ProductFormMessage.NAME_REQUIRED))
    sku = check(lambda: optional_text(draft.sku, F.SKU))
    description = check(
        lambda: _required_text(draft.description, F.DESCRIPTION, ProductFormMessage.DESCRIPTION_REQUIRED)
    )
    base = check(lambda: _base_price(draft.base_price))
    sale = check(lambda: _sale_price(draft.sale_price, base))
    cost = check(lambda: parse_price(draft.cost_price, F.COST_PRICE))
    category_id = check(lambda: _category(draft.category, categories))
    collection_id = None
    if category_id is not None:  # a collection is checked against a known main category only
        main = categories[category_id]
        collection_id = check(lambda: _collection(draft.collection, main))
    stock = check(lambda: parse_stock(draft.stock))
    weight = check(lambda: parse_weight(draft.weight))
    texts: dict[DraftField, str | None] = {}
    for field in (F.DIMENSIONS, F.CARE, F.SEO_TITLE, F.SEO_DESCRIPTION, F.SIZE, F.BURN_TIME):
        typed: str | None = getattr(draft, _OPTIONAL_TEXTS[field])
        texts[field] = check(partial(optional_text, typed, field))
    if problems or name is None or description is None or base is None or stock is None:
        return None, problems
    details = tuple((f.value, value) for f in (F.SIZE, F.BURN_TIME) if (value := texts[f]) is not None)
    return (
        NewProduct(
            name=name,
            description=description,
            sku=sku,
            base_price_cents=base,
            sale_price_cents=sale,
            cost_price_cents=cost,
            category_id=category_id,
            subcategory_id=collection_id,
            stock_quantity=stock,
            is_featured=draft.is_featured,
            is_new_arrival=draft.is_new_arrival,
            tags=parse_list(draft.tags),
            weight_oz=weight,
            dimensions=texts[F.DIMENSIONS],
            care_instructions=texts[F.CARE],
            seo_title=texts[F.SEO_TITLE],
            seo_description=texts[F.SEO_DESCRIPTION],
            ingredients=parse_list(draft.ingredients),
            scent_notes=_scent_notes(draft.scent_notes),
            details=details,
        ),
        [],
    )


def sale_blocker(*, category_id: int | None, base_price_cents: int) -> str | None:
    """Why a stored product cannot be put on sale (the editors' rules for a published product: a
    category and a price above zero), or None. Activate, Convert and Reconcile ask it, so no way
    of putting a product on sale skips what the editors would refuse.

    >>> sale_blocker(category_id=None, base_price_cents=2400)
    'Category is required'
    >>> sale_blocker(category_id=3, base_price_cents=0)
    'Price must be greater than 0'
    """
    if category_id is None:
        return ProductDraftText.CATEGORY_REQUIRED.value
    if base_price_cents <= 0:
        return ProductFormMessage.PRICE_NOT_POSITIVE.value
    return None
