"""Serve the shop with a frontend another shop of this test run already built: ``python -m
tests.e2e.serve_prebuilt PORT``, with ``REFLEX_WEB_WORKDIR`` at a copy of that build whose
websocket address says ``PORT`` (``tests.e2e.shops``).

What ``reflex run --env prod --single-port`` does after its build, and only that: the production
backend on ``PORT`` with the built pages mounted (Reflex's ``_run_prod``; the backend never
compiles in production mode).
"""

from __future__ import annotations

import sys

from reflex.istate.manager import reset_disk_state_manager
from reflex.utils import exec as reflex_exec
from reflex_base import constants
from reflex_base.config import get_config, reload_config
from reflex_base.environment import environment

HOST = "0.0.0.0"  # as reflex run: Reflex's backend_host default


def main(port: int) -> None:
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    environment.REFLEX_COMPILE_CONTEXT.set(constants.CompileContext.RUN)
    environment.REFLEX_SKIP_COMPILE.set(True)
    reset_disk_state_manager()
    get_config()._set_persistent(frontend_port=port, backend_port=port)
    config = reload_config()
    sys.stdout.write(f"Serving the prebuilt frontend at http://{HOST}:{port}/\n")
    sys.stdout.flush()
    loglevel = config.loglevel.subprocess_level()
    reflex_exec.run_backend_prod(HOST, port, loglevel, mount_frontend_compiled_app=True)


if __name__ == "__main__":
    main(int(sys.argv[1]))
