#!/usr/bin/env bash
# The whole test suite: lint, types, generated-client freshness, OpenAPI lint, unit + API tests on the
# embedded database and the local disk, the API and storage tests again on a PostgreSQL server with S3
# storage, a short soak test of the local cluster (scripts/soak-ci.sh), the Python SDK's tests against a
# real server, the production build, and e2e in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "lint and format (biome)"
npx biome ci .

step "typecheck"
npx tsc --noEmit -p .

step "no import cycles, no upward import from the server's ground floor"
npm run --silent check:cycles

step "generated API client is up to date"
bash scripts/check-client.sh

step "OpenAPI document lint (redocly)"
tmp=$(mktemp -d)
npx tsx scripts/dump-openapi.ts "$tmp/openapi.json" >/dev/null
npx redocly lint "$tmp/openapi.json" --config redocly.yaml
rm -rf "$tmp"

results=.test-results
rm -rf "$results" && mkdir -p "$results"

step "unit and API tests (embedded PGlite)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest-pglite.json"

step "API, storage and training tests on the production topology: a PostgreSQL server and S3 (BLOB_STORE=s3)"
# The whole suite ran above on the embedded database and the local disk. Here the API tests, the
# security tests whose defences live in the database (limits, quotas, links, the matrix) and the
# storage-heavy ones (datasets, training, registry, hub, checkpoints, untrusted models, the
# kill-and-resume training server, image training) run again against a throwaway PostgreSQL server
# and a throwaway S3-compatible server, as several machines would share them.
bash scripts/with-postgres.sh npx tsx tests/helpers/with-s3.ts npx vitest run \
  tests/api tests/jobs tests/storage tests/hub/hub-format.test.ts tests/training/{events,training-server,images}.test.ts \
  tests/security/{authz-matrix,login-limits,client-address,forwarded-headers,hub-links,hub-fork-quota,quota,checkpoint-flood,managed-token,body-limit,idempotency-body,untrusted-model}.test.ts \
  --reporter=default --reporter=json --outputFile.json="$results/vitest-postgres-s3.json"

step "soak test of the local cluster (two API servers, two workers, HAProxy, PostgreSQL, S3)"
bash scripts/soak-ci.sh

step "Python SDK tests (pytest, against a real server)"
PYTEST_JSON_OUTPUT="$results/pytest.json" bash scripts/test-python.sh

step "production build"
npx next build

step "end-to-end tests (Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test --reporter=list,json

node scripts/summarize-tests.mjs "$results"
