#!/usr/bin/env bash
# `npm test`: type check and lint, build the web app, then every Vitest project (web unit tests
# and integration tests against real PostgreSQL and Redis as one group, then browser end-to-end
# tests in Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-services.sh
# The type check and the lint gate nothing the tests need: they run (one after the other) beside
# the build and the tests, and their results are read at the end. Only the end-to-end tests need
# the build.
typecheck_log=$(mktemp)
lint_log=$(mktemp)
lint_status_file=$(mktemp)
typecheck=""
cleanup() {
  if [ -n "$typecheck" ]; then kill "$typecheck" 2>/dev/null || true; fi
  rm -f "$typecheck_log" "$lint_log" "$lint_status_file"
}
trap cleanup EXIT
echo "▶ type check and lint (in the background) and web build"
(
  lint_status=0
  npm run lint --silent >"$lint_log" 2>&1 || lint_status=$?
  echo "$lint_status" >"$lint_status_file"
  npx tsc -p tsconfig.json --noEmit >"$typecheck_log" 2>&1
) &
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
cat "$lint_log"
lint_status=$(cat "$lint_status_file")
if [ "$lint_status" != "0" ]; then echo "✗ lint failed (npm run lint: zero warnings)" >&2; exit 1; fi
echo "✓ lint"
exit "$test_status"
