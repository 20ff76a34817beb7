"""Import cycles between the states: none where one was removed (issue 16, item 3).

Every ``import`` counts, the ones inside functions too: an import moved into a function to
"avoid an import cycle" still is one, only hidden until the function runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import shop_app

ROOT = Path(shop_app.__file__).parent


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Every shop_app module and the shop_app modules it imports, anywhere in its code."""
    modules = {_module(path): path for path in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[name] = {target for target in found if target in modules and target != name}
    return graph


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> list[str] | None:
    """An import path from ``start`` to ``goal``, or None."""
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop()
        for target in sorted(graph[path[-1]]):
            if target == goal:
                return [*path, goal]
            if target not in seen:
                seen.add(target)
                paths.append([*path, target])
    return None


def test_the_sign_in_dialog_does_not_import_the_favourites() -> None:
    graph = _imports()

    assert "shop_app.state.auth_dialog" in _imports()["shop_app.state.wishlist"]  # the one direction
    assert _reaches(graph, "shop_app.state.auth_dialog", "shop_app.state.wishlist") is None
