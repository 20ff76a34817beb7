"""The local product form's rules (docs/spec/admin-products.md#local-form): checked on submit, in the seed's
order.

Fields (docs/spec/admin-products.md#local-form "Product (local form)"): Product ID, name, description,
category, subcategory (collection), base price, sale price, images, scent notes, details (size, burn time,
ingredients), Featured and New. The Product ID is the product's SKU (see
:mod:`shop_app.domain.product_draft`); it is locked in edit mode. The form has no stock field (the
seed's has none): a product added here starts with 0 in stock, and editing never touches stock, so
a form opened before a sale cannot write back an old quantity.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shop_app.domain.admin_messages import ProductFormMessage
from shop_app.domain.product_draft import (
    DraftError,
    DraftField,
    NewProduct,
    optional_text,
    parse_id,
    parse_list,
    parse_price,
)

F = DraftField


class FormInvalid(ValueError):
    """The local form's problems, in the seed's order: ``(field, message)`` pairs."""

    def __init__(self, problems: Sequence[tuple[DraftField, str]]) -> None:
        super().__init__(problems[0][1] if problems else "")
        self.problems = tuple(problems)


def add_scent_note(notes: Sequence[str], text: str) -> tuple[str, ...]:
    """The local form's scent notes after adding ``text``: trimmed; empty or duplicate is ignored.

    Duplicates are compared without regard to case ("Vanilla" and "vanilla" are one note).

    Examples:
        >>> add_scent_note(["Vanilla"], "  Amber "), add_scent_note(["Vanilla"], "vanilla")
        (('Vanilla', 'Amber'), ('Vanilla',))
    """
    note = text.strip()
    if not note or any(note.casefold() == existing.casefold() for existing in notes):
        return tuple(notes)
    return (*notes, note)


def _form_price(text: str, field: DraftField) -> tuple[int | None, str | None]:
    try:
        return parse_price(text, field), None
    except DraftError as error:
        return None, error.message


def parse_product_form(
    form: Mapping[str, str],
    *,
    image_count: int,
    scent_notes: Sequence[str],
    is_featured: bool,
    is_new_arrival: bool,
    id_locked: bool = False,
) -> NewProduct:
    """The local form as a product; :class:`FormInvalid` lists every problem in the seed's order.

    The seed's checks come first, in its order (name, Product ID, description, price, sale
    price, images, scent notes); an amount that is not a number says so at its place in that
    order. Too long texts follow. In edit mode (``id_locked``) the Product ID is not checked: it
    cannot be changed there, and ``sku`` is left ``None``.
    """

    def text(field: DraftField) -> str:
        return str(form.get(field.value, "") or "")

    problems: list[tuple[DraftField, str]] = []
    if not text(F.NAME).strip():
        problems.append((F.NAME, ProductFormMessage.NAME_REQUIRED.value))
    if not id_locked and not text(F.SKU).strip():
        problems.append((F.SKU, ProductFormMessage.ID_REQUIRED.value))
    if not text(F.DESCRIPTION).strip():
        problems.append((F.DESCRIPTION, ProductFormMessage.DESCRIPTION_REQUIRED.value))
    base, base_problem = _form_price(text(F.BASE_PRICE), F.BASE_PRICE)
    if base_problem is None and not base:
        base_problem = ProductFormMessage.PRICE_NOT_POSITIVE.value
    if base_problem:
        problems.append((F.BASE_PRICE, base_problem))
    sale, sale_problem = _form_price(text(F.SALE_PRICE), F.SALE_PRICE)
    if sale_problem is None and sale and base and sale >= base:
        sale_problem = ProductFormMessage.SALE_NOT_BELOW_PRICE.value
    if sale_problem:
        problems.append((F.SALE_PRICE, sale_problem))
    if image_count < 1:
        problems.append((F.IMAGES, ProductFormMessage.IMAGE_REQUIRED.value))
    notes = tuple(n.strip() for n in scent_notes if n.strip())
    if not notes:
        problems.append((F.SCENT_NOTES, ProductFormMessage.SCENT_NOTE_REQUIRED.value))
    texts: dict[DraftField, str | None] = {}
    for field in (F.NAME, F.SKU, F.SIZE, F.BURN_TIME):
        try:
            texts[field] = optional_text(text(field), field)
        except DraftError as error:
            problems.append((field, error.message))
    if problems:
        raise FormInvalid(problems)
    details = tuple((f.value, value) for f in (F.SIZE, F.BURN_TIME) if (value := texts[f]) is not None)
    return NewProduct(
        name=texts[F.NAME] or "",
        description=text(F.DESCRIPTION).strip(),
        sku=None if id_locked else texts[F.SKU],
        base_price_cents=base or 0,
        sale_price_cents=sale or None,
        category_id=parse_id(text(F.CATEGORY)),
        subcategory_id=parse_id(text(F.SUBCATEGORY)),
        stock_quantity=0,
        is_featured=bool(is_featured),
        is_new_arrival=bool(is_new_arrival),
        ingredients=parse_list(text(F.INGREDIENTS)),
        scent_notes=notes,
        details=details,
    )
