"""Every stock movement and product deletion written with a Core statement records itself for
Square (docs/architecture.md#square-outbox): ORM changes are recorded by the flush listener,
but a Core ``UPDATE products … stock_quantity`` or ``DELETE FROM products`` bypasses it, so the
module that issues one must call ``record_stock`` / ``record_deletion``. A structural test: it
reads the source, runs nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT_TABLES = {"Product", "_PRODUCTS"}
# Statements that write products' Square fields but are not the shop's changes to send:
# the outbox itself and the catalogue push store Square's ids and fingerprints only.
EXEMPT = {"shop_app/services/square/outbox.py", "shop_app/services/square/catalog_push.py"}


def _chain_calls(node: ast.AST) -> list[ast.Call]:
    """The calls of a method chain such as ``sa.update(Product).where(...).values(...)``."""
    calls: list[ast.Call] = []
    while isinstance(node, ast.Call):
        calls.append(node)
        node = node.func.value if isinstance(node.func, ast.Attribute) else node.func
    return calls


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _writes(tree: ast.AST) -> tuple[bool, bool]:
    """(moves stock, deletes products) with Core statements somewhere in the module."""
    moves = deletes = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        calls = _chain_calls(node)
        roots = [c for c in calls if _name(c.func) in {"update", "delete"} and c.args]
        if not roots or _name(roots[-1].args[0]) not in PRODUCT_TABLES:
            continue
        if _name(roots[-1].func) == "delete":
            deletes = True
        values = [c for c in calls if _name(c.func) == "values"]
        if any(k.arg == "stock_quantity" for c in values for k in c.keywords):
            moves = True
    return moves, deletes


def _calls(tree: ast.AST, function: str) -> bool:
    return any(isinstance(n, ast.Call) and _name(n.func) == function for n in ast.walk(tree))


MODULES = sorted(
    path for path in (ROOT / "shop_app").rglob("*.py") if str(path.relative_to(ROOT)) not in EXEMPT
)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_stock_movements_and_deletions_are_recorded_for_square(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    moves, deletes = _writes(tree)

    if moves:
        assert _calls(tree, "record_stock"), f"{path.name} moves stock without record_stock()"
    if deletes:
        assert _calls(tree, "record_deletion"), f"{path.name} deletes products without record_deletion()"


def test_the_rule_sees_the_statements_it_is_about() -> None:
    """The checker finds the known writers (so a refactor cannot blind it)."""
    found = {
        str(path.relative_to(ROOT)): _writes(ast.parse(path.read_text(encoding="utf-8"))) for path in MODULES
    }

    assert found["shop_app/services/ordering/place.py"] == (True, False)
    assert found["shop_app/services/ordering/settle.py"] == (True, False)
    assert found["shop_app/services/admin/order_refunds.py"] == (True, False)
    assert found["shop_app/services/admin/products.py"][1] is True
