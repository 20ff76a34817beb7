"""Password hashing with bcrypt (cost 12, docs/architecture.md#sessions), and the threads it runs in.

A bcrypt check costs about 0.35 CPU-seconds at cost 12. Use-cases that check or hash a password
(sign-in, registration, password reset) run through :func:`run_password_work`: off the event loop,
in a small pool of threads of their own (:data:`PASSWORD_THREADS` per backend process) that run at
a lower scheduling priority (nice :data:`PASSWORD_NICENESS`). So a burst of sign-ins queues for
those threads instead of taking every thread of the loop's default executor (which checkouts and
page handlers need), and the CPU it needs is given only when the event loops and the other
threads of the server do not want it: browsing stays fast while sign-ins wait (issue 18,
acceptance 5; ``benchmarks/load.py``'s burst level).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

import bcrypt

from shop_app.domain.messages import AuthMessage
from shop_app.domain.validation import MAX_PASSWORD_BYTES, is_password_too_long

BCRYPT_ROUNDS = 12

# Verified against when an account does not exist, so a wrong e-mail costs the same time as a
# wrong password (no account enumeration by timing).
_DUMMY_HASH = bcrypt.hashpw(b"not-a-real-password", bcrypt.gensalt(BCRYPT_ROUNDS))


def hash_password(password: str, *, rounds: int = BCRYPT_ROUNDS) -> str:
    """Hash ``password``. Raises ValueError when it is longer than bcrypt's 72 bytes."""
    if is_password_too_long(password):
        raise ValueError(AuthMessage.PASSWORD_TOO_LONG)
    return bcrypt.hashpw(password.encode("utf-8"), bcrypt.gensalt(rounds)).decode("ascii")


def verify_password(password: str, password_hash: str | None) -> bool:
    """Whether ``password`` matches ``password_hash``; spends the same time when there is none.

    A password over 72 bytes never matches (we never hash one), but still costs a bcrypt check.
    """
    secret = password.encode("utf-8")
    if is_password_too_long(password):
        secret, password_hash = secret[:MAX_PASSWORD_BYTES], None
    if not password_hash:
        bcrypt.checkpw(secret, _DUMMY_HASH)
        return False
    try:
        return bcrypt.checkpw(secret, password_hash.encode("ascii"))
    except ValueError:
        return False


PASSWORD_THREADS = 2
"""Password threads per backend process: more would only share the same cores."""
PASSWORD_NICENESS = 10
"""How much lower than the server's threads a password thread runs (Linux ``nice``; 0 is the
server's own). At 10, a thread of the server that wants the CPU gets about nine tenths of it."""

_P = ParamSpec("_P")
_T = TypeVar("_T")
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _lower_priority() -> None:
    """Lower the calling thread's priority (each password thread, as it starts).

    On Linux the nice value belongs to the thread (``setpriority`` with its thread id); where it
    cannot be set (another system, a sandbox that forbids it) the thread runs at normal priority.
    """
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), PASSWORD_NICENESS)


def _password_pool() -> ThreadPoolExecutor:
    """The process's password threads (made on first use: after the server forked its workers)."""
    global _pool  # noqa: PLW0603 - one pool per process, made lazily
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=PASSWORD_THREADS, thread_name_prefix="password", initializer=_lower_priority
            )
        return _pool


async def run_password_work(fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run ``fn`` (a use-case that checks or hashes a password, with its database work) in a
    password thread and return its result; the event loop serves others meanwhile."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_password_pool(), functools.partial(fn, *args, **kwargs))
