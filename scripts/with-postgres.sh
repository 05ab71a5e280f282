#!/usr/bin/env bash
# Runs a command with TEST_DATABASE_URL pointing at a PostgreSQL server: the one given in
# TEST_DATABASE_URL, or a throwaway cluster started from the installed PostgreSQL binaries.
set -euo pipefail
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  exec "$@"
fi
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "PostgreSQL is not installed: install it (Debian: apt-get install -y postgresql) or set TEST_DATABASE_URL." >&2
  exit 1
fi
dir=$(mktemp -d /tmp/layerline-pg.XXXXXX)
as_pg=()
if [ "$(id -u)" = "0" ]; then
  chown postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
"${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
# A free loopback port (or PG_TEST_PORT): a fixed port can be held by another program, or by a
# connection that happened to get it as its ephemeral port. Tried up to five times.
free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}
started=""
for attempt in 1 2 3 4 5; do
  port=${PG_TEST_PORT:-$(free_port)}
  if "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" -l "$dir/log" -w start >/dev/null; then
    started=1
    break
  fi
  [ -n "${PG_TEST_PORT:-}" ] && break
done
if [ -z "$started" ]; then
  echo "PostgreSQL did not start; its log:" >&2
  tail -n 20 "$dir/log" >&2 || true
  rm -rf "$dir"
  exit 1
fi
cleanup() {
  "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on port $port"
"$@"
