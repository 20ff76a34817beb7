"""The event guard's argument checks: what a browser may send for each annotated parameter."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reflex_base.utils.form import FORM_DATA_ENTRIES_KEY
from starlette.datastructures import UploadFile

from shop_app.services.sessions import SessionUser
from shop_app.state.event_guard import (
    MAX_INT,
    MAX_ITEMS,
    MAX_TEXT_CHARS,
    Param,
    checkable,
    conforms,
    payload_problem,
)

ADD = (
    Param("product_id", int, required=True),
    Param("quantity", int, required=False),
    Param("options", dict[str, str] | None, required=False),
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=20,
)


def test_a_well_formed_call_passes() -> None:
    assert payload_problem(ADD, {"product_id": 12}) == ""
    assert payload_problem(ADD, {"product_id": "12", "quantity": 3, "options": {"Scent": "Lavender"}}) == ""
    assert payload_problem(ADD, {"product_id": 12, "options": None}) == ""


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ([12], "not an object"),
        ({}, "missing arguments ['product_id']"),
        ({"product_id": 1, "user_id": 2}, "unknown arguments ['user_id']"),
        ({"product_id": 10**30}, "'product_id'"),
        ({"product_id": MAX_INT + 1}, "'product_id'"),
        ({"product_id": True}, "'product_id'"),
        ({"product_id": 1.5}, "'product_id'"),
        ({"product_id": "1e3"}, "'product_id'"),
        ({"product_id": "99999999999"}, "'product_id'"),
        ({"product_id": "²"}, "'product_id'"),  # str.isdigit says yes, int() raises
        ({"product_id": "-²"}, "'product_id'"),
        ({"product_id": "--1"}, "'product_id'"),
        ({"product_id": "٣"}, "'product_id'"),
        ({"product_id": {"id": 1}}, "'product_id'"),
        ({"product_id": 1, "options": {"Scent": ["Lavender"]}}, "'options'"),
        ({"product_id": 1, "options": ["Scent"]}, "'options'"),
        ({"product_id": 1, "options": {str(n): "x" for n in range(MAX_ITEMS + 1)}}, "'options'"),
    ],
)
def test_a_malformed_call_is_refused_with_its_reason(payload: Any, reason: str) -> None:
    assert reason in payload_problem(ADD, payload)


def test_a_submitted_form_is_checked_as_the_dict_the_handler_receives() -> None:
    search = (Param("form_data", dict[str, str], required=True),)
    wrapped = {FORM_DATA_ENTRIES_KEY: [["query", "lavender"], ["source", "header"]]}

    assert payload_problem(search, {"form_data": wrapped}) == ""
    for bad in (
        {FORM_DATA_ENTRIES_KEY: [["query", {"nested": 1}]]},
        {FORM_DATA_ENTRIES_KEY: [["query"]]},
        {FORM_DATA_ENTRIES_KEY: "not entries"},
        {FORM_DATA_ENTRIES_KEY: [["q", "x"]] * (MAX_ITEMS + 1)},
    ):
        assert "'form_data'" in payload_problem(search, {"form_data": bad})


def test_a_forged_object_never_fits_a_plain_parameter() -> None:
    forged = {
        "session_id": 1,
        "user_id": 0,
        "email": "",
        "first_name": "",
        "last_name": "",
        "is_admin": True,
        "email_verified": True,
        "remember_me": False,
    }
    assert not conforms(forged, str)
    assert not conforms(forged, int)
    assert not conforms(forged, SessionUser)  # and no handler may take one:
    assert not checkable(SessionUser)
    assert not checkable(dict[str, SessionUser])


def test_texts_lists_and_uploads_are_bounded() -> None:
    assert conforms("x" * MAX_TEXT_CHARS, str)
    assert not conforms("x" * (MAX_TEXT_CHARS + 1), str)
    assert conforms(["a"] * MAX_ITEMS, list[str])
    assert not conforms(["a"] * (MAX_ITEMS + 1), list[str])
    assert not conforms([{"filename": "x.png"}], list[UploadFile])  # JSON is never a file
    assert not conforms(float("nan"), float) and not conforms("inf", float)
    assert not conforms("a\ud800b", str)  # a lone surrogate is no text (it cannot be sent back)
    deep: Any = "leaf"
    for _ in range(6):
        deep = {"k": deep}
    assert not conforms(deep, dict)


@given(value=json_values)
def test_whatever_passes_for_an_int_is_a_32_bit_whole_number(value: Any) -> None:
    if conforms(value, int):
        number = int(value)
        assert -MAX_INT <= number <= MAX_INT and not isinstance(value, bool | float)


@given(value=json_values)
def test_whatever_passes_for_a_form_is_a_small_json_object(value: Any) -> None:
    if conforms(value, dict):
        assert isinstance(value, dict) and len(value) <= MAX_ITEMS
        json.dumps(value, allow_nan=False)  # plain, finite JSON


@given(payload=st.dictionaries(st.text(max_size=20), json_values, max_size=6) | json_values)
def test_the_guard_answers_any_payload_without_raising(payload: Any) -> None:
    assert isinstance(payload_problem(ADD, payload), str)
