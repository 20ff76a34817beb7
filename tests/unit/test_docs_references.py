"""The repository explains itself: every reference to a section of ``docs/architecture.md`` or
``docs/spec/`` names an anchor that exists, every relative link between the docs resolves, and
nothing points outside the repository for the rules (the specification and Square's OpenAPI
subset live in it: ``docs/spec/``, ``tests/support/square_openapi/``)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SEARCHED = ("shop_app", "tests", "benchmarks", "scripts", "docs")
SUFFIXES = {".py", ".md", ".sh", ".txt", ".toml", ".ini", ".cfg"}
# "docs/spec/cart.md#lines, #pricing" or "docs/architecture.md#money"
CODE_REFERENCE = re.compile(
    r"docs/(spec/[a-z0-9-]+\.md|architecture\.md)((?:#[a-z0-9-]+)(?:,\s+#[a-z0-9-]+)*)?"
)
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
EXPLICIT_ANCHOR = re.compile(r'<a id="([a-z0-9-]+)"></a>')
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def _anchors(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8")
    return frozenset(EXPLICIT_ANCHOR.findall(text)) | {_slug(h) for h in HEADING.findall(text)}


def _files() -> list[Path]:
    found: list[Path] = []
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "node_modules" not in path.parts:
                found.append(path)
    return [*found, ROOT / "README.md", ROOT / "Makefile"]


def _code_references() -> list[tuple[str, str, str]]:
    """(where, target file, anchor) for every docs/… reference in the repository."""
    found = []
    for path in _files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in CODE_REFERENCE.finditer(text):
            where = f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}"
            anchors = re.findall(r"#([a-z0-9-]+)", match.group(2) or "")
            for anchor in anchors or [""]:
                found.append((where, match.group(1), anchor))
    return found


def test_there_are_references_to_check() -> None:
    assert len(_code_references()) > 200


@pytest.mark.parametrize(("where", "target", "anchor"), _code_references(), ids=str)
def test_every_reference_to_the_docs_names_an_existing_section(where: str, target: str, anchor: str) -> None:
    path = DOCS / target
    assert path.is_file(), f"{where}: no docs/{target}"
    assert not anchor or anchor in _anchors(path), f"{where}: no #{anchor} in docs/{target}"


def _markdown_links() -> list[tuple[str, Path, str]]:
    found = []
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        for link in MARKDOWN_LINK.findall(text):
            if re.match(r"[a-z]+:", link):
                continue  # http(s), mailto
            target, _, anchor = link.partition("#")
            resolved = (path.parent / target).resolve() if target else path
            found.append((f"{path.relative_to(ROOT)} → {link}", resolved, anchor))
    return found


@pytest.mark.parametrize(("where", "target", "anchor"), _markdown_links(), ids=str)
def test_every_link_between_the_docs_resolves(where: str, target: Path, anchor: str) -> None:
    assert target.exists(), where
    if anchor and target.suffix == ".md":
        assert anchor in _anchors(target), where


def test_nothing_needs_a_folder_beside_the_repository() -> None:
    outside = "../" + "shared"  # written in two parts so this file does not match itself
    seeds = "seeds/" + "00"
    offenders = [
        str(path.relative_to(ROOT))
        for path in _files()
        if outside in (text := path.read_text(encoding="utf-8", errors="replace")) or seeds in text
    ]
    assert offenders == []


def test_no_reference_points_to_the_outside_documents() -> None:
    """A reference names a section of docs/, never a section of the specification files or the design
    document that used to sit beside the repository."""
    outside_reference = re.compile("seed 00[01] " + "§|DESIGN" + r"\.md")  # in parts: not matching itself
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in _files()
        for match in outside_reference.finditer(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert offenders == []
