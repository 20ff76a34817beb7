"""The catalogue's vocabulary, for one-typo search (see ``domain.search``).

The vocabulary (distinct words of active product and category names) is cached per process and
database. Whether the catalogue changed is checked with a signature query (counts, newest update,
newest id), at most once every :data:`RECHECK_SECONDS`: the signature scans the products table,
too much to repeat on every search. A change made in this process or another one is thus seen
within a few seconds; :func:`refresh_vocabulary` forgets the cache at once. The services that
change the vocabulary (product and category names, a product's Active switch) call it, or
:func:`refresh_vocabulary_on_commit` when their caller's session commits; states never do.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy import event
from sqlmodel import Session, col, select

from shop_app.domain.search import Term, query_terms, vocabulary_of
from shop_app.models import Category, Product

RECHECK_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class _Cached:
    signature: tuple
    words: frozenset[str]
    checked_at: float  # clock reading of the last signature check


_lock = threading.Lock()
_cache: dict[str, _Cached] = {}


def _signature(session: Session) -> tuple:
    products = session.execute(
        select(sa.func.count(), sa.func.max(Product.updated_at), sa.func.max(Product.id))
    ).one()
    categories = session.execute(select(sa.func.count(), sa.func.max(Category.updated_at))).one()
    return (*products, *categories)


def vocabulary(session: Session, *, clock: Callable[[], float] = time.monotonic) -> frozenset[str]:
    """Distinct (stemmed) words of active, listed product names and category names."""
    key = str(session.get_bind().engine.url)
    now = clock()
    with _lock:
        cached = _cache.get(key)
    if cached is not None and now - cached.checked_at < RECHECK_SECONDS:
        return cached.words
    signature = _signature(session)
    if cached is not None and cached.signature == signature:
        words = cached.words
    else:
        listed = select(col(Product.name)).where(col(Product.is_active), col(Product.is_listed))
        names = [*session.execute(listed).scalars(), *session.execute(select(col(Category.name))).scalars()]
        words = vocabulary_of(names)
    with _lock:
        _cache[key] = _Cached(signature, words, now)
    return words


def refresh_vocabulary() -> None:
    """Forget the cached vocabularies: the next search re-reads the catalogue."""
    with _lock:
        _cache.clear()


def refresh_vocabulary_on_commit(session: Session) -> None:
    """``session`` changes the vocabulary: forget the cache once it commits (nothing on a rollback).

    Not before the commit: a search in between would read, and cache, the old words again.
    """
    event.listen(session, "after_commit", _refresh_after_commit, once=True)


def _refresh_after_commit(_session: object) -> None:
    refresh_vocabulary()


def search_terms(session: Session, query: str | None) -> list[Term]:
    """The terms of a shopper's query, with corrections for words the catalogue lacks."""
    if not query or not query.strip():
        return []
    return query_terms(query, vocabulary(session))
