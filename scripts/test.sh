#!/usr/bin/env bash
# `npm test`: type check, build the web app, then every Vitest project (web unit tests,
# integration tests against real PostgreSQL and Redis, browser end-to-end in Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-services.sh
echo "▶ type check"
npx tsc -p tsconfig.json --noEmit
echo "▶ web build"
npm run build -w web --silent >/dev/null
echo "▶ tests"
npx vitest run "$@"
