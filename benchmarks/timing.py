"""Timing the shop page query against the baseline, per query mix, in one run.

Each request opens its own session (a pooled connection, as ``session_scope`` does for every
event on the server), runs the page function and closes the session; the wall time of all of it
is recorded. Mixes are interleaved (round-robin) so a slow patch of the machine hits all alike.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy.engine import Engine
from sqlmodel import Session

from shop_app.services.catalog import PAGE_SIZE, ShopPage, ShopQuery, shop_page

from .baseline import baseline_shop_page

PageFunction = Callable[[Session, ShopQuery], ShopPage]


@dataclass(frozen=True, slots=True)
class Mix:
    """A realistic shop page request."""

    name: str
    query: ShopQuery

    @property
    def description(self) -> str:
        """The request as URL-like parameters."""
        q = self.query
        parts = [
            f"{name}={value}"
            for name, value in (
                ("category", q.category),
                ("subcategory", q.subcategory),
                ("search", q.search),
            )
            if value
        ]
        if not q.grouped:
            parts.append("individual view")
        if q.offset:
            parts.append(f"offset={q.offset}")
        return ", ".join(parts) or "no filter"


MIXES: tuple[Mix, ...] = (
    Mix("all", ShopQuery()),
    Mix("category", ShopQuery(category="candles")),
    Mix("category+search", ShopQuery(category="candles", search="vanilla")),
    Mix("typo search", ShopQuery(search="lavendr")),
    Mix("subcategory", ShopQuery(category="candles", subcategory="fall-candle-collection")),
    # 20,000 synthetic products make 16 groups (size and type), one grouped page: page offsets
    # exist in the individual view only.
    Mix("individual p5", ShopQuery(grouped=False, offset=4 * PAGE_SIZE)),
)


@dataclass(frozen=True, slots=True)
class Stats:
    """Wall times of one request kind, in milliseconds."""

    samples: tuple[float, ...]

    @property
    def n(self) -> int:
        """Number of timed requests."""
        return len(self.samples)

    @property
    def median(self) -> float:
        """The median."""
        return statistics.median(self.samples)

    @property
    def p95(self) -> float:
        """The 95th percentile (nearest rank)."""
        return percentile(self.samples, 95)

    @property
    def max(self) -> float:
        """The slowest request."""
        return max(self.samples)


def percentile(samples: Sequence[float], pct: float) -> float:
    """The nearest-rank percentile: the smallest sample with ``pct`` % of samples at or below it."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class MixResult:
    """Both implementations on one mix, and whether they returned the same page."""

    mix: Mix
    query: Stats
    baseline: Stats
    total: int  # cards in all (groups matching)
    cards: int  # cards on the page
    same_page: bool  # the baseline returned the same total, cards (in order) and variations

    @property
    def ratio(self) -> float:
        """How many times faster the query is than the baseline (median over median)."""
        return self.baseline.median / self.query.median


def _layout(page: ShopPage) -> list[tuple[str, int, list[int]]]:
    return [(card.key, card.variation_count, [v.id for v in card.variations]) for card in page.cards]


def _timed(engine: Engine, function: PageFunction, query: ShopQuery) -> tuple[float, ShopPage]:
    started = time.perf_counter()
    with Session(engine) as session:
        page = function(session, query)
    return (time.perf_counter() - started) * 1000, page


def _round_robin(
    engine: Engine, function: PageFunction, mixes: Sequence[Mix], iterations: int, warmup: int
) -> tuple[dict[str, list[float]], dict[str, ShopPage]]:
    samples: dict[str, list[float]] = {mix.name: [] for mix in mixes}
    pages: dict[str, ShopPage] = {}
    for round_number in range(warmup + iterations):
        for mix in mixes:
            elapsed, page = _timed(engine, function, mix.query)
            pages[mix.name] = page
            if round_number >= warmup:
                samples[mix.name].append(elapsed)
    return samples, pages


def run_mixes(
    engine: Engine,
    mixes: Sequence[Mix] = MIXES,
    *,
    iterations: int,
    baseline_iterations: int,
    warmup: int = 3,
    progress: Callable[[str], None] = lambda _text: None,
) -> list[MixResult]:
    """Time ``shop_page`` and the baseline on every mix; check they agree."""
    progress(f"shop_page: {len(mixes)} mixes x {iterations} requests (+{warmup} warm-up)")
    fast, pages = _round_robin(engine, shop_page, mixes, iterations, warmup)
    progress(f"baseline: {len(mixes)} mixes x {baseline_iterations} requests (+1 warm-up)")
    slow, baseline_pages = _round_robin(engine, baseline_shop_page, mixes, baseline_iterations, 1)
    results = []
    for mix in mixes:
        page, expected = pages[mix.name], baseline_pages[mix.name]
        same = page.total == expected.total and _layout(page) == _layout(expected)
        results.append(
            MixResult(
                mix=mix,
                query=Stats(tuple(fast[mix.name])),
                baseline=Stats(tuple(slow[mix.name])),
                total=page.total,
                cards=len(page.cards),
                same_page=same,
            )
        )
    return results
