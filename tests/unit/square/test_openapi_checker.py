"""The OpenAPI checker itself, and one pass over every operation of the subset in-process."""

from __future__ import annotations

import httpx
from square import Square

from tests.unit.square.builders import run_every_operation
from tests.unit.square.openapi import SpecChecker


def _exchange(body: dict, status: int = 200) -> httpx.Response:
    request = httpx.Request(
        "POST",
        "http://sim/v2/payments",
        json={"source_id": "cnon:card-nonce-ok", "idempotency_key": "k"},
        headers={"Authorization": "Bearer t"},
    )
    return httpx.Response(status, json=body, request=request)


def test_the_checker_catches_invented_fields_wrong_types_and_bad_timestamps(spec: SpecChecker) -> None:
    problems = spec.response_errors(
        _exchange({"payment": {"id": 7, "invented": True, "created_at": "yesterday", "status": "COMPLETED"}})
    )

    assert any("7 is not of type 'string'" in p for p in problems)
    assert any("'invented' was unexpected" in p for p in problems)
    assert any("not RFC 3339" in p for p in problems)
    assert spec.response_errors(_exchange({"payment": {"id": "p"}}, status=400)) == [
        "HTTP 400 without errors[]"
    ]
    assert spec.response_errors(_exchange({"errors": [{"category": "NOPE", "code": "X"}]}, status=400))


def test_the_checker_catches_bad_requests(spec: SpecChecker) -> None:
    bad_body = httpx.Request(
        "POST", "http://sim/v2/payments", json={"idempotency_key": ""}, headers={"Authorization": "Bearer t"}
    )
    bad_query = httpx.Request(
        "GET", "http://sim/v2/catalog/list?colour=red", headers={"Authorization": "Bearer t"}
    )
    no_token = httpx.Request("GET", "http://sim/v2/catalog/list")

    assert len(spec.request_errors(bad_body)) == 2  # source_id missing, idempotency_key empty
    assert spec.request_errors(bad_query) == ["unknown query parameter 'colour'"]
    assert spec.request_errors(no_token) == ["no bearer token"]


def test_every_operation_of_the_subset_in_process(sdk: Square, spec: SpecChecker) -> None:
    spec.seen.clear()
    run_every_operation(sdk)

    assert spec.subset_operations() <= spec.seen
