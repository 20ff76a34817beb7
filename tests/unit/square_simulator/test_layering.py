"""The simulator is a package of its own: it needs nothing of the shop but its settings, and the
shop reaches it from three places only (the mount, ``serve``, and the Square client for local
mode)."""

from __future__ import annotations

import ast
from pathlib import Path

import shop_app

APP_DIR = Path(shop_app.__file__).parent
SIMULATOR_DIR = APP_DIR / "square_simulator"
ALLOWED_IMPORTERS = {"api/square_sim.py", "server.py", "services/square/client.py"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_simulator_needs_nothing_of_the_shop_but_its_settings() -> None:
    for path in SIMULATOR_DIR.rglob("*.py"):
        for module in _imports(path):
            if module.startswith("shop_app"):
                assert module.startswith(("shop_app.square_simulator", "shop_app.settings")), (path, module)


def test_only_the_mount_serve_and_the_local_client_import_the_simulator() -> None:
    importers = {
        str(path.relative_to(APP_DIR))
        for path in APP_DIR.rglob("*.py")
        if not path.is_relative_to(SIMULATOR_DIR)
        and any(m.startswith("shop_app.square_simulator") for m in _imports(path))
    }
    assert importers == ALLOWED_IMPORTERS
