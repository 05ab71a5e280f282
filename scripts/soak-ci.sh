#!/usr/bin/env bash
# CI's soak test of the local cluster, with a small budget (about two minutes on two cores): starts the
# cluster (scripts/cluster.sh: PostgreSQL, the S3-compatible server, two API servers, two workers,
# HAProxy) on its own directory and ports, runs scripts/cluster-checks.ts (state made on one API server
# honoured by the other, a few seconds), then scripts/soak.ts for SOAK_SECONDS (default 50) with short
# jobs, kill -9 of one API server and one worker and their restart included, prints the soak's figures
# and always stops the cluster. Exits non-zero when a check fails (the processes' last log lines are
# printed then).
#
# Settings: CLUSTER_PORT (default 8760; the API servers take 8761 and 8762, PostgreSQL 8763),
# CLUSTER_DIR (default /tmp/layerline-soak-ci), and the soak's own SOAK_* settings (scripts/soak.ts).
# Request limits are each plan's own (CLUSTER_RATE_LIMIT unset), so the soak tests a real one.
set -euo pipefail
cd "$(dirname "$0")/.."
export CLUSTER_DIR=${CLUSTER_DIR:-/tmp/layerline-soak-ci}
export CLUSTER_PORT=${CLUSTER_PORT:-8760}
export CLUSTER_RATE_LIMIT=
export SOAK_SECONDS=${SOAK_SECONDS:-50}
# Jobs of a few seconds: several finish in the time, one is running when its worker is killed.
export SOAK_EPOCHS=${SOAK_EPOCHS:-60}
export SOAK_EXTERNAL_EPOCHS=${SOAK_EXTERNAL_EPOCHS:-6}
export SOAK_RESTART_SECONDS=${SOAK_RESTART_SECONDS:-8}
export SOAK_DRAIN_SECONDS=${SOAK_DRAIN_SECONDS:-90}
start=$(date +%s)

# What an interrupted run left behind (its processes hold the ports).
if [ -f "$CLUSTER_DIR/cluster.env" ]; then bash scripts/cluster.sh down; fi

finish() {
  local rc=$?
  trap - EXIT
  if [ "$rc" -ne 0 ] && [ -d "$CLUSTER_DIR/logs" ]; then
    for f in "$CLUSTER_DIR"/logs/*.log; do
      echo "--- last lines of $f"
      grep -v -e 'AWS SDK' -e 'node >=22' -e 'versions published' -e 'security updates' -e 'a.co/' \
        -e 'trace-warnings' -e '^$' "$f" | tail -n 25 || true
    done
  fi
  bash scripts/cluster.sh down || true
  echo "soak-ci: exit $rc, wall time $(($(date +%s) - start)) s"
  exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM

bash scripts/cluster.sh up
echo "soak-ci: cluster up after $(($(date +%s) - start)) s"
# Each kind of state one API server creates honoured by the other, asked of api1 and api2 directly
# (sessions, personal keys, Idempotency-Key, single-use links, sign-in back-off, stream tokens).
checks_start=$(date +%s)
timeout --signal=TERM 120 npx tsx scripts/cluster-checks.ts
echo "soak-ci: cluster checks took $(($(date +%s) - checks_start)) s"
# Bounded even if something hangs: the soak's own waits are bounded well below this.
timeout --signal=TERM 600 npx tsx scripts/soak.ts
