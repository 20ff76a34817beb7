"""The embedded set-up's state manager (Reflex's ``StateManagerDisk``, one pickle per page state
of every tab) looks for expired states only when one can have expired.

Reflex 0.10.1 lists and ``stat``s every state file of the folder after each batch of writes, about
every two seconds while tabs are busy: a folder holds one file per state of every tab that was
opened in the last hour (the token expiration), so the cost grows with the shop's visitors. With 50
busy tabs it was about a quarter of the server's CPU (py-spy, ``benchmarks/load.py``, 2026-11-26),
time the event loop's thread waited for while the scan held the GIL. Upstream knows it
(reflex-dev/reflex#7060, open): remember the earliest moment a file can expire, and skip the scan
until then.

:func:`install` puts :func:`purge_expired_states_when_due` in place of the manager's method;
``shop_app.shop_app`` calls it before the app makes its state manager. The scan itself deletes
what Reflex's deletes (``*.pkl`` files untouched for longer than the expiration). A file written
after a scan cannot expire before ``its time + expiration``, later than the moment remembered, so
skipping in between misses nothing. Redis (the production shape) keeps its own expiry and is not
concerned.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from reflex.istate.manager.disk import StateManagerDisk

_DUE = "_shop_purge_due"
"""The manager's attribute holding when the next scan is due (absent: scan now)."""


def purge_expired(directory: Path, expiration: float, now: float) -> float:
    """Delete the state files of ``directory`` untouched for more than ``expiration`` seconds;
    return the earliest time one of the files left can expire (``now + expiration`` when none)."""
    earliest = now + expiration
    for path in directory.iterdir() if directory.is_dir() else ():
        if path.suffix != ".pkl":
            continue
        try:
            touched = path.stat().st_mtime
        except FileNotFoundError:  # deleted meanwhile (a tab's state purged by Reflex)
            continue
        if now - touched > expiration:
            path.unlink(missing_ok=True)
        else:
            earliest = min(earliest, touched + expiration)
    return earliest


def purge_expired_states_when_due(manager: Any) -> None:
    """``StateManagerDisk._purge_expired_states``, scanning only when a file can have expired."""
    now = time.time()
    due = getattr(manager, _DUE, None)
    if due is not None and now <= due:
        return
    setattr(manager, _DUE, purge_expired(manager.states_directory, manager.token_expiration, now))


def install() -> None:
    """Make every disk state manager of this process scan only when due."""
    StateManagerDisk._purge_expired_states = purge_expired_states_when_due  # type: ignore[method-assign]
