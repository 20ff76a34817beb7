# Shared set-up of the two README commands (sourced, not run): a virtual environment with the
# pinned Python packages, and the npm tools in tools/ (bun for Reflex's frontend build, axe-core, lighthouse).
# Re-running is cheap: each step is skipped when its inputs have not changed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PYTHON="${PYTHON:-python3}"

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "error: Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
command -v npm >/dev/null || { echo "error: npm (Node.js) is needed to install bun" >&2; exit 1; }

if [ ! -x .venv/bin/python ]; then
  echo "==> creating the virtual environment (.venv)"
  "$PYTHON" -m venv .venv
fi
stamp=".venv/.requirements.sha256"
want="$(sha256sum requirements.txt | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "==> installing Python packages (requirements.txt)"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r requirements.txt
  echo "$want" > "$stamp"
fi

tools_stamp="tools/node_modules/.package-lock.sha256"
tools_want="$(sha256sum tools/package-lock.json | cut -d' ' -f1)"
if [ "$(cat "$tools_stamp" 2>/dev/null)" != "$tools_want" ] || [ ! -x tools/node_modules/.bin/bun ]; then
  echo "==> installing bun, axe-core and lighthouse (tools/package-lock.json, npm registry)"
  npm ci --silent --no-audit --no-fund --prefix tools
  echo "$tools_want" > "$tools_stamp"
fi

export PATH="$ROOT/.venv/bin:$ROOT/tools/node_modules/.bin:$PATH"
export REFLEX_BUN_PATH="$ROOT/tools/node_modules/.bin/bun"
export REFLEX_TELEMETRY_ENABLED=false
