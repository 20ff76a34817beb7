"""docs/benchmarks.md: a benchmark's results block, replaced in place (``--write-docs``).

A section (``## …``) holds one block per variant between ``<!-- <name>:<variant>:start -->``
and ``<!-- <name>:<variant>:end -->``. Only that block is rewritten; a missing section is added
at the end of the file from its template, a missing block at the end of its section. The file is
read right before it is written, so edits made meanwhile elsewhere are kept.
"""

from __future__ import annotations

import re
from pathlib import Path


def markers(name: str, variant: str) -> tuple[str, str]:
    """The comments around one results block."""
    return f"<!-- {name}:{variant}:start -->", f"<!-- {name}:{variant}:end -->"


def write_block(
    path: Path, *, heading: str, template: str, name: str, variant: str, variant_title: str, block: str
) -> None:
    """Replace (or add) the ``variant`` block of section ``heading`` in ``path``."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if heading not in text:
        text = text.rstrip("\n") + "\n\n" + template.rstrip("\n") + "\n"
    start, end = markers(name, variant)
    replacement = f"{start}\n{block.rstrip()}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _match: replacement, text, count=1)
    else:
        at = text.index(heading)
        following = re.search(r"^## ", text[at + len(heading) :], re.MULTILINE)
        cut = at + len(heading) + following.start() if following else len(text)
        insert = f"### Results: {variant_title}\n\n{replacement}\n\n"
        text = text[:cut].rstrip("\n") + "\n\n" + insert + text[cut:].lstrip("\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
