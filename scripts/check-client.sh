#!/usr/bin/env bash
# Fails when lib/api/schema.d.ts is not what the current API generates (run `npm run api:generate`).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npx tsx scripts/dump-openapi.ts "$tmp/openapi.json" >/dev/null
npx openapi-typescript "$tmp/openapi.json" -o "$tmp/schema.d.ts" >/dev/null 2>&1
npx biome format "$tmp/schema.d.ts" >/dev/null 2>&1 || true
if ! diff -q "$tmp/schema.d.ts" lib/api/schema.d.ts >/dev/null; then
  echo "lib/api/schema.d.ts is stale: run 'npm run api:generate' and commit the result." >&2
  diff -u lib/api/schema.d.ts "$tmp/schema.d.ts" | head -40 >&2
  exit 1
fi
echo "generated client is up to date"
