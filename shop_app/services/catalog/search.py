"""The catalogue's vocabulary, for one-typo search (see ``domain.search``).

The vocabulary (distinct words of active product and category names) is cached per process and
rebuilt when the catalogue changes, detected by a cheap signature query.
"""

from __future__ import annotations

import threading

import sqlalchemy as sa
from sqlmodel import Session, select

from shop_app.domain.search import Term, query_terms, vocabulary_of
from shop_app.models import Category, Product

_lock = threading.Lock()
_cache: dict[str, tuple[tuple, frozenset[str]]] = {}


def _signature(session: Session) -> tuple:
    products = session.execute(
        select(sa.func.count(), sa.func.max(Product.updated_at), sa.func.max(Product.id))
    ).one()
    categories = session.execute(select(sa.func.count(), sa.func.max(Category.updated_at))).one()
    return (*products, *categories)


def vocabulary(session: Session) -> frozenset[str]:
    """Distinct (stemmed) words of active product names and category names."""
    key = str(session.get_bind().url)
    signature = _signature(session)
    with _lock:
        cached = _cache.get(key)
        if cached is not None and cached[0] == signature:
            return cached[1]
    names = session.execute(select(Product.name).where(Product.is_active)).scalars().all()
    names += session.execute(select(Category.name)).scalars().all()
    words = vocabulary_of(names)
    with _lock:
        _cache[key] = (signature, words)
    return words


def search_terms(session: Session, query: str | None) -> list[Term]:
    """The terms of a shopper's query, with corrections for words the catalogue lacks."""
    if not query or not query.strip():
        return []
    return query_terms(query, vocabulary(session))
