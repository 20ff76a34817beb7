"""Where the shop and Square disagree, field by field (docs/spec/square.md#reconcile).

The Reconcile screen compares each product with its item in Square on the fields they share:
its name, description, price (what it sells for: the sale price when it is a discount, else the
base price), whether it is for sale (the shop's active flag, Square's ``is_archived``), and its
stock. A product the shop sells that Square does not have, and an item of Square no product is
linked to, are differences too. Each difference is settled one way or the other: "use the
shop's" sends the shop's value to Square, "use Square's" takes Square's value into the shop.

Examples:
    >>> shop = ShopSide(1, "Fig Jar", "Warm.", 3000, True, 12)
    >>> [d.field for d in compare(shop, SquareSide("I1", "Fig Jar", "Warm.", 3200, False, 12))]
    [<Field.PRICE: 'price'>]
    >>> compare(shop, SquareSide("I1", "Fig Jar", "Warm.", 3000, False, 12))
    []
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from shop_app.domain.money import format_cents


class Field(StrEnum):
    """What differs."""

    NAME = "name"
    DESCRIPTION = "description"
    PRICE = "price"
    FOR_SALE = "for_sale"
    STOCK = "stock"
    NOT_IN_SQUARE = "not_in_square"
    """The shop sells the product; Square has no item for it."""
    NOT_IN_SHOP = "not_in_shop"
    """Square sells an item no product of the shop is linked to (an archived one agrees)."""


FIELD_LABELS: dict[Field, str] = {
    Field.NAME: "Name",
    Field.DESCRIPTION: "Description",
    Field.PRICE: "Price",
    Field.FOR_SALE: "For sale",
    Field.STOCK: "Stock",
    Field.NOT_IN_SQUARE: "Not in Square",
    Field.NOT_IN_SHOP: "Not in the shop",
}
ITEM_FIELDS = frozenset({Field.NAME, Field.DESCRIPTION, Field.PRICE, Field.FOR_SALE})
"""Fields sent to Square with the item (the stock goes as a count)."""
ABSENT = "—"
SHOWN_MAX = 120
"""A longer value (a description) is cut for the table, with an ellipsis."""


@dataclass(frozen=True)
class ShopSide:
    """A product as the shop holds it."""

    product_id: int
    name: str
    description: str
    price_cents: int
    """What it sells for (the sale price when it is a discount, else the base price)."""
    for_sale: bool
    stock: int
    waiting: bool = False
    """The shop's change of it has not reached Square yet (it is in the outbox)."""


@dataclass(frozen=True)
class SquareSide:
    """An item as Square holds it."""

    item_id: str
    name: str
    description: str
    price_cents: int | None
    archived: bool
    stock: int | None
    """Its IN_STOCK count at the shop's location (None: Square counts none)."""

    @property
    def for_sale(self) -> bool:
        return not self.archived


@dataclass(frozen=True)
class Difference:
    """One field on which the two sides disagree, with each side's value as text."""

    key: str
    """Stable and unique: ``p{product id}:{field}``, or ``i{item id}:not_in_shop``."""
    field: Field
    product_id: int | None
    item_id: str | None
    label: str
    """The product's name (the shop's; Square's for an item the shop does not have)."""
    shop: str
    square: str
    waiting: bool = False
    """The shop's value is on its way to Square: taking Square's would undo the owner's edit."""

    @property
    def can_use_squares(self) -> bool:
        """Square has something to take ("Not in Square" has not), and no edit of the shop's is
        still on its way to Square."""
        return self.field is not Field.NOT_IN_SQUARE and not self.waiting

    @property
    def shown(self) -> tuple[str, str]:
        """Both values as the owner saw them: a choice applies only while they are still these."""
        return (self.shop, self.square)


def key_of(field: Field, *, product_id: int | None = None, item_id: str | None = None) -> str:
    """The difference's key (see ``Difference.key``)."""
    return f"p{product_id}:{field.value}" if product_id is not None else f"i{item_id}:{field.value}"


def shown(text: str) -> str:
    """A value as the table shows it: stripped, cut at ``SHOWN_MAX``, a dash when empty.

    >>> shown("  ")
    '—'
    >>> len(shown("x" * 500))
    120
    """
    text = " ".join(text.split())
    if not text:
        return ABSENT
    return text if len(text) <= SHOWN_MAX else text[: SHOWN_MAX - 1] + "…"


def _yes_no(value: bool) -> str:
    return "Yes" if value else "No"


def compare(shop: ShopSide, square: SquareSide) -> list[Difference]:
    """The fields on which a linked product and its item disagree, in the table's order."""
    pairs: list[tuple[Field, str, str, bool]] = [
        (Field.NAME, shop.name, square.name, shop.name.strip() != square.name.strip()),
        (Field.DESCRIPTION, shop.description, square.description, shop.description != square.description),
        (
            Field.PRICE,
            format_cents(shop.price_cents),
            ABSENT if square.price_cents is None else format_cents(square.price_cents),
            shop.price_cents != square.price_cents,
        ),
        (Field.FOR_SALE, _yes_no(shop.for_sale), _yes_no(square.for_sale), shop.for_sale != square.for_sale),
        (
            Field.STOCK,
            str(max(0, shop.stock)),
            ABSENT if square.stock is None else str(square.stock),
            max(0, shop.stock) != (square.stock or 0),
        ),
    ]
    return [
        Difference(
            key=key_of(field, product_id=shop.product_id),
            field=field,
            product_id=shop.product_id,
            item_id=square.item_id,
            label=shop.name,
            shop=shown(ours),
            square=shown(theirs),
            waiting=shop.waiting,
        )
        for field, ours, theirs, differs in pairs
        if differs
    ]


def not_in_square(shop: ShopSide) -> Difference:
    """A product the shop sells that Square has no item for."""
    return Difference(
        key=key_of(Field.NOT_IN_SQUARE, product_id=shop.product_id),
        field=Field.NOT_IN_SQUARE,
        product_id=shop.product_id,
        item_id=None,
        label=shop.name,
        shop=f"{format_cents(shop.price_cents)}, {max(0, shop.stock)} in stock",
        square=ABSENT,
        waiting=shop.waiting,
    )


def not_in_shop(square: SquareSide) -> Difference:
    """An item of Square no product of the shop is linked to."""
    price = ABSENT if square.price_cents is None else format_cents(square.price_cents)
    return Difference(
        key=key_of(Field.NOT_IN_SHOP, item_id=square.item_id),
        field=Field.NOT_IN_SHOP,
        product_id=None,
        item_id=square.item_id,
        label=square.name or square.item_id,
        shop=ABSENT,
        square=f"{price}, for sale",
    )
