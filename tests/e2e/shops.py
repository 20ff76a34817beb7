"""Starting the shop's production build for the browser tests, one build at a time.

``reflex run --env prod --single-port`` compiles the pages into a frontend work directory, builds
it with bun and serves it; the port is baked into the build (the page's websocket address), so
every shop under test has a build of its own. Builds share the repository (Reflex rewrites its
``reflex.lock/``) and the node packages, so they take turns: a lock file of the test run lets one
build at a time, and a shop starts its tests as soon as it serves while the next one builds.

The first shop of a run builds in the repository's ``.web`` (as ``./scripts/run`` does, so a
developer's later run reuses it); every later one (another pytest-xdist worker, or a second shop
with other settings) builds in a copy of that directory of its own, with the node packages
linked, not installed again, and a state directory of its own.
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

import pytest

from tests.support.servers import stop_process_group, wait_until_serving

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 420
"""How long a build and start may take (a cold build on a busy 2-core machine takes minutes)."""
TOOLS_BIN = ROOT / "tools" / "node_modules" / ".bin"  # bun and Node.js 24, installed by scripts/_setup.sh


def run_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory this test run's processes share: pytest-xdist's workers each have a base
    directory of their own below it."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def build_turn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[bool]:
    """Hold this run's build lock; yield whether the repository's ``.web`` is free to build in
    (no shop of this run has built there yet). Leaving marks it taken."""
    shared = run_directory(tmp_path_factory)
    taken = shared / "repository-web-built"
    with (shared / "shop-build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield not taken.exists()
        finally:
            taken.touch()
            fcntl.flock(lock, fcntl.LOCK_UN)


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
def production_shop(
    tmp_path_factory: pytest.TempPathFactory, workdir: Path, port: int, env: dict[str, str]
) -> Iterator[str]:
    """Build and serve the shop on ``port`` with ``env``; yield its URL; stop it afterwards.

    Its log is ``workdir / "reflex.log"``. A build or start that fails fails the test.
    """
    log_path = workdir / "reflex.log"
    with build_turn(tmp_path_factory) as in_repository:
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
            pytest.fail(str(error))
    try:
        yield url
    finally:
        stop_process_group(server, timeout_s=20)
