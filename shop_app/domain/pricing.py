"""Pricing of a cart line, cart line identity and quantity limits (docs/spec/cart.md#lines, #pricing;
docs/spec/limits.md#storefront).

All prices are integer cents. ``pricing`` maps an option *value* (for example ``"16oz"`` or
``"Gift Wrap"``) to a price in cents; the storefront's product data converts the seed's dollar
numbers into cents before they reach these rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from shop_app.domain.messages import CartMessage
from shop_app.domain.money import require_cents

SIZE_OPTION_NAME: Final = "size"
"""The option whose price *replaces* the running price; matched case-insensitively."""

MIN_QUANTITY: Final = 1
MAX_QUANTITY: Final = 99


def _is_size_option(name: str) -> bool:
    return name.strip().casefold() == SIZE_OPTION_NAME


def effective_sale_price(base_cents: int, sale_cents: int | None) -> int | None:
    """Return the sale price if it counts as a discount, else ``None``.

    A sale price counts only if it is above 0 and below the base price (docs/spec/cart.md#lines).

    Examples:
        >>> effective_sale_price(2000, 1500), effective_sale_price(2000, 2000)
        (1500, None)

    Args:
        base_cents: The regular price.
        sale_cents: The stored sale price, or ``None``.

    Returns:
        ``sale_cents`` when ``0 < sale_cents < base_cents``, otherwise ``None``.
    """
    require_cents(base_cents, "base_cents")
    if sale_cents is None:
        return None
    require_cents(sale_cents, "sale_cents")
    return sale_cents if 0 < sale_cents < base_cents else None


def display_price_cents(base_cents: int, sale_cents: int | None) -> int:
    """Return the price a product card or wishlist shows: the valid sale price, else the base.

    Args:
        base_cents: The regular price.
        sale_cents: The stored sale price, or ``None``.

    Returns:
        The price to display, in cents.
    """
    sale = effective_sale_price(base_cents, sale_cents)
    return base_cents if sale is None else sale


def options_price_cents(
    *, base_cents: int, pricing: Mapping[str, int], selected_options: Mapping[str, str]
) -> int:
    """Return the price of a product with its selected options, before any sale price.

    The running price starts at the base price. For each selected option whose *value* has a
    price in ``pricing``, that price replaces the running price when the option is the size
    (option name ``"size"``, any case) and is added to it for any other option.

    The seed applies the options in the order they were selected, so a size chosen after an
    add-on would wipe the add-on out. Our resolution: **the size replacement is applied first and
    every add-on after it**, so the result does not depend on the order of ``selected_options``.
    If several names match ``"size"`` (``"Size"`` and ``"size"``), the last one in sorted name
    order wins. A result below zero (negative add-on prices) is raised to 0.

    Args:
        base_cents: The regular price.
        pricing: Option value -> price in cents.
        selected_options: Option name -> chosen value.

    Returns:
        The computed price in cents, zero or more.
    """
    price = require_cents(base_cents, "base_cents")
    for name in sorted(name for name in selected_options if _is_size_option(name)):
        value = selected_options[name]
        if value in pricing:
            price = require_cents(pricing[value], f"pricing[{value!r}]")
    for name, value in selected_options.items():
        if not _is_size_option(name) and value in pricing:
            price += require_cents(pricing[value], f"pricing[{value!r}]")
    return max(price, 0)


def unit_price_cents(
    *,
    base_cents: int,
    sale_cents: int | None,
    pricing: Mapping[str, int],
    selected_options: Mapping[str, str],
) -> int:
    """Return the unit price of a cart line (docs/spec/cart.md#pricing).

    The price is :func:`options_price_cents`; then, if the sale price is above 0 and below that
    computed price, the sale price is used instead. Note the comparison is with the computed
    price, not the base price: a sale price can win over an option-raised price.

    Examples:
        >>> unit_price_cents(base_cents=2000, sale_cents=None,
        ...                  pricing={"16oz": 3200, "Gift Wrap": 300},
        ...                  selected_options={"Wrap": "Gift Wrap", "Size": "16oz"})
        3500

    Args:
        base_cents: The regular price.
        sale_cents: The stored sale price, or ``None``.
        pricing: Option value -> price in cents.
        selected_options: Option name -> chosen value.

    Returns:
        The unit price in cents.
    """
    price = options_price_cents(base_cents=base_cents, pricing=pricing, selected_options=selected_options)
    if sale_cents is not None and 0 < require_cents(sale_cents, "sale_cents") < price:
        return sale_cents
    return price


def line_total_cents(unit_cents: int, quantity: int) -> int:
    """Return unit price x quantity.

    Raises:
        ValueError: If ``quantity`` is negative.
    """
    require_cents(unit_cents, "unit_cents")
    if quantity < 0:
        raise ValueError("quantity must not be negative")
    return unit_cents * quantity


def cart_count(quantities: Iterable[int]) -> int:
    """Return the number of items in a cart: the sum of its line quantities."""
    return sum(quantities)


def clamp_quantity(n: int) -> int:
    """Bring a quantity into the stepper's range ``MIN_QUANTITY..MAX_QUANTITY`` (1..99)."""
    return max(MIN_QUANTITY, min(MAX_QUANTITY, n))


def merged_quantity(current: int, added: int) -> int:
    """Return the quantity of a line after adding ``added`` to it, capped at ``MAX_QUANTITY``.

    Adding a line whose product and options match an existing line adds to that line
    (docs/spec/cart.md#lines).
    """
    return clamp_quantity(current + added)


def quantity_after_update(requested: int) -> int | None:
    """Return the stored quantity after a shopper sets one, or ``None`` to remove the line.

    Setting a quantity to zero or less removes the line (docs/spec/cart.md#lines); above 99 is capped.
    """
    return None if requested <= 0 else clamp_quantity(requested)


def _clean_options(selected_options: Mapping[str, str]) -> dict[str, str]:
    """Trimmed names and values, without options whose name or value is empty.

    Two names equal once trimmed ("Size" and "Size ") keep the value of the one that sorts last,
    whatever order they came in: the key stays independent of the order (a hypothesis example).
    """
    cleaned: dict[str, str] = {}
    kept: dict[str, str] = {}  # trimmed name -> the raw name whose value is kept
    for raw_name, raw_value in selected_options.items():
        name, value = raw_name.strip(), raw_value.strip()
        if not (name and value) or (name in kept and kept[name] > raw_name):
            continue
        kept[name] = raw_name
        cleaned[name] = value  # a name keeps its first place (options_label's order)
    return cleaned


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("|", "%7C").replace("=", "%3D")


def options_key(selected_options: Mapping[str, str]) -> str:
    """Return a canonical, order-independent identity of the selected options.

    Cart line identity is product id + this key (docs/spec/cart.md#lines). Names and values are trimmed,
    options with an empty name or value are dropped (an empty value means nothing was chosen),
    the rest are sorted by name and written ``name=value`` joined with ``|``. ``%``, ``|`` and
    ``=`` inside names or values are percent-escaped so two different selections never share
    a key.

    Examples:
        >>> options_key({"Size": "8oz", "Scent": "Lavender"})
        'Scent=Lavender|Size=8oz'
        >>> options_key({})
        ''

    Args:
        selected_options: Option name -> chosen value.

    Returns:
        The key; ``""`` when no option is selected.
    """
    cleaned = _clean_options(selected_options)
    return "|".join(f"{_escape(name)}={_escape(cleaned[name])}" for name in sorted(cleaned))


def options_label(selected_options: Mapping[str, str]) -> str:
    """Return the chosen values in selection order, comma separated: ``"Lavender, 8oz"``."""
    return ", ".join(_clean_options(selected_options).values())


def added_to_cart_message(quantity: int, product_name: str, selected_options: Mapping[str, str]) -> str:
    """Return the add-to-cart success toast (docs/spec/cart.md#messages).

    Examples:
        >>> added_to_cart_message(2, "Soy Candle", {"Scent": "Lavender", "Size": "8oz"})
        'Added 2 Soy Candle to your cart (Lavender, 8oz)'

    Args:
        quantity: How many were added.
        product_name: The product's name.
        selected_options: Option name -> chosen value; may be empty.

    Returns:
        ``"Added {quantity} {product name} to your cart"``, followed by the option values in
        parentheses when options exist.
    """
    message = CartMessage.ADDED.format(quantity=quantity, product_name=product_name)
    label = options_label(selected_options)
    return f"{message} ({label})" if label else message


def line_label(selected_options: Mapping[str, str], custom_note: str = "") -> str:
    """Return what a cart or order line shows under its name: the options, then the note.

    The note (a custom candle's special instructions) is folded onto one line.

    Examples:
        >>> line_label({"Scent": "Lavender"}, " Gift tag:\\n  For Ana ")
        'Lavender · Note: Gift tag: For Ana'
        >>> line_label({}, ""), line_label({}, "Wrap it")
        ('', 'Note: Wrap it')
    """
    label = options_label(selected_options)
    note = " ".join(custom_note.split())
    if not note:
        return label
    return f"{label} · Note: {note}" if label else f"Note: {note}"
