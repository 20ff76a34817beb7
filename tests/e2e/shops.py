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

Only the first shop of a test run builds (or, under ``scripts/test``, ``tests.e2e.prebuild`` while
the checks run). The build differs between shops only by the port in
its websocket address (one small script, ``assets/reflex-env-*.js``; the shops' other settings are
read by the server as it runs), so every later shop of the run, in any pytest-xdist worker, serves
a copy of that build with its own port written in (``tests.e2e.serve_prebuilt``): seconds instead
of a build of a minute or more each. ``.web-prebuilt.json`` says which build is the run's.
"""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import shutil
import subprocess
import sys
import uuid
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
PREBUILT = ROOT / ".web-prebuilt.json"
"""The test run whose first shop built last, that build's frontend work directory and its port."""
RUN_ID_VARIABLE = "SHOP_TEST_RUN_ID"
"""Set by ``scripts/test`` for the whole run, whose build ``tests.e2e.prebuild`` makes beforehand."""
RUN_ID = os.environ.get(RUN_ID_VARIABLE) or os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex
"""This test run (``scripts/test``'s id, else pytest-xdist's, which its workers share; a run
without either is one process)."""


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


def _run_build() -> tuple[Path, int] | None:
    """This run's finished build (its frontend work directory and port), if a shop made one."""
    try:
        record = json.loads(PREBUILT.read_text(encoding="utf-8"))
        web, port = Path(record["web"]), int(record["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if record.get("run") != RUN_ID or not (web / "build" / "client").is_dir():
        return None
    return web, port


def _record_build(web: Path, port: int) -> None:
    PREBUILT.write_text(json.dumps({"run": RUN_ID, "web": str(web), "port": port}), encoding="utf-8")


def prebuilt_frontend_dirs(built: tuple[Path, int], workdir: Path, port: int) -> dict[str, str]:
    """A copy of a finished build below ``workdir`` whose pages connect to ``port``, and a state
    directory: Reflex's settings that point a server at them.

    The port is in the build's environment script only (``ws://localhost:PORT/_event`` and its
    siblings); its gzip copy is made again and its Brotli copy dropped (the server then sends
    gzip)."""
    source, built_port = built
    web = workdir / "web"
    shutil.copytree(source, web, symlinks=True, ignore=shutil.ignore_patterns("node_modules"))
    scripts = sorted((web / "build" / "client" / "assets").glob("reflex-env-*.js"))
    if not scripts:
        pytest.fail(f"no reflex-env script in the build at {source}")
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        script.write_text(text.replace(f"localhost:{built_port}/", f"localhost:{port}/"), encoding="utf-8")
        script.with_name(script.name + ".gz").write_bytes(gzip.compress(script.read_bytes()))
        script.with_name(script.name + ".br").unlink(missing_ok=True)
    return {"REFLEX_WEB_WORKDIR": str(web), "REFLEX_STATES_WORKDIR": str(workdir / "states")}


@contextmanager
def production_shop(workdir: Path, port: int, env: dict[str, str]) -> Iterator[str]:
    """Serve the shop's production build on ``port`` with ``env`` (the run's first shop builds
    it); yield its URL; stop it afterwards.

    Its log is ``workdir / "reflex.log"``. A build or start that fails fails the test.
    """
    log_path = workdir / "reflex.log"
    with build_turn() as claimed_repository:
        built = _run_build()
        in_repository = claimed_repository and built is None
        if built is not None:
            if claimed_repository:
                _release_repository_web()  # served from a copy: the repository's .web stays free
            env = with_frontend_tools({**env, **prebuilt_frontend_dirs(built, workdir, port)})
            command = ["-m", "tests.e2e.serve_prebuilt", str(port)]
        else:
            own = {} if in_repository else own_frontend_dirs(workdir)
            env = with_frontend_tools({**env, **own})
            command = ["-m", "reflex", "run", "--env", "prod", "--single-port", "--frontend-port", str(port)]
        with log_path.open("w") as log:
            server = subprocess.Popen(
                [sys.executable, *command],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        url = f"http://localhost:{port}"
        try:
            wait_until_serving(url, server, log_path, BUILD_TIMEOUT_S)
        except BaseException as error:  # a failed start, or stopped meanwhile (Ctrl-C, SIGTERM)
            stop_process_group(server, timeout_s=20)
            if in_repository:
                _release_repository_web()
            if isinstance(error, RuntimeError):
                pytest.fail(str(error))
            raise
        if built is None:
            _record_build(Path(env.get("REFLEX_WEB_WORKDIR") or ROOT / ".web"), port)
    try:
        yield url
    finally:
        stop_process_group(server, timeout_s=20)
        if in_repository:
            _release_repository_web()
