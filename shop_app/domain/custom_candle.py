"""The custom candle builder's rules (docs/spec/content.md#custom-creator, #custom-creator-messages;
docs/spec/limits.md#back-office; docs/spec/README.md#gaps).

A design is a vessel (a product row the shop prices, see ``services.custom_candles``), one to
three scents from the shop's fragrance palette, each at an intensity from 1 to 5, a quantity of
at least 1 and optional special instructions. It is sold as a cart line of the vessel's product
whose ``selected_options`` carry the scents (:func:`design_options`) and whose ``custom_note``
carries the instructions; the cart checks forged options with :func:`parse_design_options`.

The price is the vessel's, from the database, times the quantity: a blend costs no more than a
single scent, so the browser never has anything to price.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from shop_app.domain import free_text
from shop_app.domain.admin_messages import BuilderMessage
from shop_app.domain.pricing import MAX_QUANTITY, line_total_cents

MAX_SCENTS: Final = 3  # docs/spec/limits.md#back-office
MIN_INTENSITY: Final = 1
MAX_INTENSITY: Final = 5
DEFAULT_INTENSITY: Final = 3
MIN_QUANTITY: Final = 1
MAX_INSTRUCTIONS_LENGTH: Final = 500  # ours: fits the cart line's custom_note (1000)
STEPS: Final = 3  # vessel, scents, review
SCENT_OPTION: Final = "Scent {n}"
"""Option name of the n-th scent of a design (1-based) in a cart line's ``selected_options``."""

_OPTION_NAME = re.compile(r"^Scent ([1-9])$")
_OPTION_VALUE = re.compile(r"^(?P<name>.+) \(intensity (?P<intensity>[0-9]+)/5\)$")


class BuilderText(StrEnum):
    """The builder's texts that the seed leaves open (ours). Placeholders in the comments."""

    QUANTITY_TOO_LOW = "Quantity must be at least 1"
    QUANTITY_TOO_HIGH = "You can order at most 99 of one design"
    INSTRUCTIONS_TOO_LONG = "Special instructions can be at most 500 characters long"
    UNKNOWN_SCENT = "Please choose scents from the list"
    INTENSITY_OUT_OF_RANGE = "Scent intensity must be between 1 and 5"
    VESSEL_UNAVAILABLE = "This vessel is no longer available. Please choose another one."
    TOO_MANY_DESIGNS = "Your cart can hold up to {n} custom candle designs"  # n


@dataclass(frozen=True, slots=True)
class Scent:
    """A fragrance oil of the palette (docs/spec/content.md#custom-creator: id, name, category, description,
    notes)."""

    id: str
    name: str
    category: str
    description: str
    notes: tuple[str, ...]


SCENTS: Final[tuple[Scent, ...]] = (
    Scent(
        "lavender",
        "Lavender Fields",
        "Floral",
        "Sun-warmed lavender with a whisper of chamomile.",
        ("French lavender", "chamomile", "white musk"),
    ),
    Scent(
        "rose",
        "Wild Rose",
        "Floral",
        "Dewy rose petals picked on a summer morning.",
        ("damask rose", "peony", "green leaves"),
    ),
    Scent(
        "linen",
        "Fresh Linen",
        "Fresh",
        "Line-dried cotton and a breath of bergamot.",
        ("bergamot", "cotton blossom", "clean musk"),
    ),
    Scent(
        "eucalyptus",
        "Eucalyptus Mint",
        "Fresh",
        "A bright, spa-like blend that clears the head.",
        ("eucalyptus", "spearmint", "cool moss"),
    ),
    Scent(
        "sea-salt",
        "Sea Salt & Orchid",
        "Fresh",
        "Salty Pacific air and delicate orchid petals.",
        ("sea salt", "white orchid", "driftwood"),
    ),
    Scent(
        "cedar",
        "Cedar & Sage",
        "Woody",
        "Crisp sage over western red cedar, like a rainy coastal hike.",
        ("clary sage", "western red cedar", "vetiver"),
    ),
    Scent(
        "sandalwood",
        "Sandalwood",
        "Woody",
        "Smooth, creamy sandalwood with a hint of amber.",
        ("sandalwood", "amber", "cashmere musk"),
    ),
    Scent(
        "vanilla",
        "Vanilla Bean",
        "Sweet",
        "Rich, creamy vanilla with a soft, toasty warmth.",
        ("Madagascar vanilla", "tonka bean", "sandalwood"),
    ),
    Scent(
        "honey",
        "Honey & Oat",
        "Sweet",
        "Golden wildflower honey drizzled over warm oats.",
        ("wildflower honey", "toasted oat", "almond milk"),
    ),
    Scent(
        "citrus",
        "Pink Grapefruit",
        "Citrus",
        "Sparkling grapefruit zest with a squeeze of lime.",
        ("pink grapefruit", "lime zest", "mint leaf"),
    ),
    Scent(
        "coconut",
        "Coconut Lime",
        "Citrus",
        "Zesty lime and creamy coconut for a beach-day mood.",
        ("key lime", "coconut milk", "vanilla"),
    ),
    Scent(
        "pumpkin",
        "Pumpkin Chai",
        "Spice",
        "Spiced pumpkin and chai tea on a crisp fall afternoon.",
        ("pumpkin", "chai spice", "clove"),
    ),
)
"""The fragrance palette of the builder, in display order."""

SCENTS_BY_ID: Final = {scent.id: scent for scent in SCENTS}
_SCENTS_BY_NAME: Final = {scent.name: scent for scent in SCENTS}


@dataclass(frozen=True, slots=True)
class VesselSpec:
    """A vessel the shop offers in the builder, as first seeded (the product row is the truth)."""

    sku: str
    name: str
    size: str
    burn_time: str
    price_cents: int

    @property
    def product_name(self) -> str:
        """The name of the vessel's product row: what the cart, the order and the mail show."""
        return f"Custom Candle: {self.name} {self.size}"


STANDARD_VESSELS: Final[tuple[VesselSpec, ...]] = (
    VesselSpec("CUSTOM-TIN-4", "Travel Tin", "4 oz", "20-25 hours", 2200),
    VesselSpec("CUSTOM-TUMBLER-8", "Classic Tumbler", "8 oz", "45-50 hours", 3800),
    VesselSpec("CUSTOM-AMBER-12", "Amber Apothecary Jar", "12 oz", "65-70 hours", 4800),
    VesselSpec("CUSTOM-FROSTED-16", "Frosted Glass Jar", "16 oz", "90-100 hours", 5800),
)


@dataclass(frozen=True, slots=True)
class ScentChoice:
    """A scent of a design and its intensity (1 to 5)."""

    scent_id: str
    intensity: int = DEFAULT_INTENSITY


@dataclass(frozen=True, slots=True)
class Design:
    """A custom candle design (docs/spec/content.md#custom-creator), without its price: the server prices the
    vessel."""

    vessel_id: int | None
    scents: tuple[ScentChoice, ...]
    quantity: int = MIN_QUANTITY
    instructions: str = ""


def toggle_scent(
    selected: tuple[ScentChoice, ...], scent_id: str
) -> tuple[tuple[ScentChoice, ...], str | None]:
    """Select or deselect a scent; a fourth is refused with the seed's message.

    Examples:
        >>> chosen, problem = toggle_scent((), "vanilla")
        >>> chosen, problem
        ((ScentChoice(scent_id='vanilla', intensity=3),), None)
        >>> toggle_scent(tuple(ScentChoice(s) for s in ("rose", "cedar", "honey")), "vanilla")[1]
        'You can select up to 3 scents for your custom blend'

    Returns:
        The new selection and ``None``, or the unchanged selection and the message.
    """
    if any(choice.scent_id == scent_id for choice in selected):
        return tuple(choice for choice in selected if choice.scent_id != scent_id), None
    if scent_id not in SCENTS_BY_ID:
        return selected, BuilderText.UNKNOWN_SCENT.value
    if len(selected) >= MAX_SCENTS:
        return selected, BuilderMessage.TOO_MANY_SCENTS.value
    return (*selected, ScentChoice(scent_id)), None


def clamp_intensity(intensity: int) -> int:
    """Bring an intensity into 1..5."""
    return max(MIN_INTENSITY, min(MAX_INTENSITY, intensity))


def set_intensity(
    selected: tuple[ScentChoice, ...], scent_id: str, intensity: int
) -> tuple[ScentChoice, ...]:
    """The selection with one scent's intensity changed (clamped to 1..5); others unchanged."""
    level = clamp_intensity(intensity)
    return tuple(
        ScentChoice(choice.scent_id, level) if choice.scent_id == scent_id else choice for choice in selected
    )


def step_problem(step: int, *, vessel_id: int | None, scents: tuple[ScentChoice, ...]) -> str | None:
    """What keeps the shopper from leaving ``step`` with Next (docs/spec/content.md#custom-creator,
    #custom-creator-messages), or ``None``.

    Examples:
        >>> step_problem(1, vessel_id=None, scents=())
        'Please select a vessel size'
        >>> step_problem(2, vessel_id=4, scents=())
        'Please select at least one scent'
    """
    if step >= 1 and vessel_id is None:
        return BuilderMessage.SELECT_VESSEL.value
    if step >= 2 and not scents:
        return BuilderMessage.SELECT_SCENT.value
    return None


def validate_design(design: Design) -> str | None:
    """The first problem of a complete design, in the order the wizard asks, or ``None``."""
    problem = step_problem(STEPS, vessel_id=design.vessel_id, scents=design.scents)
    if problem is not None:
        return problem
    return (
        _scents_problem(design.scents)
        or _quantity_problem(design.quantity)
        or _instructions_problem(design.instructions)
    )


def _scents_problem(scents: tuple[ScentChoice, ...]) -> str | None:
    ids = [choice.scent_id for choice in scents]
    if len(ids) > MAX_SCENTS:
        return BuilderMessage.TOO_MANY_SCENTS.value
    if len(set(ids)) != len(ids) or any(scent_id not in SCENTS_BY_ID for scent_id in ids):
        return BuilderText.UNKNOWN_SCENT.value
    if any(not MIN_INTENSITY <= choice.intensity <= MAX_INTENSITY for choice in scents):
        return BuilderText.INTENSITY_OUT_OF_RANGE.value
    return None


def _quantity_problem(quantity: int) -> str | None:
    if quantity < MIN_QUANTITY:
        return BuilderText.QUANTITY_TOO_LOW.value
    if quantity > MAX_QUANTITY:
        return BuilderText.QUANTITY_TOO_HIGH.value
    return None


def _instructions_problem(instructions: str) -> str | None:
    return (
        BuilderText.INSTRUCTIONS_TOO_LONG.value
        if len(instructions.strip()) > MAX_INSTRUCTIONS_LENGTH
        else None
    )


def clean_instructions(instructions: str) -> str:
    """Special instructions as stored: the one sanitiser's multi-line rules (``domain.free_text``)."""
    return free_text.multiline(instructions)


def design_options(scents: Iterable[ScentChoice]) -> dict[str, str]:
    """A design's scents as cart-line options, in a canonical order (by scent name).

    The same blend chosen in another order is the same cart line.

    Examples:
        >>> design_options([ScentChoice("vanilla", 5), ScentChoice("lavender", 2)])
        {'Scent 1': 'Lavender Fields (intensity 2/5)', 'Scent 2': 'Vanilla Bean (intensity 5/5)'}
    """
    ordered = sorted(scents, key=lambda choice: SCENTS_BY_ID[choice.scent_id].name)
    return {
        SCENT_OPTION.format(n=n): f"{SCENTS_BY_ID[choice.scent_id].name} (intensity {choice.intensity}/5)"
        for n, choice in enumerate(ordered, start=1)
    }


def parse_design_options(options: Mapping[str, str]) -> tuple[ScentChoice, ...]:
    """The scents of a cart line's options; the inverse of :func:`design_options`.

    Raises:
        ValueError: When the options are not exactly one to three distinct palette scents with
            intensities 1 to 5, named ``Scent 1`` … in order (a forged or stale request).
    """
    choices: list[ScentChoice] = []
    for n, (name, value) in enumerate(sorted(options.items()), start=1):
        matched_name, matched_value = (
            _OPTION_NAME.match(str(name).strip()),
            _OPTION_VALUE.match(str(value).strip()),
        )
        if matched_name is None or int(matched_name.group(1)) != n or matched_value is None:
            msg = f"not a custom candle option: {name!r}={value!r}"
            raise ValueError(msg)
        scent = _SCENTS_BY_NAME.get(matched_value.group("name"))
        if scent is None:
            msg = f"not a scent of the palette: {matched_value.group('name')!r}"
            raise ValueError(msg)
        choices.append(ScentChoice(scent.id, int(matched_value.group("intensity"))))
    problem = _scents_problem(tuple(choices)) if choices else BuilderMessage.SELECT_SCENT.value
    if problem is not None:
        raise ValueError(problem)
    return tuple(choices)


def design_total_cents(unit_price_cents: int, quantity: int) -> int:
    """The live price of the order summary: the vessel's unit price times the quantity (≥ 1)."""
    return line_total_cents(unit_price_cents, max(MIN_QUANTITY, quantity))
