"""Grouping product variations into products (docs/spec/storefront.md#grouping;
docs/spec/admin-products.md#grouped).

Two groupings exist:

- the storefront's: products with the same size and product type are one product whose
  variations differ by vessel and scent (:func:`group_products`, keyed by :func:`group_key`);
- the back office's grouped view: products with the same base name (the vessel group, the text
  before ``" - "``) are one group with scent variants (:func:`group_by_vessel`).

The naming rules live in :mod:`shop_app.domain.product_names` and are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from shop_app.domain.admin_messages import AdminLabel
from shop_app.domain.pricing import display_price_cents
from shop_app.domain.product_names import (
    SCENT_SEPARATOR,
    STANDALONE_SUFFIX,
    VESSELS,
    ParsedName,
    base_product_name,
    convert_to_single_name,
    convert_to_variant_name,
    group_key,
    parse_product_name,
    split_scent,
    variation_name,
    vessel_group_name,
)

__all__ = [
    "SCENT_SEPARATOR",
    "STANDALONE_SUFFIX",
    "VESSELS",
    "GroupableProduct",
    "Named",
    "ParsedName",
    "ProductGroup",
    "ProductSummary",
    "VesselGroup",
    "base_product_name",
    "convert_to_single_name",
    "convert_to_variant_name",
    "group_by_vessel",
    "group_key",
    "group_products",
    "parse_product_name",
    "scent_variants_label",
    "split_scent",
    "variation_name",
    "vessel_group_name",
]


class Named(Protocol):
    """Anything with a product name."""

    @property
    def name(self) -> str:
        """The product name."""
        ...


class GroupableProduct(Protocol):
    """What :func:`group_products` needs to know of a product."""

    @property
    def id(self) -> int:
        """The product id."""
        ...

    @property
    def name(self) -> str:
        """The product name, following the naming pattern."""
        ...

    @property
    def scents(self) -> Sequence[str]:
        """The product's ``variants.scents``; may be empty."""
        ...

    @property
    def base_price_cents(self) -> int:
        """The regular price in cents."""
        ...

    @property
    def sale_price_cents(self) -> int | None:
        """The stored sale price in cents, or ``None``."""
        ...


@dataclass(frozen=True, slots=True)
class ProductSummary:
    """A ready-made :class:`GroupableProduct` for callers without their own row type."""

    id: int
    name: str
    base_price_cents: int
    sale_price_cents: int | None = None
    scents: tuple[str, ...] = ()


P = TypeVar("P", bound=GroupableProduct)
N = TypeVar("N", bound=Named)


def _distinct(values: Iterable[str]) -> tuple[str, ...]:
    """Non-empty values, first spelling kept, duplicates (ignoring case) dropped, in order."""
    seen: set[str] = set()
    result: list[str] = []
    for value in values:
        text = " ".join(value.split())
        if text and text.casefold() not in seen:
            seen.add(text.casefold())
            result.append(text)
    return tuple(result)


@dataclass(frozen=True, slots=True)
class ProductGroup(Generic[P]):
    """One storefront product made of variations.

    Attributes:
        group_key: The shared ``"size|type"`` key.
        base_product_name: Size and type of the first variation, ``"8oz Soy Candle"``.
        variations: The grouped input products, in input order.
        scents: Distinct scents, first-seen order. Per variation they come from
            ``variants.scents`` when that list is non-empty, else from the name's scent
            suffix; a lone variation without either has none.
        vessels: Distinct vessels (display spelling), first-seen order.
        sizes: Distinct sizes, first-seen order.
        base_price_cents: The lowest price a shopper can pay among the variations: each
            variation's valid sale price, else its base price.
    """

    group_key: str
    base_product_name: str
    variations: tuple[P, ...]
    scents: tuple[str, ...] = field(default=())
    vessels: tuple[str, ...] = field(default=())
    sizes: tuple[str, ...] = field(default=())
    base_price_cents: int = 0


def _scents_of(product: GroupableProduct, parsed: ParsedName) -> Sequence[str]:
    listed = [scent for scent in product.scents or () if scent.strip()]  # tolerate a NULL list
    if listed:
        return listed
    return [parsed.scent] if parsed.scent else []


def _build_group(key: str, variations: Sequence[P]) -> ProductGroup[P]:
    parsed = [parse_product_name(product.name) for product in variations]
    return ProductGroup(
        group_key=key,
        base_product_name=base_product_name(variations[0].name),
        variations=tuple(variations),
        scents=_distinct(
            scent
            for product, names in zip(variations, parsed, strict=True)
            for scent in _scents_of(product, names)
        ),
        vessels=_distinct(names.vessel for names in parsed if names.vessel),
        sizes=_distinct(names.size for names in parsed if names.size),
        base_price_cents=min(
            display_price_cents(product.base_price_cents, product.sale_price_cents) for product in variations
        ),
    )


def group_products(products: Sequence[P]) -> list[ProductGroup[P]]:
    """Group storefront products by size and product type.

    Every input product lands in exactly one group; groups come in the order of their first
    product, and variations keep their input order.

    Args:
        products: The products to group.

    Returns:
        The groups.
    """
    buckets: dict[str, list[P]] = {}
    for product in products:
        buckets.setdefault(group_key(product.name), []).append(product)
    return [_build_group(key, variations) for key, variations in buckets.items()]


@dataclass(frozen=True, slots=True)
class VesselGroup(Generic[N]):
    """One group of the back office's grouped view.

    Attributes:
        base_name: The vessel group name (the text before ``" - "``).
        variations: The products of the group, in input order.
        scents: The scent of each variation that has one, in the same order.
    """

    base_name: str
    variations: tuple[N, ...]
    scents: tuple[str, ...]


def group_by_vessel(products: Sequence[N]) -> list[VesselGroup[N]]:
    """Group products by vessel group name for the admin grouped view (docs/spec/admin-products.md#grouped).

    Names are compared ignoring case; the group shows the first spelling seen.

    Args:
        products: Products with a ``name``.

    Returns:
        The groups in order of first appearance.
    """
    buckets: dict[str, list[N]] = {}
    labels: dict[str, str] = {}
    for product in products:
        base = vessel_group_name(product.name)
        labels.setdefault(base.casefold(), base)
        buckets.setdefault(base.casefold(), []).append(product)
    return [
        VesselGroup(
            base_name=labels[key],
            variations=tuple(variations),
            scents=tuple(scent for p in variations if (scent := split_scent(p.name)[1]) is not None),
        )
        for key, variations in buckets.items()
    ]


def scent_variants_label(variation_count: int, *, has_scent: bool) -> str:
    """Return the grouped view's label: 'Single product', '1 scent variant' or 'N scent variants'.

    A group of one product without a scent suffix is a 'Single product'; otherwise the label
    counts the variations.
    """
    if variation_count <= 1 and not has_scent:
        return AdminLabel.SINGLE_PRODUCT.value
    if variation_count == 1:
        return AdminLabel.ONE_SCENT_VARIANT.value
    return AdminLabel.N_SCENT_VARIANTS.format(n=variation_count)
