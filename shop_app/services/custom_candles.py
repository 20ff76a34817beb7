"""The custom candle builder on the server: its vessels, and a design put in the cart.

Each vessel is a product row that is active but not listed (``Product.is_listed`` False): the
owner prices and stocks it like any product in the back office, and it is sold only as a design
from /custom-creator. A design becomes a cart line of its vessel whose options are the scents
with their intensities and whose note is the special instructions; the cart prices it from the
database like every other line, and it goes through checkout, stock and the order's snapshot
unchanged. The browser sends a vessel id, scent ids, intensities, a quantity and the
instructions; never a price.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.domain import custom_candle, pricing
from shop_app.domain.custom_candle import STANDARD_VESSELS, BuilderText, Design
from shop_app.domain.grouping import group_key
from shop_app.models import CartLine, Category, Product
from shop_app.models.base import saved_id
from shop_app.services.cart import CartError, CartOwner, CartView, add_item, find_cart

MAX_VESSELS: Final = 12
MAX_DESIGNS_PER_CART: Final = 10  # distinct designs; one design's quantity goes up to 99
STANDARD_STOCK: Final = 100  # vessels on hand when first created; the owner adjusts it
VESSEL_CATEGORY_SLUGS: Final = ("custom", "candles")  # the first that exists files the vessels
_CARE = (
    "Trim the wick to 1/4 inch before each burn. Burn for 2-3 hours at a time, until the melt "
    "pool reaches the edge. Never leave a burning candle unattended."
)
_INGREDIENTS = ["100% soy wax", "cotton wick", "phthalate-free fragrance oils"]


@dataclass(frozen=True, slots=True)
class VesselChoice:
    """A vessel of step 1 (docs/spec/content.md#custom-creator: id, name, size, price, burn time)."""

    id: int
    name: str
    size: str
    burn_time: str
    price_cents: int
    stock_quantity: int

    @property
    def in_stock(self) -> bool:
        """Whether a design in this vessel can be ordered now."""
        return self.stock_quantity > 0


def vessel_choices(session: Session) -> list[VesselChoice]:
    """The builder's vessels, cheapest first, priced from the database."""
    rows = session.exec(
        select(Product)
        .where(col(Product.is_active), col(Product.is_listed) == sa.false())
        .order_by(col(Product.base_price_cents), col(Product.id))
        .limit(MAX_VESSELS)
    ).all()
    return [_choice(row) for row in rows]


def _choice(product: Product) -> VesselChoice:
    details = product.details or {}
    return VesselChoice(
        id=saved_id(product),
        name=str(details.get("vessel") or product.name),
        size=str(details.get("size") or ""),
        burn_time=str(details.get("burn_time") or ""),
        price_cents=pricing.unit_price_cents(
            base_cents=product.base_price_cents,
            sale_cents=product.sale_price_cents,
            pricing=product.pricing or {},
            selected_options={},
        ),
        stock_quantity=product.stock_quantity,
    )


def add_design(session: Session, owner: CartOwner, design: Design) -> tuple[CartView, str]:
    """Put a design in the owner's cart as a line of its vessel, priced by the cart.

    Returns the cart and the seed's "Added 1 … to your cart (…)" confirmation.

    Raises:
        CartError: With the builder's message when the design is incomplete or invalid, the
            vessel is not (or no longer) offered, the cart already holds
            :data:`MAX_DESIGNS_PER_CART` designs, or the stock is short.
    """
    problem = custom_candle.validate_design(design)
    if problem is not None:
        raise CartError(problem)
    vessel = session.get(Product, design.vessel_id)
    if vessel is None or not vessel.is_active or vessel.is_listed:
        raise CartError(BuilderText.VESSEL_UNAVAILABLE.value)
    if _designs_in_cart(session, owner) >= MAX_DESIGNS_PER_CART:
        raise CartError(BuilderText.TOO_MANY_DESIGNS.format(n=MAX_DESIGNS_PER_CART))
    return add_item(
        session,
        owner,
        product_id=saved_id(vessel),
        quantity=design.quantity,
        selected_options=custom_candle.design_options(design.scents),
        custom_note=custom_candle.clean_instructions(design.instructions),
    )


def _designs_in_cart(session: Session, owner: CartOwner) -> int:
    cart = find_cart(session, owner)
    if cart is None:
        return 0
    return session.execute(
        select(sa.func.count())
        .select_from(CartLine)
        .join(Product, col(Product.id) == col(CartLine.product_id))
        .where(col(CartLine.cart_id) == cart.id, col(Product.is_listed) == sa.false())
    ).scalar_one()


def ensure_vessels(session: Session) -> list[Product]:
    """Create the standard vessels that do not exist yet (by SKU); return the rows created.

    A vessel the owner archived or re-priced keeps its row: nothing is recreated or changed.
    """
    skus = [spec.sku for spec in STANDARD_VESSELS]
    existing = set(session.exec(select(col(Product.sku)).where(col(Product.sku).in_(skus))).all())
    category_id = _vessel_category_id(session)
    created = []
    for spec in STANDARD_VESSELS:
        if spec.sku in existing:
            continue
        product = Product(
            name=spec.product_name,
            description=(
                f"Your own blend of up to three scents, hand-poured to order in our {spec.name.lower()} "
                f"({spec.size}). Made in British Columbia within 5 to 7 business days."
            ),
            sku=spec.sku,
            category_id=category_id,
            product_type="candles",
            group_key=group_key(spec.product_name),
            base_price_cents=spec.price_cents,
            stock_quantity=STANDARD_STOCK,
            is_listed=False,
            details={"vessel": spec.name, "size": spec.size, "burn_time": spec.burn_time},
            ingredients=list(_INGREDIENTS),
            care_instructions=_CARE,
        )
        session.add(product)
        created.append(product)
    session.flush()
    return created


def _vessel_category_id(session: Session) -> int | None:
    found = dict(
        session.execute(
            select(col(Category.slug), col(Category.id)).where(col(Category.slug).in_(VESSEL_CATEGORY_SLUGS))
        ).all()
    )
    return next((found[slug] for slug in VESSEL_CATEGORY_SLUGS if slug in found), None)
