#!/usr/bin/env bash
# The whole test suite: lint, types, generated-client freshness, OpenAPI lint, unit + API tests on the
# embedded database, the API tests again on a PostgreSQL server, the Python SDK's tests against a real
# server, the production build, and e2e in Chromium.
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

step "API tests against a PostgreSQL server"
# The security tests whose defences live in the database (limits, quotas, links, the matrix) run here too.
bash scripts/with-postgres.sh npx vitest run tests/api tests/training/events.test.ts \
  tests/security/{authz-matrix,login-limits,client-address,forwarded-headers,hub-links,quota,checkpoint-flood,managed-token,body-limit,idempotency-body,untrusted-model}.test.ts \
  --reporter=default --reporter=json \
  --outputFile.json="$results/vitest-postgres.json"

step "storage-heavy API tests against an S3-compatible server (BLOB_STORE=s3)"
npx tsx tests/helpers/with-s3.ts npx vitest run \
  tests/api/registry.test.ts tests/api/projects.test.ts tests/api/catalog.test.ts tests/api/audits.test.ts \
  tests/hub/hub-format.test.ts tests/security/{hub-links,quota}.test.ts \
  tests/storage tests/api/datasets{,-fetch,-images,-pii,-rows}.test.ts \
  tests/api/{training,training-recipes,inference-images-trained,evaluations,deployments}.test.ts \
  tests/security/{checkpoint-flood,untrusted-model}.test.ts tests/training/{training-server,images}.test.ts \
  --reporter=default --reporter=json --outputFile.json="$results/vitest-s3.json"

step "Python SDK tests (pytest, against a real server)"
PYTEST_JSON_OUTPUT="$results/pytest.json" bash scripts/test-python.sh

step "production build"
npx next build

step "end-to-end tests (Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test --reporter=list,json

node scripts/summarize-tests.mjs "$results"
