# Shared set-up of the two README commands (sourced, not run): a virtual environment with the
# pinned Python packages, and bun from the npm registry for Reflex's frontend build.
# Re-running is cheap: each step is skipped when its inputs have not changed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

BUN_VERSION="1.4.4"
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

if [ "$(.tools/node_modules/.bin/bun --version 2>/dev/null)" != "$BUN_VERSION" ]; then
  echo "==> installing bun $BUN_VERSION (npm package) into .tools/"
  mkdir -p .tools
  npm install --silent --no-save --no-audit --no-fund --prefix .tools "bun@$BUN_VERSION"
fi

export PATH="$ROOT/.venv/bin:$ROOT/.tools/node_modules/.bin:$PATH"
export REFLEX_BUN_PATH="$ROOT/.tools/node_modules/.bin/bun"
export REFLEX_TELEMETRY_ENABLED=false
