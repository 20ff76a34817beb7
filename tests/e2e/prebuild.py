"""Build the shop's production frontend for a test run before its browser tests start:
``python -m tests.e2e.prebuild WORKDIR`` with ``SHOP_TEST_RUN_ID`` set to the run's id.

``scripts/test`` starts it in the background while the checks (ruff, import-linter, mypy) run: the
build (a minute or two of bun on a 2-core machine) then overlaps them instead of following them.
It builds and starts the shop exactly as the run's first browser-test shop would
(``tests.e2e.shops.production_shop``, on a throw-away database below ``WORKDIR``), records the
build as the run's and stops the shop; every shop of the run's browser tests then serves a copy of
that build with its own port (seconds). When it fails, or the run has no such id, the first
browser-test shop builds as before, so a failure here costs time, never a test.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.e2e.shops import ROOT, RUN_ID_VARIABLE, production_shop
from tests.support.servers import free_port


def _stop(signum: int, _frame: object) -> None:
    sys.exit(128 + signum)  # unwinds production_shop, which stops the shop it started


def main(workdir: Path) -> None:
    signal.signal(signal.SIGTERM, _stop)
    if not os.environ.get(RUN_ID_VARIABLE):
        sys.exit(f"{RUN_ID_VARIABLE} is not set: the build would belong to no test run")
    workdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'shop.db'}",
        "MEDIA_DIR": str(workdir / "media"),
        "SITE_URL": f"http://localhost:{port}",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "MAIL_BACKEND": "outbox",
    }
    env.pop("REFLEX_REDIS_URL", None)
    subprocess.run([sys.executable, "-m", "shop_app", "prepare"], cwd=ROOT, env=env, check=True)
    with production_shop(workdir, port, env) as url:
        sys.stdout.write(f"prebuilt the frontend for this test run (served at {url}, now stopped)\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
