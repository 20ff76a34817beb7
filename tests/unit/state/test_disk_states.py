"""The embedded state manager scans its folder for expired states only when one can have expired
(``shop_app.state.disk_states``; Reflex 0.10.1 scans after every batch of writes)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

from reflex.istate.manager.disk import StateManagerDisk

from shop_app.state import disk_states

HOUR = 3600.0


def _state_file(folder: Path, name: str, *, age_s: float) -> Path:
    path = folder / name
    path.write_bytes(b"state")
    touched = time.time() - age_s
    os.utime(path, (touched, touched))
    return path


def test_a_scan_deletes_expired_states_only_and_says_when_the_next_one_can_expire(tmp_path: Path) -> None:
    expired = _state_file(tmp_path, "a.pkl", age_s=HOUR + 60)
    recent = _state_file(tmp_path, "b.pkl", age_s=600)
    newest = _state_file(tmp_path, "c.pkl", age_s=5)
    other = _state_file(tmp_path, "notes.txt", age_s=HOUR * 5)
    now = time.time()

    due = disk_states.purge_expired(tmp_path, HOUR, now)

    assert not expired.exists()
    assert recent.exists() and newest.exists() and other.exists()
    assert abs(due - (recent.stat().st_mtime + HOUR)) < 1e-6


def test_an_empty_or_missing_folder_is_due_one_expiration_later(tmp_path: Path) -> None:
    assert disk_states.purge_expired(tmp_path, HOUR, 1000.0) == 1000.0 + HOUR
    assert disk_states.purge_expired(tmp_path / "missing", HOUR, 1000.0) == 1000.0 + HOUR


def test_the_manager_skips_the_scan_until_a_state_can_have_expired(tmp_path: Path) -> None:
    manager = SimpleNamespace(states_directory=tmp_path, token_expiration=HOUR)
    _state_file(tmp_path, "recent.pkl", age_s=60)

    disk_states.purge_expired_states_when_due(manager)  # the first call scans
    stale = _state_file(tmp_path, "stale.pkl", age_s=HOUR * 2)  # (cannot happen: shows the skip)
    disk_states.purge_expired_states_when_due(manager)

    assert stale.exists(), "scanned again before anything could expire"

    manager._shop_purge_due = time.time() - 1  # the recent state's expiry has come
    disk_states.purge_expired_states_when_due(manager)

    assert not stale.exists()
    assert (tmp_path / "recent.pkl").exists()


def test_the_app_installs_it_for_reflexs_disk_state_manager() -> None:
    import shop_app.shop_app  # noqa: F401, PLC0415 - building the app installs it

    assert StateManagerDisk._purge_expired_states is disk_states.purge_expired_states_when_due
