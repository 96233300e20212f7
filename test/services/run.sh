#!/usr/bin/env bash
# Starts, stops and restarts the stores the replay-store tests run against: Debian's redis-server
# (append-only file on, as a merchant runs it) and PostgreSQL 15, each on 127.0.0.1 on a free port,
# its data in a directory of its own. Used by .ci/run and by the tests that restart a store.
#
#   test/services/run.sh start redis|postgres DIR   prints `export TEST_REDIS_URL=... TEST_REDIS_DIR=...`
#                                                   (TEST_POSTGRES_URL, TEST_POSTGRES_DIR) for eval
#   test/services/run.sh stop redis|postgres DIR
#   test/services/run.sh restart redis|postgres DIR same port, same data
#
# PostgreSQL's binaries are looked for in /usr/lib/postgresql/*/bin; initdb refuses root, so as root
# the server runs as the user `postgres` (DIR is handed to it).
set -euo pipefail

command=${1:-}
engine=${2:-}
dir=${3:-}
if [ -z "$command" ] || [ -z "$engine" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop|restart redis|postgres DIR" >&2
  exit 2
fi

free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# Waits (at most 15 s) until `$@` succeeds.
wait_for() {
  for _ in $(seq 1 150); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  return 1
}

pg_bin() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$found" ] || { echo "run.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
  echo "$found"
}

# Runs a PostgreSQL command as the owner of the data (postgres when this script runs as root).
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

redis_start() {
  local port
  mkdir -p "$dir"
  port=$(cat "$dir/port" 2>/dev/null || free_port)
  echo "$port" >"$dir/port"
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --appendonly yes --save '' \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
  wait_for redis-cli -p "$port" ping || { tail -20 "$dir/redis.log" >&2; exit 1; }
  echo "export TEST_REDIS_URL=redis://127.0.0.1:$port TEST_REDIS_DIR=$dir"
}

redis_stop() {
  local pid
  pid=$(cat "$dir/redis.pid" 2>/dev/null || true)
  [ -n "$pid" ] || return 0
  # SIGTERM: Redis writes its append-only file out and exits.
  kill -TERM "$pid" 2>/dev/null || true
  wait_for bash -c "! kill -0 $pid" || kill -KILL "$pid" 2>/dev/null || true
  rm -f "$dir/redis.pid"
}

postgres_start() {
  local bin port
  bin=$(pg_bin)
  mkdir -p "$dir"
  chmod 755 "$dir"
  port=$(cat "$dir/port" 2>/dev/null || free_port)
  echo "$port" >"$dir/port"
  if [ ! -d "$dir/data" ]; then
    mkdir -p "$dir/data"
    [ "$(id -u)" = 0 ] && chown postgres "$dir/data"
    as_pg "$bin/initdb" -D "$dir/data" -U gateway -A trust --no-sync >"$dir/initdb.log" 2>&1 || { tail -20 "$dir/initdb.log" >&2; exit 1; }
    touch "$dir/postgres.log"
    [ "$(id -u)" = 0 ] && chown postgres "$dir/postgres.log"
  fi
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 15 \
    -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off" start >/dev/null ||
    { tail -20 "$dir/postgres.log" >&2; exit 1; }
  echo "export TEST_POSTGRES_URL=postgres://gateway@127.0.0.1:$port/postgres TEST_POSTGRES_DIR=$dir"
}

postgres_stop() {
  [ -f "$dir/data/postmaster.pid" ] || return 0
  as_pg "$(pg_bin)/pg_ctl" -D "$dir/data" -m fast -w -t 15 stop >/dev/null || true
}

case "$command:$engine" in
  start:redis) redis_start ;;
  stop:redis) redis_stop ;;
  restart:redis) redis_stop && redis_start >/dev/null ;;
  start:postgres) postgres_start ;;
  stop:postgres) postgres_stop ;;
  restart:postgres) postgres_stop && postgres_start >/dev/null ;;
  *)
    echo "usage: $0 start|stop|restart redis|postgres DIR" >&2
    exit 2
    ;;
esac
