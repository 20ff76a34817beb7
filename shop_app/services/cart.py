"""The shopping cart: lines in the database under a cart cookie (guests) or the user (customers).

Nothing here trusts the browser: it sends a product id, options and a quantity; prices, totals
and stock come from the database every time. Quantities stay within 1..99 and within stock.

A product that is not listed is a custom candle builder's vessel: its lines carry a design (the
scents as options, checked against the palette by ``domain.custom_candle``) and the shopper's
special instructions as the line's note, which is part of the line's identity.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain import custom_candle, pricing
from shop_app.domain.cart_cookie import TOKEN_BYTES
from shop_app.domain.messages import CartMessage
from shop_app.domain.orders import OrderStatus
from shop_app.domain.validation import insufficient_stock_message
from shop_app.models import Cart, CartLine, Order, Product
from shop_app.models.base import saved_id, utcnow
from shop_app.services.catalog.filters import primary_image_url, primary_image_width

MAX_NOTE_LENGTH = 1000  # cart_lines.custom_note


class CartError(ValueError):
    """A cart change was refused; the message is for the shopper."""


@dataclass(frozen=True, slots=True)
class CartOwner:
    """Whose cart: a signed-in user, else the holder of the cart cookie."""

    token: str = ""
    user_id: int | None = None


@dataclass(frozen=True, slots=True)
class CartLineView:
    """A priced cart line."""

    line_id: int
    product_id: int
    name: str
    image_url: str
    image_width: int | None
    selected_options: dict[str, str]
    options_label: str
    quantity: int
    unit_price_cents: int
    line_total_cents: int
    stock_quantity: int
    listed: bool = True  # False: a custom candle design (no product page)
    category_ids: tuple[int, ...] = ()  # the product's main category and collection (discount codes)


@dataclass(frozen=True, slots=True)
class CartView:
    """The cart as the shopper sees it."""

    lines: list[CartLineView]
    discount_code: str = ""  # entered in the cart or at checkout (checked whenever it is priced)

    @property
    def count(self) -> int:
        """Number of items (sum of quantities), shown on the cart badge."""
        return pricing.cart_count(line.quantity for line in self.lines)

    @property
    def subtotal_cents(self) -> int:
        """Sum of the line totals."""
        return sum(line.line_total_cents for line in self.lines)


EMPTY_CART = CartView(lines=[])


def new_token() -> str:
    """A fresh cart cookie value."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the database stores of a cart cookie: its SHA-256 (``carts.token_hash``)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def find_cart(session: Session, owner: CartOwner) -> Cart | None:
    """The owner's cart, if they have one."""
    if owner.user_id is not None:
        return session.exec(select(Cart).where(Cart.user_id == owner.user_id)).first()
    if owner.token:
        return session.exec(select(Cart).where(Cart.token_hash == token_hash(owner.token))).first()
    return None


def _cart_for_update(session: Session, owner: CartOwner) -> Cart:
    cart = find_cart(session, owner)
    if cart is not None:
        return cart
    if owner.user_id is None and not owner.token:
        msg = "a cart needs a cookie token or a user"
        raise ValueError(msg)
    cart = Cart(user_id=owner.user_id, token_hash=None if owner.user_id else token_hash(owner.token))
    session.add(cart)
    session.flush()
    return cart


def view_cart(session: Session, owner: CartOwner) -> CartView:
    """The owner's cart, priced from the database (lines of archived products are dropped)."""
    cart = find_cart(session, owner)
    return EMPTY_CART if cart is None else _view(session, cart)


def add_item(
    session: Session,
    owner: CartOwner,
    *,
    product_id: int,
    quantity: int = 1,
    selected_options: Mapping[str, str] | None = None,
    custom_note: str = "",
) -> tuple[CartView, str]:
    """Add ``quantity`` of a product with its options and note; same product, options and note
    add up.

    Returns the cart and the seed's confirmation, "Added 2 … to your cart (Lavender)".
    Raises CartError when the product is gone, an option is not offered, a required scent is
    missing, a custom candle design is not valid, or the cart would hold more than the stock.
    """
    product = _active_product(session, product_id)
    options = _checked_options(product, selected_options or {})
    note = custom_note.strip()[:MAX_NOTE_LENGTH]
    quantity = pricing.clamp_quantity(quantity)
    cart = _cart_for_update(session, owner)
    key = _line_key(options, note)
    line = session.exec(
        select(CartLine).where(
            CartLine.cart_id == cart.id, CartLine.product_id == product.id, CartLine.options_key == key
        )
    ).first()
    new_quantity = pricing.merged_quantity(line.quantity if line else 0, quantity)
    _check_stock(session, cart, product, line, new_quantity)
    if line is None:
        line = CartLine(
            cart_id=saved_id(cart),
            product_id=saved_id(product),
            options_key=key,
            selected_options=options,
            custom_note=note,
        )
    line.quantity = new_quantity
    line.updated_at = cart.updated_at = utcnow()
    session.add_all([line, cart])
    session.flush()
    message = pricing.added_to_cart_message(quantity, product.name, options)
    return _view(session, cart), message


def set_quantity(session: Session, owner: CartOwner, *, line_id: int, quantity: int) -> CartView:
    """Set a line's quantity; zero or less removes the line. Refuses more than the stock."""
    cart = find_cart(session, owner)
    line = _own_line(session, cart, line_id)
    if cart is None or line is None:  # no cart, no line of it
        return view_cart(session, owner)
    new_quantity = pricing.quantity_after_update(quantity)
    if new_quantity is None:
        session.delete(line)
    else:
        product = _active_product(session, line.product_id)
        _check_stock(session, cart, product, line, new_quantity)
        line.quantity = new_quantity
        line.updated_at = utcnow()
        session.add(line)
    session.flush()
    return _view(session, cart)


def remove_line(session: Session, owner: CartOwner, *, line_id: int) -> CartView:
    """Remove a line from the owner's cart (a line of another cart is ignored)."""
    return set_quantity(session, owner, line_id=line_id, quantity=0)


def clear(session: Session, owner: CartOwner) -> None:
    """Empty the owner's cart."""
    cart = find_cart(session, owner)
    if cart is not None:
        clear_cart(session, cart_id=saved_id(cart))


def clear_cart(session: Session, *, cart_id: int) -> None:
    """Empty a cart (the one a paid order was placed from), and take its discount code off: the
    order used it, and the next items must not get it without the shopper asking."""
    session.execute(sa.delete(CartLine).where(col(CartLine.cart_id) == cart_id))
    session.execute(
        sa.update(Cart)
        .where(col(Cart.id) == cart_id)
        .values(discount_code=None)
        .execution_options(synchronize_session=False)
    )
    session.flush()


def _active_product(session: Session, product_id: int) -> Product:
    product = session.get(Product, product_id)
    if product is None or not product.is_active:
        raise CartError(CartMessage.PRODUCT_UNAVAILABLE)
    return product


def _line_key(options: Mapping[str, str], note: str) -> str:
    """The line's identity within its product: the options, and a digest of the note if any.

    Every segment of ``options_key`` holds an ``=``; the note's segment has none, so the two
    never collide.
    """
    key = pricing.options_key(options)
    if not note:
        return key
    digest = hashlib.sha256(note.encode("utf-8")).hexdigest()[:16]
    return f"{key}|note:{digest}" if key else f"note:{digest}"


def _checked_options(product: Product, selected: Mapping[str, str]) -> dict[str, str]:
    """Keep only offered option values; a product with scent options needs one chosen.

    A custom candle vessel (not listed) takes exactly a design's scents, in canonical form.
    """
    if not product.is_listed:
        try:
            return custom_candle.design_options(custom_candle.parse_design_options(selected))
        except ValueError as error:
            raise CartError(CartMessage.INVALID_OPTION) from error
    offered = {
        name.removesuffix("s"): [str(v) for v in values]
        for name, values in (product.variants or {}).items()
        if isinstance(values, list) and values
    }
    options: dict[str, str] = {}
    for raw_name, raw_value in selected.items():
        name, value = str(raw_name).strip().lower(), str(raw_value).strip()
        if not value:
            continue
        if value not in offered.get(name, []):
            raise CartError(CartMessage.INVALID_OPTION)
        options[name] = value
    if "scent" in offered and "scent" not in options:
        raise CartError(CartMessage.SELECT_A_SCENT)
    return options


def _check_stock(
    session: Session, cart: Cart, product: Product, line: CartLine | None, quantity: int
) -> None:
    """The cart may not hold more of a product (over all its option lines) than the stock."""
    others = session.execute(
        select(sa.func.coalesce(sa.func.sum(CartLine.quantity), 0)).where(
            CartLine.cart_id == cart.id,
            CartLine.product_id == product.id,
            CartLine.id != (line.id if line is not None and line.id is not None else -1),
        )
    ).scalar_one()
    requested = others + quantity
    if requested > product.stock_quantity:
        raise CartError(insufficient_stock_message(product.name, product.stock_quantity, requested))


def _own_line(session: Session, cart: Cart | None, line_id: int) -> CartLine | None:
    if cart is None:
        return None
    return session.exec(select(CartLine).where(CartLine.id == line_id, CartLine.cart_id == cart.id)).first()


def _view(session: Session, cart: Cart) -> CartView:
    rows = session.execute(
        select(
            CartLine,
            Product,
            primary_image_url(col(Product.id)).label("image_url"),
            primary_image_width(col(Product.id)).label("image_width"),
        )
        .join(Product, col(Product.id) == col(CartLine.product_id))
        .where(col(CartLine.cart_id) == cart.id, col(Product.is_active))
        .order_by(col(CartLine.created_at), col(CartLine.id))
    ).all()
    lines = []
    for line, product, image_url, image_width in rows:
        unit = pricing.unit_price_cents(
            base_cents=product.base_price_cents,
            sale_cents=product.sale_price_cents,
            pricing=product.pricing or {},
            selected_options=line.selected_options,
        )
        lines.append(
            CartLineView(
                line_id=line.id,
                product_id=product.id,
                name=product.name,
                image_url=image_url or "",
                image_width=image_width,
                selected_options=dict(line.selected_options),
                options_label=pricing.line_label(line.selected_options, line.custom_note),
                quantity=line.quantity,
                unit_price_cents=unit,
                line_total_cents=pricing.line_total_cents(unit, line.quantity),
                stock_quantity=product.stock_quantity,
                listed=product.is_listed,
                category_ids=tuple(
                    filed for filed in (product.category_id, product.subcategory_id) if filed is not None
                ),
            )
        )
    return CartView(lines=lines, discount_code=cart.discount_code or "")


def merge_guest_cart(session: Session, *, token: str, user_id: int) -> None:
    """On sign-in, move the guest cart's lines into the customer's cart.

    Lines with the same product, options and note add up, capped at 99 and at the stock; lines of
    products that are gone are dropped. The guest cart is deleted.

    Not while either cart is being paid for (an order of it awaits payment,
    docs/architecture.md#orders-and-payment): the lines of an order being paid must not reappear in another
    cart, where they could be ordered again, and lines added to a cart being paid would be emptied with it
    when the payment completes. Both carts' rows are locked first, as placing an order locks its cart, so the
    two never interleave; the guest cart then stays as it is and merges at a later sign-in.
    """
    guest = find_cart(session, CartOwner(token=token)) if token else None
    if guest is None:
        return
    owner = CartOwner(user_id=user_id)
    mine = find_cart(session, owner)
    if being_paid(session, saved_id(guest)) or (mine is not None and being_paid(session, saved_id(mine))):
        return
    for line in session.exec(
        select(CartLine).where(col(CartLine.cart_id) == guest.id).order_by(col(CartLine.id))
    ).all():
        product = session.get(Product, line.product_id)
        if product is None or not product.is_active or product.stock_quantity <= 0:
            continue
        cart = _cart_for_update(session, owner)
        in_cart = session.execute(
            select(sa.func.coalesce(sa.func.sum(CartLine.quantity), 0)).where(
                CartLine.cart_id == cart.id, CartLine.product_id == product.id
            )
        ).scalar_one()
        quantity = min(line.quantity, product.stock_quantity - in_cart)
        if quantity > 0:
            try:
                add_item(
                    session,
                    owner,
                    product_id=saved_id(product),
                    quantity=quantity,
                    selected_options=line.selected_options,
                    custom_note=line.custom_note,
                )
            except CartError:
                continue
    if guest.discount_code:  # a code entered before signing in comes along, unless one is there
        cart = _cart_for_update(session, owner)
        cart.discount_code = cart.discount_code or guest.discount_code
        session.add(cart)
    session.delete(guest)
    session.flush()


def being_paid(session: Session, cart_id: int) -> bool:
    """Lock the cart's row for this transaction and say whether an order of it awaits payment."""
    session.execute(
        sa.update(Cart)
        .where(col(Cart.id) == cart_id)
        .values(updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    waiting = session.execute(
        select(Order.id).where(Order.cart_id == cart_id, Order.status == OrderStatus.AWAITING_PAYMENT.value)
    ).first()
    return waiting is not None
