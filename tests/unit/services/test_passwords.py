"""Password hashing: bcrypt cost 12, the 72-byte limit, no shortcut for unknown accounts, and
the password threads it runs in (off the loop, below the server's priority)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading

import pytest

from shop_app.services.passwords import (
    BCRYPT_ROUNDS,
    PASSWORD_NICENESS,
    PASSWORD_THREADS,
    hash_password,
    run_password_work,
    verify_password,
)


def test_hash_uses_cost_12_and_verifies() -> None:
    hashed = hash_password("correct horse battery")

    assert hashed.startswith(f"$2b${BCRYPT_ROUNDS}$")
    assert BCRYPT_ROUNDS == 12
    assert verify_password("correct horse battery", hashed)
    assert not verify_password("correct horse batterY", hashed)


def test_same_password_hashes_differently_each_time() -> None:
    assert hash_password("lavender", rounds=4) != hash_password("lavender", rounds=4)


def test_password_over_72_bytes_is_refused_with_a_clear_message() -> None:
    # 24 three-byte characters = 72 bytes: accepted; one more ASCII byte: refused.
    at_limit = "€" * 24
    assert verify_password(at_limit, hash_password(at_limit, rounds=4))

    with pytest.raises(ValueError, match="at most 72 bytes"):
        hash_password(at_limit + "a", rounds=4)


def test_over_long_password_never_matches() -> None:
    hashed = hash_password("a" * 72, rounds=4)

    assert not verify_password("a" * 73, hashed)


@pytest.mark.parametrize("stored", [None, "", "not-a-bcrypt-hash"])
def test_missing_or_broken_hash_never_matches(stored: str | None) -> None:
    assert not verify_password("anything", stored)


# ---------------------------------------------------------------------------- the password threads


def _where_and_how_nice() -> tuple[int, str, int]:
    """The thread this runs in, its name, and its nice value (Linux: per thread; 0 = this one)."""
    return threading.get_ident(), threading.current_thread().name, os.getpriority(os.PRIO_PROCESS, 0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice value is Linux's")
async def test_password_work_runs_off_the_loop_below_the_servers_priority() -> None:
    loop_thread, _name, loop_nice = _where_and_how_nice()

    thread, name, nice = await run_password_work(_where_and_how_nice)

    assert thread != loop_thread and name.startswith("password")
    assert nice == min(19, loop_nice + PASSWORD_NICENESS)
    assert os.getpriority(os.PRIO_PROCESS, 0) == loop_nice  # the loop's own thread is left as it was


async def test_queued_password_work_leaves_the_default_threads_free() -> None:
    """A burst of sign-ins waits for the password threads; other off-loop work (a checkout's,
    through ``asyncio.to_thread``) still runs at once."""
    release = threading.Event()
    busy = [asyncio.ensure_future(run_password_work(release.wait, 30)) for _ in range(PASSWORD_THREADS * 4)]
    try:
        assert await asyncio.wait_for(asyncio.to_thread(lambda: "checkout"), timeout=10) == "checkout"
        assert not any(task.done() for task in busy)
    finally:
        release.set()
    assert await asyncio.gather(*busy) == [True] * len(busy)
