"""Writes ``square-openapi-subset.json`` beside this file: the part of Square's OpenAPI that the
tests validate the simulator against (see README.md here).

    python tests/support/square_openapi/make_subset.py SOURCE.json

SOURCE is Square's published specification (``api.json`` of github.com/square/connect-api-specification,
Square-Version 2025-08-20) or an earlier extraction of it. The script keeps the operations the shop
calls (``OPERATIONS``), every schema they reach (with ``Payment``, ``PaymentRefund``,
``CatalogObject``, ``Error`` and ``ErrorCode`` for the simulator's extra read endpoints), applies
the three fix-ups the validator needs, and drops prose (descriptions, summaries, examples) that no
test reads. Nothing else is changed: types, enums, ``required``, ``readOnly``, ``x-endpoint-errors``
and ``x-square-generic-error-codes`` are Square's.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

OPERATIONS = (
    "BatchChangeInventory",
    "BatchDeleteCatalogObjects",
    "BatchRetrieveInventoryCounts",
    "BatchUpsertCatalogObjects",
    "CreateCatalogImage",
    "CreatePayment",
    "DeleteCatalogObject",
    "ListCatalog",
    "RefundPayment",
    "SearchCatalogObjects",
    "UpsertCatalogObject",
)
EXTRA_SCHEMAS = ("Payment", "PaymentRefund", "CatalogObject", "Error", "ErrorCode")
PROSE = frozenset({"description", "summary", "example", "examples", "x-release-status", "x-is-beta"})
INFO_KEYS = ("version", "title", "license", "x-square-generic-error-codes")
TARGET = Path(__file__).with_name("square-openapi-subset.json")
REF = re.compile(r"#/components/schemas/(\w+)")


def _strip(value: Any, *, names: bool = False) -> Any:
    """``value`` without prose keys; the keys of a ``properties`` map are names, kept as they are."""
    if isinstance(value, dict):
        return {
            key: _strip(item, names=key == "properties" and not names)
            for key, item in value.items()
            if names or key not in PROSE
        }
    if isinstance(value, list):
        return [_strip(item) for item in value]
    return value


def _reachable(schemas: dict[str, Any], roots: set[str]) -> list[str]:
    seen: set[str] = set()
    todo = sorted(roots)
    while todo:
        name = todo.pop()
        if name not in seen and name in schemas:
            seen.add(name)
            todo += REF.findall(json.dumps(schemas[name]))
    return sorted(seen)


def subset(source: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for template, item in source["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and operation.get("operationId") in OPERATIONS:
                paths.setdefault(template, {})[method] = operation
    found = {op["operationId"] for item in paths.values() for op in item.values()}
    missing = set(OPERATIONS) - found
    if missing:
        raise SystemExit(f"operations not in the source: {sorted(missing)}")
    schemas = copy.deepcopy(source["components"]["schemas"])
    # Fix-up 1: an enum the SDK knows and api.json references without defining.
    schemas.setdefault(
        "CatalogModifierToggleOverrideType", {"type": "string", "enum": ["NO", "YES", "NOT_SET"]}
    )
    # Fix-up 2: RiskEvaluation requires a field it does not declare.
    risk = schemas.get("RiskEvaluation", {})
    if "status" in risk.get("required", []) and "status" not in risk.get("properties", {}):
        risk["required"] = [r for r in risk["required"] if r != "status"]
        if not risk["required"]:
            del risk["required"]
    info = copy.deepcopy(source["info"])
    # Fix-up 3: OpenAPI 3.0 allows externalDocs at the top level only.
    external = info.pop("externalDocs", source.get("externalDocs"))
    roots = set(REF.findall(json.dumps(paths))) | set(EXTRA_SCHEMAS)
    out = {
        "openapi": source["openapi"],
        "info": {key: info[key] for key in INFO_KEYS if key in info},
        "servers": source.get("servers", []),
        "components": {
            "securitySchemes": {
                name: {k: v for k, v in scheme.items() if k != "flows"}
                for name, scheme in source["components"].get("securitySchemes", {}).items()
            },
            "schemas": {name: schemas[name] for name in _reachable(schemas, roots)},
        },
        "paths": paths,
    }
    if external:
        out["externalDocs"] = external
    out["info"]["x-subset-of"] = {
        "repo": "square/connect-api-specification",
        "file": "api.json",
        "square_version": "2025-08-20",
        "operations": list(OPERATIONS),
        "made_by": "tests/support/square_openapi/make_subset.py",
    }
    return _strip(out)


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        raise SystemExit(__doc__)
    source = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    TARGET.write_text(json.dumps(subset(source), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {TARGET} ({TARGET.stat().st_size} bytes)\n")


if __name__ == "__main__":
    main(sys.argv)
