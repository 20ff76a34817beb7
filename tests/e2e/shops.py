"""Starting the shop's production build for the browser tests, one build at a time.

``reflex run --env prod --single-port`` compiles the pages into a frontend work directory, builds
it with bun and serves it; the port is baked into the build (the page's websocket address), so
every shop under test has a build of its own. A shop starts its tests as soon as it serves while
the next one builds.

Builds share the repository (Reflex rewrites its ``reflex.lock/``) and the node packages, so
they take turns across the whole checkout, not only within one test run: two runs at once (two
engineers, or a developer's run beside CI's) hold the same lock file. One shop at a time builds in
and serves from the repository's ``.web`` (as ``./scripts/run`` does, so a developer's later run
reuses it) and holds it until it stops; every other one (another pytest-xdist worker, a second shop
with other settings, a shop of another run) builds in a copy of that directory of its own, with
the node packages linked, not installed again, and a state directory of its own. A shop therefore
never rebuilds the directory another shop is serving.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import pytest

from tests.support.servers import stop_process_group, wait_until_serving

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 420
"""How long a build and start may take (a cold build on a busy 2-core machine takes minutes)."""
TOOLS_BIN = ROOT / "tools" / "node_modules" / ".bin"  # bun and Node.js 24, installed by scripts/_setup.sh


BUILD_LOCK = ROOT / ".web-build.lock"
"""Held while a shop builds: one build at a time in this checkout."""
REPOSITORY_WEB_LOCK = ROOT / ".web-serving.lock"
"""Held by the shop that builds in and serves from the repository's ``.web``, until it stops."""


@contextmanager
def build_turn() -> Iterator[bool]:
    """Wait for this checkout's build lock; yield whether the repository's ``.web`` is this
    shop's to build in (no other shop serves from it now). The build lock is released when the
    block ends; the claim on ``.web`` lasts until :func:`production_shop`'s shop stops."""
    with BUILD_LOCK.open("w") as build_lock:
        fcntl.flock(build_lock, fcntl.LOCK_EX)
        try:
            yield _claim_repository_web()
        finally:
            fcntl.flock(build_lock, fcntl.LOCK_UN)


_repository_web_claim: list[TextIO] = []
"""The open lock file while this process's shop holds the repository's ``.web``."""


def _claim_repository_web() -> bool:
    claim = REPOSITORY_WEB_LOCK.open("w")
    try:
        fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        claim.close()
        return False
    _repository_web_claim.append(claim)
    return True


def _release_repository_web() -> None:
    while _repository_web_claim:
        _repository_web_claim.pop().close()  # closing the file releases its lock


def own_frontend_dirs(workdir: Path) -> dict[str, str]:
    """A frontend work directory copied from the repository's (its node packages linked) and a
    state directory, both below ``workdir``: Reflex's settings that point a build at them."""
    web = workdir / "web"
    shutil.copytree(ROOT / ".web", web, symlinks=True, ignore=shutil.ignore_patterns("node_modules", "build"))
    (web / "node_modules").symlink_to((ROOT / ".web" / "node_modules").resolve())
    return {"REFLEX_WEB_WORKDIR": str(web), "REFLEX_STATES_WORKDIR": str(workdir / "states")}


def with_frontend_tools(env: dict[str, str]) -> dict[str, str]:
    """``env`` with the project's bun, and its Node.js ahead of the system's, when installed."""
    env = dict(env)
    if (TOOLS_BIN / "bun").exists():
        env.setdefault("REFLEX_BUN_PATH", str(TOOLS_BIN / "bun"))
    if (TOOLS_BIN / "node").exists():
        env["PATH"] = f"{TOOLS_BIN}{os.pathsep}{env.get('PATH', '')}"
    return env


@contextmanager
def production_shop(workdir: Path, port: int, env: dict[str, str]) -> Iterator[str]:
    """Build and serve the shop on ``port`` with ``env``; yield its URL; stop it afterwards.

    Its log is ``workdir / "reflex.log"``. A build or start that fails fails the test.
    """
    log_path = workdir / "reflex.log"
    with build_turn() as in_repository:
        env = with_frontend_tools({**env, **({} if in_repository else own_frontend_dirs(workdir))})
        with log_path.open("w") as log:
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "reflex",
                    "run",
                    "--env",
                    "prod",
                    "--single-port",
                    "--frontend-port",
                    str(port),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        url = f"http://localhost:{port}"
        try:
            wait_until_serving(url, server, log_path, BUILD_TIMEOUT_S)
        except RuntimeError as error:
            stop_process_group(server, timeout_s=20)
            if in_repository:
                _release_repository_web()
            pytest.fail(str(error))
    try:
        yield url
    finally:
        stop_process_group(server, timeout_s=20)
        if in_repository:
            _release_repository_web()
