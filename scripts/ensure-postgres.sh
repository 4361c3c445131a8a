#!/usr/bin/env bash
# The data-layer tests run on PostgreSQL too (decision 0074): this starts a private server for
# them and prints its URL on the last line of stdout. Idempotent: a server already running on the
# port is reused. Debian's `postgresql` package is installed when missing (as root, as in CI).
# Any failure is one line on stderr, "PostgreSQL could not start: <reason>", and exit status 1.
#
#   TEST_PG_PORT  port on 127.0.0.1 (default 55432)
#   TEST_PG_DIR   the cluster's directory (default /tmp/storefront-pg-<port>)
set -uo pipefail

port="${TEST_PG_PORT:-55432}"
dir="${TEST_PG_DIR:-/tmp/storefront-pg-$port}"
role=storefront
database=storefront
log="$(mktemp -t ensure-postgres.XXXXXX)"
trap 'rm -f "$log"' EXIT

fail() {
  echo "PostgreSQL could not start: $*" >&2
  exit 1
}

# The line of a failed command's output that says why (its last error, or its last line).
reason_from_log() {
  local file="${1:-$log}" why
  why="$(grep -E 'FATAL|ERROR|could not|error' "$file" 2>/dev/null | tail -n 1)"
  [ -n "$why" ] || why="$(grep -v '^\s*$' "$file" 2>/dev/null | tail -n 1)"
  # Without the server log's "2026-01-01 00:00:00.000 UTC [123] " prefix.
  echo "${why:-no output}" | sed -E 's/^[0-9-]+ [0-9:.]+ [A-Z]+ \[[0-9]+\] //'

}

find_bin_dir() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  if [ -n "$found" ] && [ -x "$found/initdb" ]; then
    echo "$found"
  elif command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
  fi
}

bin="$(find_bin_dir)"
if [ -z "$bin" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    fail "initdb not found; install PostgreSQL ('sudo apt-get install -y postgresql') and try again"
  fi
  echo "Installing Debian's postgresql for the data-layer tests..." >&2
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq postgresql; } >"$log" 2>&1 ||
    fail "apt-get install postgresql failed: $(reason_from_log)"
  bin="$(find_bin_dir)"
  [ -n "$bin" ] || fail "initdb still missing after installing postgresql"
fi

# The server refuses to run as root: as root, the cluster belongs to the `postgres` user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
  fail "user 'postgres' is missing (it comes with Debian's postgresql package)"
fi

mkdir -p "$dir" || fail "cannot create $dir"
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir" || fail "cannot give $dir to postgres"; fi
chmod 700 "$dir"

if [ ! -f "$dir/PG_VERSION" ]; then
  as_owner "$bin/initdb" -D "$dir" -U postgres --auth=trust --encoding=UTF8 --locale=C \
    >"$log" 2>&1 || fail "initdb failed: $(reason_from_log)"
fi

if ! as_owner "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
  # Loopback only, trust authentication: a throwaway server for tests, fast rather than durable
  # (no autovacuum either: its workers would hold up dropping a test's database).
  as_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start -o \
    "-p $port -c listen_addresses=127.0.0.1 -k $dir -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c autovacuum=off" \
    >"$log" 2>&1 || fail "pg_ctl start failed on port $port: $(reason_from_log "$dir/server.log")"
fi

psql_admin() {
  "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -tAq "$@"
}

# A server on the port that is not ours (or not answering) is reported, not guessed around.
psql_admin -c "select 1" >"$log" 2>&1 || fail "no answer on 127.0.0.1:$port: $(reason_from_log)"

if [ "$(psql_admin -c "select 1 from pg_roles where rolname = '$role'" 2>"$log")" != "1" ]; then
  psql_admin -c "create role $role login createdb password '$role'" >"$log" 2>&1 ||
    fail "cannot create role $role: $(reason_from_log)"
fi
# The tests drop their databases WITH (FORCE), which must be allowed to end any session still in them.
psql_admin -c "grant pg_signal_backend to $role" >"$log" 2>&1 ||
  fail "cannot grant pg_signal_backend to $role: $(reason_from_log)"
if [ "$(psql_admin -c "select 1 from pg_database where datname = '$database'" 2>"$log")" != "1" ]; then
  psql_admin -c "create database $database owner $role" >"$log" 2>&1 ||
    fail "cannot create database $database: $(reason_from_log)"
fi

echo "postgres://$role:$role@127.0.0.1:$port/$database"
