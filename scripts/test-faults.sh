#!/usr/bin/env bash
# `npm run test:faults`: the fault tests (test/faults): real server and worker processes killed
# with -9, stopped with SIGTERM, PostgreSQL restarted and Redis killed under load; each test file
# starts its own PostgreSQL cluster and Redis server, so the shared services are never touched.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-services.sh
TRIBUNA_FAULTS=1 npx vitest run --project faults "$@"
