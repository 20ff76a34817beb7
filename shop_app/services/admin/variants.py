"""Vessel groups and scent variants (docs/spec/admin-products.md#grouped, #add-scent, #convert-to-variant,
#convert-to-single).

A vessel group is every product whose name has the same text before ``" - "``
(``domain.grouping.group_by_vessel``); each product is one scent variant of it. The grouped
view's figures and search are pure functions over the admin list
(:func:`shop_app.services.admin.products.admin_products`); the three renames and Add Scent write.
Functions flush and leave the commit to the caller; refusals raise :class:`VariantError` with
the seed's text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from sqlmodel import Session, col, select

from shop_app.domain.admin_messages import ProductFormMessage
from shop_app.domain.grouping import (
    VesselGroup,
    convert_to_single_name,
    convert_to_variant_name,
    group_by_vessel,
    group_key,
    scent_variants_label,
    split_scent,
    variation_name,
    vessel_group_name,
)
from shop_app.domain.stock import is_low_stock
from shop_app.models import Product, ProductImage
from shop_app.models.base import saved_id
from shop_app.services.admin.form_values import count_or_zero, price_or_zero, sale_price_or_none
from shop_app.services.admin.products import AdminProductRow, ProductNotFoundError, rename
from shop_app.services.catalog.search import refresh_vocabulary_on_commit

NEW_GROUP: Final = "__new__"
"""The Convert to Variant choice "create new" (a new vessel group named in the dialog)."""


class VariantError(ValueError):
    """A variant change was refused; ``str(error)`` is the seed's message for the admin."""


def _squash(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- the grouped view


@dataclass(frozen=True, slots=True)
class GroupView:
    """One vessel group of the grouped view.

    Attributes:
        base_name: The vessel group name (text before ``" - "``), first spelling seen.
        variations: Its products, in list order (newest first); the first is the group's model
            for Add Scent.
        label: 'Single product', '1 scent variant' or 'N scent variants'.
        expandable: Only a group of more than one variation opens (docs/spec/admin-products.md#grouped).
    """

    base_name: str
    variations: tuple[AdminProductRow, ...]
    label: str
    expandable: bool

    @property
    def first(self) -> AdminProductRow:
        """The group's first variation (its price, category and images are the group's)."""
        return self.variations[0]


def vessel_groups(rows: Sequence[AdminProductRow]) -> list[GroupView]:
    """Group the admin list by vessel, groups in order of their newest product."""
    return [_view(group) for group in group_by_vessel(rows)]


def _view(group: VesselGroup[AdminProductRow]) -> GroupView:
    count = len(group.variations)
    return GroupView(
        base_name=group.base_name,
        variations=group.variations,
        label=scent_variants_label(count, has_scent=bool(group.scents)),
        expandable=count > 1,
    )


def scent_of(name: str) -> str:
    """The scent a variant row shows: the text after ``" - "``, else the whole name."""
    return split_scent(name)[1] or _squash(name)


def search_groups(groups: Iterable[GroupView], search: str) -> list[GroupView]:
    """Groups whose base name or any variant name contains the search, ignoring case."""
    needle = _squash(search).casefold()
    if not needle:
        return list(groups)
    return [
        group
        for group in groups
        if needle in group.base_name.casefold() or any(needle in v.name.casefold() for v in group.variations)
    ]


@dataclass(frozen=True, slots=True)
class GroupedStats:
    """The grouped view's cards: Product Groups, Total Variants, Active Products, Low Stock."""

    groups: int
    variants: int
    in_stock: int  # "Active Products": variants with stock above 0
    low_stock: int  # above 0 and up to 5 (docs/spec/limits.md#back-office)


def grouped_stats(groups: Sequence[GroupView]) -> GroupedStats:
    """Count the groups and their variants for the stats cards."""
    variants = [v for group in groups for v in group.variations]
    return GroupedStats(
        groups=len(groups),
        variants=len(variants),
        in_stock=sum(v.stock_quantity > 0 for v in variants),
        low_stock=sum(is_low_stock(v.stock_quantity) for v in variants),
    )


# --------------------------------------------------------------------------- renames


def variant_vessel(group: str, new_vessel: str, scent: str, groups: Iterable[str]) -> str:
    """Check a Convert to Variant choice and return the vessel name to use
    (docs/spec/admin-products.md#convert-to-variant).

    Args:
        group: The chosen group's base name, or :data:`NEW_GROUP`, or "" when none.
        new_vessel: The new vessel's name (used with :data:`NEW_GROUP`).
        scent: The scent name.
        groups: The base names of the existing groups.

    Raises:
        VariantError: With the seed's message for a missing choice, a missing new vessel name
            or a group that no longer exists.
    """
    if not group.strip() or not scent.strip():
        raise VariantError(ProductFormMessage.SELECT_GROUP_AND_SCENT.value)
    if group == NEW_GROUP:
        if not new_vessel.strip():
            raise VariantError(ProductFormMessage.NEW_VESSEL_NAME_REQUIRED.value)
        return _squash(new_vessel)
    existing = {name.casefold(): name for name in groups}
    found = existing.get(_squash(group).casefold())
    if found is None:
        raise VariantError(ProductFormMessage.GROUP_NOT_FOUND.value)
    return found


def _all_names(session: Session) -> list[str]:
    return list(session.execute(select(Product.name)).scalars())


def convert_to_variant(session: Session, product_id: int, *, group: str, new_vessel: str, scent: str) -> str:
    """Rename a product to ``'{vessel} - {scent}'`` in an existing or a new vessel group.

    Only the name changes (docs/spec/admin-products.md#convert-to-variant, #calls). Returns the vessel group's
    name for the message.

    Raises:
        VariantError: The choice is incomplete or the group is gone (:func:`variant_vessel`).
        ProductNotFoundError: The product is gone.
    """
    product = session.get(Product, product_id)
    if product is None:
        raise ProductNotFoundError(product_id)
    existing = {vessel_group_name(name) for name in _all_names(session)}
    vessel = variant_vessel(group, new_vessel, scent, existing)
    rename(product, convert_to_variant_name(vessel, scent))
    session.flush()
    refresh_vocabulary_on_commit(session)
    return vessel


def convert_to_single(session: Session, product_id: int) -> str:
    """Make a variant a standalone product: the seed's renaming rule, and active
    (docs/spec/admin-products.md#convert-to-single).

    Returns the new name.

    Raises:
        ProductNotFoundError: The product is gone.
    """
    product = session.get(Product, product_id)
    if product is None:
        raise ProductNotFoundError(product_id)
    rename(product, convert_to_single_name(product.name))
    product.is_active = True
    session.flush()
    refresh_vocabulary_on_commit(session)
    return product.name


# --------------------------------------------------------------------------- Add Scent


@dataclass(frozen=True, slots=True)
class NewScent:
    """The Add New Scent Variant dialog as typed (prices and stock as text)."""

    scent: str
    price: str = ""
    sale_price: str = ""
    stock_quantity: str = ""


def add_scent(session: Session, group: str, form: NewScent) -> Product:
    """Create ``'{base} - {scent}'`` from the group's first variation (docs/spec/admin-products.md#add-scent).

    Description, category, subcategory, product type and images come from the first variation
    (the newest product of the group, as the grouped view lists it). A price of 0 (or none)
    falls back to that variation's base price; a sale price above 0 is kept, else null. The new
    product is active, not featured and not new. Its images are new rows pointing at the same
    stored files, so deleting either product keeps the files the other still shows
    (``products.delete_product`` checks).

    Raises:
        VariantError: No scent name ('Please fill in all required fields').
        ProductNotFoundError: The group has no product any more.
    """
    scent = _squash(form.scent)
    if not scent:
        raise VariantError(ProductFormMessage.REQUIRED_FIELDS.value)
    model = _first_variation(session, group)
    name = variation_name(vessel_group_name(model.name), scent)
    product = Product(
        name=name,
        group_key=group_key(name),
        description=model.description,
        category_id=model.category_id,
        subcategory_id=model.subcategory_id,
        product_type=model.product_type,
        base_price_cents=price_or_zero(form.price) or model.base_price_cents,
        sale_price_cents=sale_price_or_none(form.sale_price),
        stock_quantity=count_or_zero(form.stock_quantity),
        is_active=True,
        is_featured=False,
        is_new_arrival=False,
    )
    session.add(product)
    session.flush()
    images = session.execute(
        select(ProductImage)
        .where(col(ProductImage.product_id) == model.id)
        .order_by(col(ProductImage.display_order))
    ).scalars()
    session.add_all(
        ProductImage(
            product_id=saved_id(product),
            image_url=image.image_url,
            width=image.width,
            height=image.height,
            display_order=image.display_order,
            is_primary=image.is_primary,
            alt_text=f"{name} Image {number}",
        )
        for number, image in enumerate(images, start=1)
    )
    session.flush()
    refresh_vocabulary_on_commit(session)
    return product


def _first_variation(session: Session, group: str) -> Product:
    """The newest product of the vessel group ``group`` (names compared ignoring case)."""
    wanted = _squash(group).casefold()
    products = session.execute(
        select(col(Product.id), col(Product.name)).order_by(
            col(Product.created_at).desc(), col(Product.id).desc()
        )
    ).all()
    for row in products:
        if vessel_group_name(row.name).casefold() == wanted:
            found = session.get(Product, row.id)
            assert found is not None
            return found
    raise ProductNotFoundError(group)
