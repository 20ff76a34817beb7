"""Every seed message has a browser journey (issue 15, acceptance 4).

The tables are in ``tests/support/message_journeys``: a message is either SHOWN by a named e2e
test, which names it (the member or its text), or NOT_SHOWN by the shop at all, which its code
then must not use.
"""

from __future__ import annotations

import ast
import re
from enum import StrEnum
from functools import cache
from pathlib import Path

import pytest

from tests.support import message_journeys
from tests.support.message_journeys import SECTIONS, identity
from tests.support.seed_messages import catalogue, seed_messages

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "tests" / "e2e"
APP = ROOT / "shop_app"
MESSAGE_MODULES = {"shop_app.domain.messages", "shop_app.domain.admin_messages"}
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _label(member: StrEnum) -> str:
    return f"{type(member).__name__}.{member.name}"


def _aliases(tree: ast.Module, class_name: str) -> set[str]:
    """The names under which a module refers to a message class (``from … import X as M``)."""
    names = {class_name}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in MESSAGE_MODULES:
            names |= {alias.asname for alias in node.names if alias.name == class_name and alias.asname}
    return names


def _names_member(source: str, tree: ast.Module, member: StrEnum) -> bool:
    """Whether ``source`` refers to ``member`` (``Class.MEMBER``, by any alias of the class)."""
    return any(
        re.search(rf"\b{re.escape(alias)}\.{member.name}\b", source)
        for alias in _aliases(tree, type(member).__name__)
    )


def _quotes_text(source: str, member: StrEnum) -> bool:
    """Whether ``source`` has every fixed part (3+ characters) of the message's text."""
    parts = [part.strip() for part in _PLACEHOLDER.split(member.value) if len(part.strip()) >= 3]
    return bool(parts) and all(part in source for part in parts)


@cache
def _module(file_name: str) -> tuple[str, ast.Module]:
    source = (E2E / file_name).read_text(encoding="utf-8")
    return source, ast.parse(source)


def _test_source(reference: str) -> tuple[str, ast.Module]:
    """The test's source with the module-level helpers it calls (one level deep)."""
    file_name, _, test_name = reference.partition("::")
    assert (E2E / file_name).is_file(), f"no file tests/e2e/{file_name}"
    source, tree = _module(file_name)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert test_name.startswith("test_") and test_name in functions, f"no test {reference}"
    test = functions[test_name]
    called = {
        node.func.id
        for node in ast.walk(test)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    helpers = [functions[name] for name in sorted(called) if name in functions and name != test_name]
    return "\n".join(ast.get_source_segment(source, node) or "" for node in (test, *helpers)), tree


@cache
def _app_references() -> frozenset[str]:
    """``Class.MEMBER`` for every message member the shop's code uses (aliases resolved)."""
    found: set[str] = set()
    for path in APP.rglob("*.py"):
        if path.parent.name == "domain" and path.stem in {"messages", "admin_messages"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        alias_of = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in MESSAGE_MODULES:
                alias_of |= {alias.asname or alias.name: alias.name for alias in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                owner = node.value
                if isinstance(owner, ast.Name) and owner.id in alias_of:
                    found.add(f"{alias_of[owner.id]}.{node.attr}")
                elif (  # messages.AuthMessage.X
                    isinstance(owner, ast.Attribute)
                    and isinstance(owner.value, ast.Name)
                    and owner.value.id in {"messages", "admin_messages"}
                ):
                    found.add(f"{owner.attr}.{node.attr}")
    return frozenset(found)


def test_sections_do_not_overlap_and_hold_only_catalogue_members() -> None:
    seen: dict[tuple[str, str], str] = {}
    members = {identity(member) for member in catalogue()}
    for section in SECTIONS:
        where = section.__name__.rsplit(".", 1)[-1]
        for table in (section.SHOWN, section.NOT_SHOWN):
            for member in table:
                assert identity(member) in members, f"{member!r} is not a catalogue member"
                assert identity(member) not in seen, (
                    f"{_label(member)} is in {seen[identity(member)]} and {where}"
                )
                seen[identity(member)] = where


def test_no_entry_is_lost_to_a_twin_with_the_same_text() -> None:
    """A section's table is a dict: a member of another class with the same text (they are equal
    strings) written into the same dict would replace an entry without a word. The dict must
    keep as many entries as its source writes."""
    for section in SECTIONS:
        tree = ast.parse(Path(section.__file__).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Dict):
                name = node.target.id
                written = len(node.value.keys)
                assert written == len(getattr(section, name)), f"{section.__name__}.{name}: a twin was lost"


_COVERED = {identity(member) for member, _ in message_journeys.shown() + message_journeys.not_shown()}
_MISSING = [_label(m) for m in seed_messages() if identity(m) not in _COVERED]


def test_every_seed_message_has_a_journey_or_a_reason() -> None:
    assert not _MISSING, f"{len(_MISSING)} seed messages without a journey: {', '.join(_MISSING)}"


@pytest.mark.parametrize(
    ("member", "reference"),
    sorted(message_journeys.shown(), key=lambda entry: _label(entry[0])),
    ids=lambda value: _label(value) if isinstance(value, StrEnum) else "",
)
def test_the_journey_exists_and_shows_the_message(member: StrEnum, reference: str) -> None:
    source, tree = _test_source(reference)
    assert _names_member(source, tree, member) or _quotes_text(source, member), (
        f"{reference} names neither {_label(member)} nor its text {member.value!r}"
    )


@pytest.mark.parametrize(
    ("member", "reason"),
    sorted(message_journeys.not_shown(), key=lambda entry: _label(entry[0])),
    ids=lambda value: _label(value) if isinstance(value, StrEnum) else "",
)
def test_a_message_the_shop_never_shows_is_not_used(member: StrEnum, reason: str) -> None:
    assert len(reason) >= 20, f"{_label(member)}: say why the shop never shows it"
    assert _label(member) not in _app_references(), f"{_label(member)} is used by shop_app: give it a journey"
