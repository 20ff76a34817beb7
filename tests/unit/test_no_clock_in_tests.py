"""No test puts an upper limit on how long something took: a busy machine (2 cores, other jobs
beside the tests) makes any such limit fail on speed, not on behaviour. Timing belongs in
benchmarks/, which report medians and ratios of the same run.

Allowed: a wait loop's own deadline (``assert time.monotonic() < deadline, "… did not start"``)
and a lower bound that checks a delay the specification asks for (the contact form's 1.5 s
sending state): a slow machine only makes those longer."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
CLOCKS = {"monotonic", "perf_counter", "process_time", "time", "monotonic_ns", "perf_counter_ns"}
TIMING_NAMES = ("elapsed", "duration", "took")


def _reads_a_clock(node: ast.AST) -> bool:
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute):
            owner = child.func.value
            if child.func.attr in CLOCKS and isinstance(owner, ast.Name) and owner.id == "time":
                return True
        if isinstance(child, ast.Name) and any(word in child.id.lower() for word in TIMING_NAMES):
            return True
    return False


def _is_deadline(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and "deadline" in node.id.lower()


def _upper_limit_on_time(test: ast.Compare) -> bool:
    """``<clock> < limit`` or ``limit > <clock>`` (a chained comparison is checked pair by pair)."""
    sides = [test.left, *test.comparators]
    for op, left, right in zip(test.ops, sides, sides[1:], strict=False):
        if isinstance(op, ast.Lt | ast.LtE):
            smaller, larger = left, right
        elif isinstance(op, ast.Gt | ast.GtE):
            smaller, larger = right, left
        else:
            continue
        if _reads_a_clock(smaller) and not _is_deadline(larger):
            return True
    return False


def _clock_assertions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(TESTS.parent)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Assert)
        and isinstance(node.test, ast.Compare)
        and _upper_limit_on_time(node.test)
    ]


def test_the_check_finds_an_upper_limit_on_time() -> None:
    sample = TESTS / "unit" / "_clock_sample.py"
    sample.write_text(
        "import time\nstart = time.monotonic()\n"
        "assert time.monotonic() - start < 2\n"
        "assert 2 > elapsed\n"
        "assert time.monotonic() < deadline\n"
        "assert time.monotonic() - start >= 1.4\n"
    )
    try:
        assert _clock_assertions(sample) == ["tests/unit/_clock_sample.py:3", "tests/unit/_clock_sample.py:4"]
    finally:
        sample.unlink()


def test_no_test_asserts_on_wall_clock_time() -> None:
    offenders = [hit for path in sorted(TESTS.rglob("*.py")) for hit in _clock_assertions(path)]
    assert offenders == []
