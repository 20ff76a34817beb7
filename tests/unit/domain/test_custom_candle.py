"""The custom candle builder's rules: at most 3 scents, intensity 1-5, quantity, the design as
cart options and back, and the live price (docs/spec/content.md#custom-creator-messages;
docs/spec/limits.md#back-office)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shop_app.domain.admin_messages import BuilderMessage
from shop_app.domain.custom_candle import (
    MAX_INSTRUCTIONS_LENGTH,
    MAX_SCENTS,
    SCENTS,
    SCENTS_BY_ID,
    STANDARD_VESSELS,
    BuilderText,
    Design,
    ScentChoice,
    design_options,
    design_total_cents,
    parse_design_options,
    set_intensity,
    step_problem,
    toggle_scent,
    validate_design,
)
from shop_app.domain.pricing import line_label, options_key

SCENT_IDS = [scent.id for scent in SCENTS]
blends = st.lists(st.sampled_from(SCENT_IDS), min_size=1, max_size=MAX_SCENTS, unique=True).flatmap(
    lambda ids: st.tuples(*(st.builds(ScentChoice, st.just(i), st.integers(1, 5)) for i in ids))
)


def _design(**changes: object) -> Design:
    values = {"vessel_id": 7, "scents": (ScentChoice("vanilla", 4),), "quantity": 2, "instructions": ""}
    return Design(**{**values, **changes})


def test_the_palette_and_vessels_are_well_formed() -> None:
    assert len(SCENT_IDS) == len(set(SCENT_IDS)) >= 6
    assert all(scent.name and scent.category and scent.description and scent.notes for scent in SCENTS)
    assert len({v.sku for v in STANDARD_VESSELS}) == len(STANDARD_VESSELS)
    assert all(v.price_cents > 0 and v.size and v.burn_time for v in STANDARD_VESSELS)


def test_a_fourth_scent_is_refused_with_the_seeds_message_and_nothing_changes() -> None:
    chosen: tuple[ScentChoice, ...] = ()
    for scent_id in ("rose", "cedar", "honey"):
        chosen, problem = toggle_scent(chosen, scent_id)
        assert problem is None

    after, problem = toggle_scent(chosen, "vanilla")

    assert problem == "You can select up to 3 scents for your custom blend"
    assert after == chosen


def test_toggling_a_chosen_scent_removes_it_and_frees_a_place() -> None:
    chosen = (ScentChoice("rose", 5), ScentChoice("cedar"), ScentChoice("honey"))

    after, problem = toggle_scent(chosen, "cedar")
    again, again_problem = toggle_scent(after, "vanilla")

    assert (problem, again_problem) == (None, None)
    assert [c.scent_id for c in again] == ["rose", "honey", "vanilla"]
    assert again[0].intensity == 5 and again[2].intensity == 3


def test_an_unknown_scent_is_not_added() -> None:
    assert toggle_scent((), "gasoline") == ((), BuilderText.UNKNOWN_SCENT.value)


@pytest.mark.parametrize(("asked", "kept"), [(0, 1), (1, 1), (3, 3), (5, 5), (6, 5), (-4, 1)])
def test_intensity_stays_between_1_and_5(asked: int, kept: int) -> None:
    chosen = set_intensity((ScentChoice("rose"), ScentChoice("cedar", 2)), "rose", asked)

    assert chosen == (ScentChoice("rose", kept), ScentChoice("cedar", 2))


def test_next_needs_a_vessel_on_step_1_and_a_scent_on_step_2() -> None:
    assert step_problem(1, vessel_id=None, scents=()) == "Please select a vessel size"
    assert step_problem(1, vessel_id=3, scents=()) is None
    assert step_problem(2, vessel_id=3, scents=()) == "Please select at least one scent"
    assert step_problem(2, vessel_id=3, scents=(ScentChoice("rose"),)) is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({}, None),
        ({"vessel_id": None}, BuilderMessage.SELECT_VESSEL),
        ({"scents": ()}, BuilderMessage.SELECT_SCENT),
        ({"scents": tuple(ScentChoice(s) for s in SCENT_IDS[:4])}, BuilderMessage.TOO_MANY_SCENTS),
        ({"scents": (ScentChoice("rose"), ScentChoice("rose"))}, BuilderText.UNKNOWN_SCENT),
        ({"scents": (ScentChoice("petrol"),)}, BuilderText.UNKNOWN_SCENT),
        ({"scents": (ScentChoice("rose", 0),)}, BuilderText.INTENSITY_OUT_OF_RANGE),
        ({"scents": (ScentChoice("rose", 6),)}, BuilderText.INTENSITY_OUT_OF_RANGE),
        ({"quantity": 0}, BuilderText.QUANTITY_TOO_LOW),
        ({"quantity": 1}, None),
        ({"quantity": 99}, None),
        ({"quantity": 100}, BuilderText.QUANTITY_TOO_HIGH),
        ({"instructions": "x" * MAX_INSTRUCTIONS_LENGTH}, None),
        ({"instructions": " " + "x" * MAX_INSTRUCTIONS_LENGTH + " "}, None),
        ({"instructions": "x" * (MAX_INSTRUCTIONS_LENGTH + 1)}, BuilderText.INSTRUCTIONS_TOO_LONG),
    ],
)
def test_a_design_is_checked_in_the_order_the_wizard_asks(changes: dict, message: str | None) -> None:
    assert validate_design(_design(**changes)) == (message.value if message else None)


def test_a_design_reads_as_cart_options_in_a_canonical_order() -> None:
    options = design_options([ScentChoice("vanilla", 5), ScentChoice("lavender", 2)])

    assert options == {
        "Scent 1": "Lavender Fields (intensity 2/5)",
        "Scent 2": "Vanilla Bean (intensity 5/5)",
    }
    assert line_label(options, "Gift tag for Ana") == (
        "Lavender Fields (intensity 2/5), Vanilla Bean (intensity 5/5) · Note: Gift tag for Ana"
    )


@given(blend=blends, data=st.data())
def test_options_and_back_give_the_same_blend_whatever_the_order(blend: tuple, data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(blend))

    options = design_options(blend)

    assert design_options(shuffled) == options
    assert options_key(design_options(shuffled)) == options_key(options)
    assert set(parse_design_options(options)) == set(blend)
    assert len(options) == len(blend) <= MAX_SCENTS


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"Scent 1": "Vanilla Bean"},
        {"Scent 1": "Vanilla Bean (intensity 6/5)"},
        {"Scent 1": "Vanilla Bean (intensity 0/5)"},
        {"Scent 1": "Motor Oil (intensity 3/5)"},
        {"Scent 2": "Vanilla Bean (intensity 3/5)"},
        {"scent": "Vanilla Bean (intensity 3/5)"},
        {"Scent 1": "Vanilla Bean (intensity 3/5)", "Scent 2": "Vanilla Bean (intensity 4/5)"},
        {"Scent 1": "Vanilla Bean (intensity 3/5)", "Size": "16oz"},
        {f"Scent {n}": f"{s.name} (intensity 3/5)" for n, s in enumerate(SCENTS[:4], start=1)},
    ],
)
def test_forged_or_stale_options_are_not_a_design(options: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        parse_design_options(options)


@given(unit=st.integers(0, 100_000), quantity=st.integers(-5, 99))
def test_the_live_price_is_the_vessel_price_times_the_quantity(unit: int, quantity: int) -> None:
    total = design_total_cents(unit, quantity)

    assert total == unit * max(1, quantity)
    assert total >= unit


def test_every_scent_of_the_palette_round_trips() -> None:
    for scent in SCENTS:
        options = design_options([ScentChoice(scent.id, 1)])
        assert parse_design_options(options) == (ScentChoice(scent.id, 1),)
        assert SCENTS_BY_ID[scent.id] is scent
