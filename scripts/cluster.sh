#!/usr/bin/env bash
# A local cluster on one machine, the topology of several machines: a throwaway PostgreSQL, an
# S3-compatible server (scripts/s3-server.ts), two API servers, two job workers and HAProxy in front.
#
#   bash scripts/cluster.sh up        start everything (prints the load balancer's URL)
#   bash scripts/cluster.sh status    each process: running or not, its pid and log
#   bash scripts/cluster.sh down      stop everything, remove the cluster's directory
#   bash scripts/cluster.sh kill NAME    kill -9 one process (api1, api2, worker1, worker2)
#   bash scripts/cluster.sh start NAME   start it again
#   bash scripts/cluster.sh env       the settings of the cluster (DATABASE_URL, S3_*, CLUSTER_URL)
#
# Settings: CLUSTER_DIR (default /tmp/layerline-cluster: logs/, pids/, the database, the settings),
# CLUSTER_PORT (the load balancer, default 8700; the API servers take the next two ports, PostgreSQL
# the third), CLUSTER_STUDIO=1 runs the full server (scripts/server.ts, needs `next build`;
# NEXT_DIST_DIR is honoured, default .next) instead of the API-only one (scripts/serve-api.ts),
# CLUSTER_WORKERS (default 2), CLUSTER_RATE_LIMIT (RATE_LIMIT_PER_MINUTE for every process; default
# unset: each plan's own request limits, as in production). `up` records CLUSTER_PORT, CLUSTER_WORKERS
# and CLUSTER_STUDIO in CLUSTER_DIR; the other commands read them from there. Every process is started
# in its own process group; `down` and `kill` end those groups (a worker's training programs with it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CLUSTER_DIR:-/tmp/layerline-cluster}
cmd=${1:-status}
# A running cluster's own settings, as `up` recorded them (whatever this shell's environment says).
if [ "$cmd" != up ] && grep -q '^CLUSTER_PORT=' "$dir/cluster.env" 2>/dev/null; then
  recorded() { grep -m1 "^$1=" "$dir/cluster.env" | cut -d= -f2- || true; }
  CLUSTER_PORT=$(recorded CLUSTER_PORT)
  CLUSTER_WORKERS=$(recorded CLUSTER_WORKERS)
  CLUSTER_STUDIO=$(recorded CLUSTER_STUDIO)
fi
lb_port=${CLUSTER_PORT:-8700}
api_ports=($((lb_port + 1)) $((lb_port + 2)))
workers=${CLUSTER_WORKERS:-2}

log() { echo "[cluster] $*" >&2; }

pid_of() { cat "$dir/pids/$1.pid" 2>/dev/null || true; }
# Running, and not a zombie waiting to be reaped.
alive() {
  local p
  p=$(pid_of "$1")
  [ -n "$p" ] && kill -0 "$p" 2>/dev/null && [ "$(ps -o stat= -p "$p" | cut -c1)" != "Z" ]
}

# Runs a command in its own session (process group = its pid), output to logs/NAME.log.
launch() {
  local name=$1
  shift
  mkdir -p "$dir/logs" "$dir/pids"
  echo "--- start $(date -u +%FT%TZ)" >>"$dir/logs/$name.log"
  (cd "$root" && exec setsid "$@" >>"$dir/logs/$name.log" 2>&1 </dev/null) &
  echo $! >"$dir/pids/$name.pid"
}

stop_group() {
  local name=$1 signal=${2:-TERM} p
  p=$(pid_of "$name")
  [ -z "$p" ] && return 0
  kill "-$signal" -- "-$p" 2>/dev/null || kill "-$signal" "$p" 2>/dev/null || true
}

wait_http() {
  local url=$1 what=$2 tries=${3:-300}
  for _ in $(seq "$tries"); do
    if curl -fsS -o /dev/null "$url" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  log "$what did not answer at $url"
  return 1
}

pg_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

as_pg() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  local bindir port
  bindir=$(pg_bindir)
  if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    log "PostgreSQL is not installed (Debian: apt-get install -y postgresql)"
    exit 1
  fi
  mkdir -p "$dir/pg"
  [ "$(id -u)" = "0" ] && chown postgres "$dir/pg"
  as_pg "$bindir/initdb" -D "$dir/pg/data" -U postgres --auth=trust -E UTF8 >/dev/null
  port=${CLUSTER_PG_PORT:-$((lb_port + 3))}
  as_pg "$bindir/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" -w start \
    -o "-p $port -k $dir/pg -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" >/dev/null
  echo "DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres" >>"$dir/cluster.env"
}

stop_postgres() {
  local bindir
  bindir=$(pg_bindir)
  [ -d "$dir/pg/data" ] && as_pg "$bindir/pg_ctl" -D "$dir/pg/data" -m fast stop >/dev/null 2>&1 || true
}

start_s3() {
  rm -f "$dir/s3.env"
  S3_ENV_FILE="$dir/s3.env" launch s3 node --import tsx scripts/s3-server.ts
  for _ in $(seq 150); do [ -s "$dir/s3.env" ] && break; sleep 0.2; done
  if [ ! -s "$dir/s3.env" ]; then
    log "the S3-compatible server did not start: $(tail -n 5 "$dir/logs/s3.log")"
    exit 1
  fi
  grep -v '^S3_DIRECTORY=' "$dir/s3.env" >>"$dir/cluster.env"
}

# The settings every server and worker shares.
cluster_env() {
  set -a
  # shellcheck disable=SC1091
  . "$dir/cluster.env"
  set +a
}

start_api() {
  local name=$1 port=$2 entry=scripts/serve-api.ts
  [ "${CLUSTER_STUDIO:-}" = "1" ] && entry=scripts/server.ts
  (
    cluster_env
    export PORT=$port HOSTNAME=127.0.0.1 LAYERLINE_WORKERS=external \
      DATA_DIR="$dir/data-$name" BLOB_CACHE_DIR="$dir/cache-$name" \
      LAYERLINE_INTERNAL_URL="http://127.0.0.1:$lb_port" TRUSTED_PROXIES=loopback \
      PUBLIC_ORIGIN="http://127.0.0.1:$lb_port" NEXT_DIST_DIR="${NEXT_DIST_DIR:-.next}"
    launch "$name" node --max-semi-space-size=32 --import tsx "$entry"
  )
}

start_worker() {
  local name=$1
  (
    cluster_env
    export DATA_DIR="$dir/data-$name" BLOB_CACHE_DIR="$dir/cache-$name" \
      LAYERLINE_INTERNAL_URL="http://127.0.0.1:$lb_port"
    launch "$name" node --import tsx scripts/worker.ts
  )
}

start_haproxy() {
  PATH=$PATH:/usr/sbin # where Debian installs it, not on every user's PATH
  if ! command -v haproxy >/dev/null; then
    log "HAProxy is not installed (Debian: apt-get install -y haproxy)"
    exit 1
  fi
  cat >"$dir/haproxy.cfg" <<EOF
global
  maxconn 4096
defaults
  mode http
  option forwardfor
  option redispatch
  retries 2
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  timeout tunnel 1h
frontend layerline
  bind 127.0.0.1:$lb_port
  default_backend api
backend api
  balance roundrobin
  option httpchk
  http-check send meth GET uri /health ver HTTP/1.1 hdr Host localhost
  default-server inter 1s fall 2 rise 2
  # Which server answered (the soak test counts each server's share of calls).
  http-response set-header X-Served-By %s
  server api1 127.0.0.1:${api_ports[0]} check
  server api2 127.0.0.1:${api_ports[1]} check
EOF
  launch haproxy haproxy -db -f "$dir/haproxy.cfg"
}

names() {
  echo s3 api1 api2
  for i in $(seq "$workers"); do echo "worker$i"; done
  echo haproxy
}

start_one() {
  case $1 in
    api1) start_api api1 "${api_ports[0]}" ;;
    api2) start_api api2 "${api_ports[1]}" ;;
    worker*) start_worker "$1" ;;
    haproxy) start_haproxy ;;
    *) log "unknown process: $1 (api1, api2, worker1…)"; exit 2 ;;
  esac
}

case $cmd in
  up)
    if [ -f "$dir/cluster.env" ]; then
      log "a cluster is already in $dir: run '$0 down' first"
      exit 1
    fi
    mkdir -p "$dir"
    : >"$dir/cluster.env"
    # One signing secret for every process: a link signed by one server is checked by another.
    echo "LAYERLINE_SECRET=$(head -c 32 /dev/urandom | base64 | tr -d '/+=\n')" >>"$dir/cluster.env"
    echo "CLUSTER_PORT=$lb_port" >>"$dir/cluster.env"
    echo "CLUSTER_WORKERS=$workers" >>"$dir/cluster.env"
    echo "CLUSTER_STUDIO=${CLUSTER_STUDIO:-}" >>"$dir/cluster.env"
    if [ -n "${CLUSTER_RATE_LIMIT:-}" ]; then
      echo "RATE_LIMIT_PER_MINUTE=$CLUSTER_RATE_LIMIT" >>"$dir/cluster.env"
    fi
    start_postgres
    start_s3
    # The first server creates the schema (migrations) before the others start.
    start_api api1 "${api_ports[0]}"
    wait_http "http://127.0.0.1:${api_ports[0]}/health" api1 600 || { tail -n 20 "$dir/logs/api1.log" >&2; exit 1; }
    start_api api2 "${api_ports[1]}"
    for i in $(seq "$workers"); do start_worker "worker$i"; done
    start_haproxy
    wait_http "http://127.0.0.1:${api_ports[1]}/health" api2 600 || { tail -n 20 "$dir/logs/api2.log" >&2; exit 1; }
    wait_http "http://127.0.0.1:$lb_port/health" haproxy
    echo "CLUSTER_URL=http://127.0.0.1:$lb_port" >>"$dir/cluster.env"
    log "up: http://127.0.0.1:$lb_port (logs in $dir/logs)"
    ;;
  down)
    for name in $(names | tac); do stop_group "$name" TERM; done
    sleep 2
    for name in $(names); do stop_group "$name" KILL; done
    stop_postgres
    # s3rver's data directory (the S3 server removes it on a clean stop; not after a kill).
    s3dir=$(grep '^S3_DIRECTORY=' "$dir/s3.env" 2>/dev/null | cut -d= -f2- || true)
    [ -n "$s3dir" ] && rm -rf "$s3dir"
    rm -rf "$dir"
    log "down"
    ;;
  status)
    [ -f "$dir/cluster.env" ] || { log "no cluster in $dir"; exit 1; }
    for name in $(names); do
      if alive "$name"; then s="running (pid $(pid_of "$name"))"; else s="stopped"; fi
      printf '%-8s %-24s %s\n' "$name" "$s" "$dir/logs/$name.log"
    done
    ;;
  kill)
    name=${2:?name}
    # The process only, as a machine that dies would: its training programs notice on their own.
    p=$(pid_of "$name")
    [ -n "$p" ] && kill -KILL "$p" 2>/dev/null || true
    for _ in $(seq 50); do alive "$name" || break; sleep 0.1; done
    log "killed $name"
    ;;
  start)
    name=${2:?name}
    if alive "$name"; then log "$name is running"; exit 0; fi
    start_one "$name"
    log "started $name"
    ;;
  env)
    cat "$dir/cluster.env"
    ;;
  *)
    echo "usage: $0 up|down|status|env|kill NAME|start NAME" >&2
    exit 2
    ;;
esac
