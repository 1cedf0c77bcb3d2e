#!/usr/bin/env bash
# `npm test`: type check, build the web app, then every Vitest project (web unit tests,
# integration tests against real PostgreSQL and Redis, browser end-to-end in Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-services.sh
# The type check and the web build share nothing and each keeps one core busy: side by side.
echo "▶ type check and web build"
typecheck_log=$(mktemp)
trap 'rm -f "$typecheck_log"' EXIT
npx tsc -p tsconfig.json --noEmit >"$typecheck_log" 2>&1 &
typecheck=$!
build_status=0
npm run build -w web --silent >/dev/null || build_status=$?
typecheck_status=0
wait "$typecheck" || typecheck_status=$?
cat "$typecheck_log"
if [ "$typecheck_status" -ne 0 ]; then echo "✗ type check failed" >&2; exit "$typecheck_status"; fi
if [ "$build_status" -ne 0 ]; then echo "✗ web build failed" >&2; exit "$build_status"; fi
echo "▶ tests"
npx vitest run "$@"
