#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the run-store tests.
#
#   scripts/pg_test_cluster.sh start   # creates and starts it; prints its URI
#   scripts/pg_test_cluster.sh uri     # prints the URI of the running cluster
#   scripts/pg_test_cluster.sh stop    # shuts it down and removes its folder
#
#   export GRIFFIN_TEST_PG_URI=$(scripts/pg_test_cluster.sh start)
#
# The cluster lives in a fresh temp folder, listens on 127.0.0.1 only, on the
# first free port from 55432 (or $GRIFFIN_PG_PORT), with its socket in that
# folder. The test role griffin_test (a random password, scram-sha-256 auth
# over TCP) owns the database griffin_test; griffin_test_one_connection (same
# password, a member of griffin_test) may hold one connection at a time, for
# tests of a server that refuses more. `start` on a running cluster just
# prints its URI. The state (folder, port) is kept in $GRIFFIN_PG_STATE
# (default ${TMPDIR:-/tmp}/griffin-pg-test.state), so two clusters can coexist
# with different state files.
#
# initdb refuses to run as root: as root, the server runs as the `postgres`
# OS user (runuser); otherwise as the current user. Binaries: pg_config
# --bindir, else Debian's /usr/lib/postgresql/<newest>/bin.
set -euo pipefail

STATE=${GRIFFIN_PG_STATE:-${TMPDIR:-/tmp}/griffin-pg-test.state}
ROLE=griffin_test
DATABASE=griffin_test

die() { echo "pg_test_cluster: $*" >&2; exit 1; }

find_bindir() {
  local dir
  for dir in "${GRIFFIN_PG_BINDIR:-}" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [[ -n "$dir" && -x "$dir/initdb" ]] && { echo "$dir"; return; }
  done
  if command -v pg_config >/dev/null && [[ -x "$(pg_config --bindir)/initdb" ]]; then
    pg_config --bindir; return
  fi
  die "initdb not found (install Debian's postgresql, or set GRIFFIN_PG_BINDIR)"
}

BIN=$(find_bindir)

# Runs a server-side command as the cluster's owner.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

read_state() {
  [[ -f "$STATE" ]] || return 1
  # shellcheck disable=SC1090
  source "$STATE"
  [[ -n "${DIR:-}" && -n "${PORT:-}" && -d "$DIR" ]]
}

print_uri() { echo "postgresql://$ROLE:$(cat "$DIR/password")@127.0.0.1:$PORT/$DATABASE"; }

running() { as_owner "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; }

start() {
  if read_state && running; then print_uri; return; fi
  if read_state; then stop_cluster; fi
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/griffin-pg.XXXXXX")
  chmod 700 "$DIR"
  head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$DIR/password"
  [[ $(id -u) -eq 0 ]] && chown -R postgres: "$DIR"
  as_owner "$BIN/initdb" -D "$DIR/data" -U postgres -E UTF8 --no-locale --no-sync \
    --auth-local=trust --auth-host=scram-sha-256 >"$DIR/initdb.log" 2>&1 \
    || { cat "$DIR/initdb.log" >&2; die "initdb failed"; }
  local port=${GRIFFIN_PG_PORT:-55432} tries=0
  while :; do
    if ! port_in_use "$port" &&
       as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 30 start \
         -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$DIR -c fsync=off -c max_connections=200" \
         >/dev/null; then
      break
    fi
    tries=$((tries + 1)); port=$((port + 1))
    [[ $tries -lt 50 ]] || { cat "$DIR/server.log" >&2 || true; die "no free port found"; }
  done
  PORT=$port
  printf 'DIR=%q\nPORT=%q\n' "$DIR" "$PORT" >"$STATE"
  # The password is hex, so quoting it in SQL is safe.
  as_owner "$BIN/psql" -q -X -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -U postgres -d postgres \
    -c "CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$(cat "$DIR/password")'" \
    -c "CREATE ROLE ${ROLE}_one_connection LOGIN CONNECTION LIMIT 1 IN ROLE $ROLE PASSWORD '$(cat "$DIR/password")'" \
    -c "CREATE DATABASE $DATABASE OWNER $ROLE" >/dev/null
  print_uri
}

stop_cluster() {
  as_owner "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
  rm -f "$STATE"
}

case "${1:-}" in
  start) start ;;
  uri) read_state && running || die "no cluster running (state: $STATE)"; print_uri ;;
  stop) if read_state; then stop_cluster; else rm -f "$STATE"; fi ;;
  *) echo "usage: $0 start|uri|stop" >&2; exit 2 ;;
esac
