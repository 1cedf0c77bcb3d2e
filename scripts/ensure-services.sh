#!/usr/bin/env bash
# Makes sure PostgreSQL, Redis and Chromium are available for the test suite: starts or
# installs them when this is a Debian machine and we are root, else says what to run.
set -uo pipefail

PG_HOST=127.0.0.1 PG_PORT=5432 REDIS_PORT=6379
can_install() { [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; }
apt_updated=0
apt_install() {
  if ((apt_updated == 0)); then DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null && apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
pg_up() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT" 2>/dev/null || (exec 3<>"/dev/tcp/$PG_HOST/$PG_PORT") 2>/dev/null; }
redis_up() { [[ $(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null) == PONG ]]; }
fail() { echo "ensure-services: $*" >&2; exit 1; }

if [[ -z ${TEST_DATABASE_URL:-} ]] && ! pg_up; then
  if can_install; then
    command -v pg_ctlcluster >/dev/null || apt_install postgresql
    version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n1)
    [[ -n $version ]] || fail "PostgreSQL is installed but has no cluster"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    for _ in $(seq 1 30); do pg_up && break; sleep 1; done
    pg_up || fail "PostgreSQL did not start on $PG_HOST:$PG_PORT"
    # The tests connect as postgres without a password over TCP.
    hba=/etc/postgresql/$version/main/pg_hba.conf
    if ! grep -qE '^host\s+all\s+all\s+127\.0\.0\.1/32\s+trust' "$hba"; then
      sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
      pg_ctlcluster --skip-systemctl-redirect "$version" main reload
    fi
  else
    fail "PostgreSQL is not answering on $PG_HOST:$PG_PORT. Start it (e.g. 'pg_ctlcluster 15 main start') or set TEST_DATABASE_URL."
  fi
fi

if [[ -z ${TEST_REDIS_URL:-} ]] && ! redis_up; then
  if can_install; then
    command -v redis-server >/dev/null || apt_install redis-server
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" --appendonly no >/dev/null
    for _ in $(seq 1 30); do redis_up && break; sleep 0.5; done
    redis_up || fail "Redis did not start on 127.0.0.1:$REDIS_PORT"
  else
    fail "Redis is not answering on 127.0.0.1:$REDIS_PORT. Run: redis-server --daemonize yes --port 6379 --save '' --appendonly no (or set TEST_REDIS_URL)."
  fi
fi

if [[ -z ${CHROMIUM_PATH:-} ]] && [[ ! -x /usr/bin/chromium ]]; then
  if can_install; then
    apt_install chromium || fail "could not install chromium"
  else
    fail "Chromium is needed for the browser tests: apt-get install -y chromium (or set CHROMIUM_PATH)."
  fi
fi
exit 0
