"""The message catalogue matches the specification verbatim; the domain package stays pure.

The verbatim check reads the shop's specification in the repository (``docs/spec/*.md``): every
text the catalogue takes from it (all but the shop's own, ``NOT_VERBATIM_IN_SEED``) must appear
there exactly.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import re
import sys
from enum import StrEnum
from pathlib import Path

import pytest

import shop_app.domain
from shop_app.domain import admin_messages, messages
from tests.support.seed_messages import NOT_VERBATIM_IN_SEED, catalogue, seed_messages

DOMAIN_DIR = Path(shop_app.domain.__file__).parent
DOMAIN_MODULES = sorted(p.stem for p in DOMAIN_DIR.glob("*.py") if p.stem != "__init__")
SPEC_DIR = Path(__file__).resolve().parents[3] / "docs" / "spec"

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _spec_text() -> str:
    files = sorted(SPEC_DIR.glob("*.md"))
    assert files, f"the specification is missing: no docs/spec/*.md in {SPEC_DIR}"
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


@pytest.mark.parametrize(
    "member",
    seed_messages(),
    ids=lambda m: f"{type(m).__name__}.{m.name}",
)
def test_message_is_copied_verbatim_from_the_specification(member: StrEnum) -> None:
    spec = _spec_text()
    text = member.value
    # Placeholder names may differ ({n} vs {product name}); the spec also writes "N" for {n}.
    same_with_placeholders = _PLACEHOLDER.sub("{}", text) in _PLACEHOLDER.sub("{}", spec)
    same_with_n = text.replace("{n}", "N") in spec
    assert same_with_placeholders or same_with_n, f"not in docs/spec: {text!r}"


def test_exemptions_are_catalogue_members() -> None:
    assert set(NOT_VERBATIM_IN_SEED) <= set(catalogue())


def test_catalogue_has_no_duplicate_members_within_a_group() -> None:
    for module in (messages, admin_messages):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, StrEnum) and value is not StrEnum:
                # A repeated value would silently become an alias of the first member.
                assert len(value.__members__) == len(list(value)), value.__name__


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", DOMAIN_MODULES)
def test_domain_imports_only_the_standard_library_and_itself(module: str) -> None:
    for name in _imported_modules(DOMAIN_DIR / f"{module}.py"):
        top = name.split(".")[0]
        assert top in sys.stdlib_module_names or name.startswith("shop_app.domain"), name
        assert top not in {"reflex", "sqlmodel", "sqlalchemy", "pydantic"}


@pytest.mark.parametrize("module", DOMAIN_MODULES)
def test_domain_module_uses_postponed_annotations(module: str) -> None:
    source = (DOMAIN_DIR / f"{module}.py").read_text(encoding="utf-8")
    assert "from __future__ import annotations" in source


@pytest.mark.parametrize("module", DOMAIN_MODULES)
def test_docstring_examples_hold(module: str) -> None:
    imported = importlib.import_module(f"shop_app.domain.{module}")
    result = doctest.testmod(imported, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
