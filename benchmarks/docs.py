"""docs/benchmarks.md: the results block of each database, replaced in place by ``--write-docs``.

Each database's results live between ``<!-- shop_query:<dialect>:start -->`` and
``<!-- shop_query:<dialect>:end -->``; everything else in the file (method, analysis) is kept as
written. A missing file is created from :data:`TEMPLATE`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import report
from .state_size import StateSizes
from .statements import Breakdown
from .timing import MixResult

DIALECTS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}

TEMPLATE = """# Benchmarks

Budgets: docs/architecture.md#performance-budgets. The results blocks below are written by the
benchmarks (`--write-docs`).

## Shop page query and shopper state (`benchmarks/shop_query.py`)

```sh
.venv/bin/python benchmarks/shop_query.py --products 20000 --write-docs
.venv/bin/python benchmarks/shop_query.py --products 20000 --write-docs \\
    --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test
```

### SQLite

<!-- shop_query:sqlite:start -->
_Not run yet._
<!-- shop_query:sqlite:end -->

### PostgreSQL

<!-- shop_query:postgresql:start -->
_Not run yet._
<!-- shop_query:postgresql:end -->
"""


def _markers(dialect: str) -> tuple[str, str]:
    return f"<!-- shop_query:{dialect}:start -->", f"<!-- shop_query:{dialect}:end -->"


def results_block(
    run: dict[str, Any],
    results: list[MixResult],
    rows: list[Breakdown],
    state: StateSizes | None,
    found: list[report.Verdict],
) -> str:
    """The generated Markdown of one run."""
    m = run["machine"]
    lines = [
        f"Run of {run['date']} (`{run['command']}`).",
        "",
        f"- Machine: {m['cpus']} cores ({m['cpu_model']}), {m['platform']}, Python {m['python']}; "
        f"database {run['database']}. 1-minute load average {run['load_before']} before, "
        f"{run['load_after']} after (other work shares the machine: compare ratios, not absolutes).",
        f"- Catalogue: {run['products']:,} synthetic products (`load_synthetic`, seed {run['seed']}) "
        f"seeded in **{run['seed_seconds']:.1f} s** after {run['migrate_seconds']:.1f} s of migrations; "
        f"statistics gathered afterwards: {run['analyzed']}.",
        f"- Timing: each request opens a session, runs the page function and closes the session. "
        f"{run['iterations']} requests per mix for the query, {run['baseline_iterations']} for the "
        f"baseline, after {run['warmup']} (query) and 1 (baseline) warm-up requests; mixes interleaved. "
        "p95 is the nearest-rank 95th percentile; ratio = baseline median / query median.",
        "",
        *report.mix_table(results),
        "",
        "Verdicts:",
        "",
        *report.verdict_table(found),
        "",
    ]
    if state is not None:
        lines += [
            "Serialized state of a shopper on /shop (the page's on_load handlers, no query parameters, "
            "3 products in the cart; then the individual view and one “load more”). "
            f"Grouped, {state.variations_kept} variation ids are kept in `ShopState._variations`; "
            f"largest ShopState fields: {report.state_fields(state)}. "
            f"`ShopState.load()` took {state.load_ms:.0f} ms and `load_more()` "
            f"{state.load_more_ms:.0f} ms (medians, queries and card formatting):",
            "",
            *report.state_table(state),
            "",
        ]
    elif run.get("state_error"):
        lines += [f"Serialized state of a shopper on /shop: **not measured** ({run['state_error']}).", ""]
    lines += [
        "Where a request's time goes (median ms per statement, from execute until the driver returns):",
        "",
        *report.breakdown_table(rows),
    ]
    return "\n".join(lines)


def write_results(path: Path, dialect: str, block: str) -> None:
    """Replace ``dialect``'s results block in ``path`` (creating the file if needed)."""
    text = path.read_text(encoding="utf-8") if path.exists() else TEMPLATE
    start, end = _markers(dialect)
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    replacement = f"{start}\n{block}\n{end}"
    if pattern.search(text):
        text = pattern.sub(lambda _match: replacement, text, count=1)
    else:
        text = text.rstrip("\n") + f"\n\n### {DIALECTS.get(dialect, dialect)}\n\n{replacement}\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
