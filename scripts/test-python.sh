#!/usr/bin/env bash
# The Python SDK's tests (python/tests) against a real server: starts the API alone
# (scripts/serve-api.ts) on a free loopback port with a throwaway DATA_DIR, waits for /health, runs
# pytest with LAYERLINE_URL pointing at it, then stops the server.
#
#   PYTHON           interpreter with pytest (default: /usr/bin/python3 when it has pytest, else python3)
#   LAYERLINE_TORCH_PYTHON  interpreter with torch for the own-hardware test (default /usr/bin/python3)
#   PYTEST_JSON_OUTPUT      write {numPassedTests, numFailedTests, numPendingTests} there (for
#                           scripts/summarize-tests.mjs)
#   extra arguments are passed to pytest (e.g. -k stream -x)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [[ -z "${PYTHON:-}" ]]; then
  if /usr/bin/python3 -c "import pytest" >/dev/null 2>&1; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
if ! "$PYTHON" -c "import pytest" >/dev/null 2>&1; then
  echo "test-python: $PYTHON has no pytest (apt-get install python3-pytest)" >&2
  exit 1
fi

PORT="$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
DATA_DIR="$(mktemp -d -t layerline-pytest-XXXXXX)"
LOG="$DATA_DIR/server.log"
SERVER_PID=""

cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$DATA_DIR"
}
trap cleanup EXIT INT TERM

# Run tsx directly (not through npx) so that $SERVER_PID is the server itself.
env -u DATABASE_URL PORT="$PORT" HOSTNAME=127.0.0.1 DATA_DIR="$DATA_DIR/data" \
  RATE_LIMIT_PER_MINUTE="${RATE_LIMIT_PER_MINUTE:-100000}" \
  node --import tsx scripts/serve-api.ts >"$LOG" 2>&1 &
SERVER_PID=$!

URL="http://127.0.0.1:$PORT"
for i in $(seq 1 360); do
  if curl -fsS "$URL/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "test-python: the server exited:" >&2
    cat "$LOG" >&2
    exit 1
  fi
  if [[ "$i" == 360 ]]; then
    echo "test-python: the server did not answer /health within 180 s" >&2
    cat "$LOG" >&2
    exit 1
  fi
  sleep 0.5
done

status=0
LAYERLINE_URL="$URL" LAYERLINE_TORCH_PYTHON="${LAYERLINE_TORCH_PYTHON:-/usr/bin/python3}" \
  PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}" PYTHONDONTWRITEBYTECODE=1 \
  "$PYTHON" -m pytest -p no:cacheprovider -q "$ROOT/python/tests" "$@" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- server log (last 60 lines) ---" >&2
  tail -n 60 "$LOG" >&2 || true
fi
exit $status
