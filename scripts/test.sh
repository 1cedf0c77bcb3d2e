#!/usr/bin/env bash
# `npm test`: type check, build the web app, then every Vitest project (web unit tests and
# integration tests against real PostgreSQL and Redis as one group, then browser end-to-end
# tests in Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-services.sh
# The type check gates nothing the tests need: it runs beside the build and the tests, and its
# result is read at the end. Only the end-to-end tests need the build.
typecheck_log=$(mktemp)
typecheck=""
cleanup() {
  if [ -n "$typecheck" ]; then kill "$typecheck" 2>/dev/null || true; fi
  rm -f "$typecheck_log"
}
trap cleanup EXIT
echo "▶ type check (in the background) and web build"
npx tsc -p tsconfig.json --noEmit >"$typecheck_log" 2>&1 &
typecheck=$!
build_status=0
npm run build -w web --silent >/dev/null || build_status=$?
if [ "$build_status" -ne 0 ]; then echo "✗ web build failed" >&2; exit "$build_status"; fi
echo "▶ tests"
test_status=0
npx vitest run "$@" || test_status=$?
typecheck_status=0
wait "$typecheck" || typecheck_status=$?
typecheck=""
cat "$typecheck_log"
if [ "$typecheck_status" -ne 0 ]; then echo "✗ type check failed" >&2; exit "$typecheck_status"; fi
echo "✓ type check"
exit "$test_status"
